"""OpenTelemetry: OTLP import onto the Trace, and the run exported as GenAI/MCP spans."""
