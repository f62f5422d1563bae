"""Schema-driven fuzzing of tools, the pure part: a tool's inputSchema -> valid and invalid inputs (`inputs`), a
failing input shrunk to a minimal one by Hypothesis (`shrink`), and what one answer shows (`classify`: crash, hang,
leaked traces, inputs accepted or rejected against the schema). Nothing here talks to a server: `server.fuzzing`
makes the calls, `run.fuzz` drives a run.

May import: core, expect, records, checks.
"""
