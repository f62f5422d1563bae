"""`mcptest serve`: mcptest itself as an MCP server over stdio, built on the SDK's `MCPServer`, so a coding agent can
validate, list, run, lint and scan suites and catalogs under one root directory.

May import: every layer below the interfaces, core up to run.

It sits beside the CLI, which imports it; it never imports the CLI. The SDK is imported only by its `server` module,
which `mcptest serve` imports when it starts.
"""
