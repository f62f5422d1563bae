"""mcptest: test MCP servers and the agents that use them."""

__version__ = "0.1.0"
