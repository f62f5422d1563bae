"""The catalog as a model sees it: per tool its description, and per parameter type, required marker, description.

It is document 002's `_format_tools()` fix made visible: the folded types (`_schema_type`), the required markers,
the server-managed fields an author could hide, and what each costs in tool-surface tokens (cl100k_base).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from mcptest.checks.lint.server_managed import DEFAULT_SERVER_MANAGED, managed_properties
from mcptest.checks.lint.shapes import follow, type_label
from mcptest.checks.lint.surface import tool_tokens
from mcptest.checks.lint.text import description_of
from mcptest.core.figures import plural
from mcptest.core.printable import clip_runs
from mcptest.records.catalog import Catalog, Tool


@dataclass(frozen=True)
class Param:
    """One parameter as the model reads it; `params` are the fields of an object (or of an array's items)."""

    name: str
    type: str
    required: bool
    description: str
    server_managed: bool
    params: tuple[Param, ...] = ()
    limits: tuple[tuple[str, Any], ...] = ()
    """What else the model reads on the parameter: `default`, `minimum`/`maximum` and the other bounds, in
    schema order (`LIMITS`)."""

    def to_json(self) -> dict[str, Any]:
        """The parameter as JSON (limits and nested fields only when it has some)."""
        out: dict[str, Any] = {"name": self.name, "type": self.type, "required": self.required}
        out |= {"description": self.description, "server_managed": self.server_managed}
        out |= {"limits": dict(self.limits)} if self.limits else {}
        return out | ({"params": [p.to_json() for p in self.params]} if self.params else {})


LIMITS = (
    "default",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minItems",
    "maxItems",
    "uniqueItems",
)
"""The schema keywords the view shows beside a parameter's type: its default and its bounds."""


@dataclass(frozen=True)
class ToolView:
    """One tool as the model reads it, its surface tokens, and the tokens its server-managed fields cost."""

    name: str
    description: str
    params: tuple[Param, ...]
    tokens: int
    server_managed_tokens: int

    def to_json(self) -> dict[str, Any]:
        """The tool view as JSON."""
        return {
            "name": self.name,
            "description": self.description,
            "tokens": self.tokens,
            "server_managed_tokens": self.server_managed_tokens,
            "params": [p.to_json() for p in self.params],
        }


@dataclass(frozen=True)
class ModelView:
    """A whole catalog as the model reads it, with the server-managed names it was judged by."""

    tools: tuple[ToolView, ...]
    server_managed: tuple[str, ...]

    @property
    def tokens(self) -> int:
        """The catalog's tool-surface tokens (the same figure as doctor's token check)."""
        return sum(t.tokens for t in self.tools)

    @property
    def server_managed_tokens(self) -> int:
        """What the catalog would save if every server-managed field were dropped from its schemas."""
        return sum(t.server_managed_tokens for t in self.tools)

    def to_json(self) -> dict[str, Any]:
        """The view as JSON: the totals, the names judged server-managed, then one entry per tool."""
        return {
            "tokens": self.tokens,
            "server_managed_tokens": self.server_managed_tokens,
            "server_managed": list(self.server_managed),
            "tools": [t.to_json() for t in self.tools],
        }


def model_view(catalog: Catalog, server_managed: Iterable[str] = DEFAULT_SERVER_MANAGED) -> ModelView:
    """Build the view of every tool; a field is server-managed as SCH-005 judges it (same names, same exemptions)."""
    names = tuple(server_managed)
    return ModelView(tuple(_tool_view(t, names) for t in catalog.tools), names)


def _tool_view(tool: Tool, names: tuple[str, ...]) -> ToolView:
    managed = {p.path for p in managed_properties(tool, names)}
    params = _params(tool.input_schema, _Ctx(tool.input_schema, managed), ())
    saved = tool_tokens(tool) - tool_tokens(_without(tool, managed)) if managed else 0
    return ToolView(tool.name, tool.description, params, tool_tokens(tool), saved)


Path = tuple[str | int, ...]


@dataclass(frozen=True)
class _Ctx:
    root: dict[str, Any]
    managed: set[Path]


def _params(schema: dict[str, Any], ctx: _Ctx, path: Path, seen: frozenset[Path] = frozenset()) -> tuple[Param, ...]:
    props, req = schema.get("properties"), schema.get("required")
    out = []
    for name, sub in props.items() if isinstance(props, dict) else ():
        sub, here = sub if isinstance(sub, dict) else {}, (*path, "properties", name)
        fields = _fields(sub, ctx, here, seen)
        required = isinstance(req, list) and name in req
        managed = here in ctx.managed
        limits = _limits(follow(sub, ctx.root, here)[0])
        out.append(Param(name, type_label(sub, ctx.root), required, description_of(sub), managed, fields, limits))
    return tuple(out)


def _limits(schema: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple((key, schema[key]) for key in LIMITS if key in schema)


def _fields(schema: dict[str, Any], ctx: _Ctx, path: Path, seen: frozenset[Path]) -> tuple[Param, ...]:
    """The fields of an object parameter, or of an array parameter's object items (the first branch with some)."""
    for branch, at in _object_branches(schema, ctx.root, path):
        fields = () if at in seen else _params(branch, ctx, at, seen | {at})
        if fields:
            return fields
    return ()


def _object_branches(schema: dict[str, Any], root: dict[str, Any], path: Path) -> list[tuple[dict[str, Any], Path]]:
    options = [follow(schema, root, path)]
    for key in ("anyOf", "oneOf"):
        alternatives = options[0][0].get(key)
        for i, branch in enumerate(alternatives if isinstance(alternatives, list) else []):
            options += [follow(branch, root, (*options[0][1], key, i))] if isinstance(branch, dict) else []
    items = [follow(s["items"], root, (*p, "items")) for s, p in options if isinstance(s.get("items"), dict)]
    return [(s, p) for s, p in options + items if isinstance(s.get("properties"), dict)]


def _without(tool: Tool, paths: set[tuple[str | int, ...]]) -> Tool:
    """The tool with the given (optional, so never listed in `required`) properties removed from its inputSchema."""
    raw = copy.deepcopy(tool.raw)
    for path in paths:
        parent = raw["inputSchema"]
        for part in path[:-2]:
            parent = parent[part]
        parent["properties"].pop(path[-1], None)
    return Tool(raw)


def render(view: ModelView) -> str:
    """The view as text, in the shape of document 002's `_format_tools()`: one `### tool` section per tool."""
    sections = [_render_tool(t) for t in view.tools]
    share = f" ({view.server_managed_tokens / view.tokens:.1%})" if view.tokens else ""
    hide = (
        f"server-managed fields: {view.server_managed_tokens:,} tokens{share} the author could hide"
        if view.server_managed_tokens
        else "no server-managed fields exposed"
    )
    total = f"Total: {plural(len(view.tools), 'tool')}, {view.tokens:,} tokens (cl100k_base); {hide}"
    return "\n\n".join([*sections, total]) + "\n"


def _render_tool(tool: ToolView) -> str:
    cost = f"{tool.tokens:,} tokens" + (
        f"; server-managed fields: {tool.server_managed_tokens:,}" if tool.server_managed_tokens else ""
    )
    head = f"### {clip_runs(tool.name)} ({cost})\n{clip_runs(tool.description.strip()) or '(no description)'}"
    if not tool.params:
        return f"{head}\n\n(no parameters)"
    return f"{head}\n\nParameters:\n" + "\n".join(_render_params(tool.params, 0))


def _render_params(params: tuple[Param, ...], depth: int) -> list[str]:
    lines = []
    for p in params:
        marks = (
            (" (required)" if p.required else "")
            + f" [{p.type}]"
            + "".join(f" [{key}: {json.dumps(value, ensure_ascii=False)}]" for key, value in p.limits)
            + (" [server-managed: omit]" if p.server_managed else "")
        )
        desc = " ".join(p.description.split())
        lines.append(f"{'  ' * depth}- {p.name}{marks}" + (f": {desc}" if desc else ""))
        lines += _render_params(p.params, depth + 1)
    return lines
