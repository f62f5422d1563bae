from mcptest.cli import entry

entry()
