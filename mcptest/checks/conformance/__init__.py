"""`mcptest conformance`'s rules: pure functions over the raw exchange a run recorded (`exchange`), each with a stable
id, its level (MUST/SHOULD) and the spec section it comes from (`rules`), and the official JSON Schema of each
protocol version the messages are validated against (`messages`, `schemas/`); the report of a run, its JSON form
and its SARIF and run-Report views (`report`).

May import: core, expect, records, checks.
"""
