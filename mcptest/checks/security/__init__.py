"""`mcptest security`: SEC rules over what a server tells the model, on the lint engine's records and registry style."""
