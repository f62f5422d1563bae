"""`mcptest diff`: classify every change between two catalogs (breaking, risky, compatible) and its effect.

May import: core, expect, records, checks, providers, suite, server, mock, cassette, gates, agent, bench.
"""
