"""Everything that speaks MCP as a client: sessions and their pool, transports (stdio start-up, process groups,
HTTP auth), the client's answers to server requests, resources/prompts over a session, and where catalogs come from
(a saved file, a command, a URL, a suite's servers, a live snapshot), with doctor's live probe of a server.

May import: core, expect, records, checks, providers, suite.
"""
