"""Load a captured `tools/list` result (`{"tools": [...]}` or a bare array, wire form), or a `mcptest catalog`
snapshot (tools, resources, templates, prompts), as a MockSpec."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mcptest.core.errors import Problem, UserError
from mcptest.mock.served import served_snapshot
from mcptest.mock.spec import MockSpec, MockTool
from mcptest.records.catalog import from_wire, locate, read_json, tool_list, tool_problems


def load_snapshot(path: str) -> MockSpec:
    """Read a snapshot file, or raise a UserError listing every problem (JSON has no node positions)."""
    data, text = read_json(path)
    tools = tool_list(data, path)
    problems = [Problem(path, 0, 0, msg) for i, tool in enumerate(tools) for msg in tool_problems(tool, i)]
    problems += _duplicates(path, tools)
    if problems:
        raise UserError(locate(problems, text, data))
    spec = MockSpec(Path(path).stem, "0.1.0", tools=[MockTool(dict(tool)) for tool in tools], source=path)
    if isinstance(data, dict) and "format_version" in data:
        spec = served_snapshot(spec, from_wire(data, path))
    return spec


def _duplicates(path: str, tools: list[Any]) -> list[Problem]:
    names = [tool.get("name") for tool in tools if isinstance(tool, dict)]
    dups = sorted({str(n) for n in names if names.count(n) > 1})
    return [Problem(path, 0, 0, f"duplicate tool name '{name}'") for name in dups]
