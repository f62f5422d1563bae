"""`mcptest conformance`'s rules: pure functions over the raw exchange a run recorded (`exchange`), each with a stable
id, its level (MUST/SHOULD) and the spec section it comes from (`rules`), and the official JSON Schema of each
protocol version the messages are validated against (`messages`, `schemas/`).

May import: core.
"""
