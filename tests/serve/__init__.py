"""mcptest serve: mcptest as an MCP server, driven by the SDK client."""
