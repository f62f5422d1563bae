"""The suite format (version 1) and its loader: YAML with positions, `${VAR}` interpolation, pydantic models
with every block's config in `blocks/`, and the load-time checks that report every problem at `file:line:col`.

May import: core, expect, records, checks, providers.
"""
