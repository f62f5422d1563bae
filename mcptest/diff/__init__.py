"""`mcptest diff`: classify every change between two catalogs (breaking, risky, compatible) and its effect."""
