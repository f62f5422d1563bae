"""The mock MCP server: a manifest, a captured catalog or a preset served over stdio, with injectable faults.

May import: core, expect, records, checks, providers, suite, server.
"""

from __future__ import annotations


def serve(tools_from: str | None, preset: str | None, fault: str) -> None:
    """Check every input first (user errors exit 2 before the SDK is imported), then serve until stdin closes."""
    from mcptest.mock.faults import parse_fault
    from mcptest.mock.source import load_source

    parsed = parse_fault(fault)
    spec = load_source(tools_from, preset)
    from mcptest.mock.server import run

    run(spec, parsed)
