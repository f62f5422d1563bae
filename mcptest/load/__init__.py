"""`mcptest load`: virtual users, each with its own MCP session, running a suite's tool, resource and prompt tests
as weighted scenarios for a while (closed model, or open at a fixed arrival rate), every answer judged, every
latency recorded in HdrHistograms that merge exactly across processes and machines.

May import: core, expect, records, suite, server, report (its Markdown and HTML writers), run (the call a test makes
and its judging), and lower layers.
"""
