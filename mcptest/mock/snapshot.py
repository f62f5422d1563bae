"""Load a captured `tools/list` result (`{"tools": [...]}` or a bare array, wire form) as a MockSpec."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mcptest.errors import Problem, UserError
from mcptest.mock.schemas import schema_problem
from mcptest.mock.spec import MockSpec, MockTool
from mcptest.suite.validation import where
from mcptest.yaml_source import read_text


def load_snapshot(path: str) -> MockSpec:
    """Read a snapshot file, or raise a UserError listing every problem (JSON has no node positions)."""
    text = read_text(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UserError([Problem(path, exc.lineno, exc.colno, f"invalid JSON: {exc.msg}")]) from None
    tools = data.get("tools") if isinstance(data, dict) else data
    if not isinstance(tools, list):
        raise UserError([Problem(path, 0, 0, 'a snapshot is a tools/list result {"tools": [...]} or an array')])
    problems = [Problem(path, 0, 0, msg) for i, tool in enumerate(tools) for msg in _tool_problems(i, tool)]
    problems += _duplicates(path, tools)
    if problems:
        raise UserError(problems)
    return MockSpec(Path(path).stem, "0.1.0", tools=[MockTool(dict(tool)) for tool in tools], source=path)


def _tool_problems(i: int, tool: Any) -> list[str]:
    at = f"tools[{i}]"
    if not isinstance(tool, dict):
        return [f"{at}: a tool is an object, got {type(tool).__name__}"]
    problems = []
    if not isinstance(tool.get("name"), str) or not tool["name"]:
        problems.append(f"{at}: missing or empty 'name'")
    if "inputSchema" not in tool:
        problems.append(f"{at}: missing 'inputSchema'")
    for key in ("inputSchema", "outputSchema"):
        found = schema_problem(tool[key]) if key in tool else None
        if found is not None:
            problems.append(f"{where((at, key, *found[0]))}: not a valid JSON Schema: {found[1]}")
    return problems


def _duplicates(path: str, tools: list[Any]) -> list[Problem]:
    names = [tool.get("name") for tool in tools if isinstance(tool, dict)]
    dups = sorted({str(n) for n in names if names.count(n) > 1})
    return [Problem(path, 0, 0, f"duplicate tool name '{name}'") for name in dups]
