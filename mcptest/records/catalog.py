"""A tool catalog: what a server's `tools/list` returned, loaded from a file or a live server, saved atomically."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcptest.core.errors import Problem, UserError

_OBJECT_KEYS = tuple((k, dict, "an object") for k in ("inputSchema", "outputSchema", "annotations"))
_OPTIONAL_STRINGS = ("description", "title")
_TOOL_AT = re.compile(r"^tools\[(\d+)\](?: \(.*?\))?((?:\.\w+)*)")


@dataclass(frozen=True)
class Tool:
    """One tool as MCP puts it on the wire; `raw` is the exact JSON object, unknown keys included."""

    raw: dict[str, Any]

    @property
    def name(self) -> str:
        """The tool's name."""
        return str(self.raw["name"])

    @property
    def description(self) -> str:
        """The description, or an empty string when the tool has none."""
        return self.raw.get("description") or ""

    @property
    def input_schema(self) -> dict[str, Any]:
        """The `inputSchema` (an empty object schema when the tool declares none)."""
        return self.raw.get("inputSchema") or {"type": "object"}

    @property
    def output_schema(self) -> dict[str, Any] | None:
        """The `outputSchema`, if declared."""
        return self.raw.get("outputSchema")

    @property
    def annotations(self) -> dict[str, Any] | None:
        """The `annotations` object, if declared."""
        return self.raw.get("annotations")


@dataclass(frozen=True)
class Catalog:
    """The tools a server advertises, in the order it listed them, and (from a snapshot) its other primitives."""

    tools: tuple[Tool, ...]
    resources: tuple[dict[str, Any], ...] = ()
    """`resources/list` entries in wire form (from a `mcptest catalog` snapshot)."""
    resource_templates: tuple[dict[str, Any], ...] = ()
    """`resources/templates/list` entries in wire form (`resourceTemplates` in a snapshot)."""
    prompts: tuple[dict[str, Any], ...] = ()
    """`prompts/list` entries in wire form."""

    def wire(self) -> dict[str, Any]:
        """The catalog as a `tools/list` result: `{"tools": [...]}`."""
        return {"tools": [t.raw for t in self.tools]}

    def tool(self, name: str) -> Tool | None:
        """The first tool called `name`, if any."""
        return next((t for t in self.tools if t.name == name), None)


def from_wire(data: Any, source: str = "catalog", *, shorthand: bool = False) -> Catalog:
    """Build a catalog from a `tools/list` result or a bare array of tools; problems raise UserError.

    `shorthand` (a tool-bench spec's inline catalog) lets a tool leave out `inputSchema`.
    """
    tools = tool_list(data, source)
    problems = [Problem(source, 0, 0, m) for i, raw in enumerate(tools) for m in tool_problems(raw, i, shorthand)]
    problems += [Problem(source, 0, 0, m) for m in _other_problems(data)]
    if problems:
        raise UserError(problems)
    others = {key: _objects(data, wire, source) for key, wire in _OTHER_PRIMITIVES.items()}
    return Catalog(tuple(Tool(raw) for raw in tools), **others)


_OTHER_PRIMITIVES = {"resources": "resources", "resource_templates": "resourceTemplates", "prompts": "prompts"}
_IDENTITY = {"resources": "uri", "resourceTemplates": "uriTemplate", "prompts": "name"}
"""The key that names each other primitive, as `resources/read` and `prompts/get` need it."""


def _other_problems(data: Any) -> list[str]:
    """Every malformed resource, resource template and prompt list or entry (all at once, like the tools')."""
    out = []
    for key, identity in _IDENTITY.items():
        items = data.get(key) if isinstance(data, dict) else None
        if items is None:
            continue
        if not isinstance(items, list):
            out.append(f"{key}: expected an array")
            continue
        for i, raw in enumerate(items):
            if not isinstance(raw, dict) or not isinstance(raw.get(identity), str) or not raw[identity]:
                out.append(f"{key}[{i}]: needs a non-empty string {identity!r}")
    return out


def _objects(data: Any, key: str, source: str) -> tuple[dict[str, Any], ...]:
    items = data.get(key, []) if isinstance(data, dict) else []
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        raise UserError([Problem(source, 0, 0, f"'{key}' must be an array of objects")])
    return tuple(items)


def tool_list(data: Any, source: str) -> list[Any]:
    """The tools array of a `tools/list` result or a bare array; anything else is a UserError."""
    tools = data.get("tools") if isinstance(data, dict) else data
    if not isinstance(tools, list):
        found = "an object without a 'tools' array" if isinstance(data, dict) else f"a JSON {_kind(data)}"
        raise UserError([Problem(source, 0, 0, f'expected {{"tools": [...]}} or an array of tools, found {found}')])
    return tools


def read_json(path: str | Path) -> tuple[Any, str]:
    """Read a JSON file: its data and its text; a syntax error points at its line and column."""
    from mcptest.core import json_source
    from mcptest.core.yaml_source import read_text

    text = read_text(path)
    return json_source.loads(text, str(path)), text


def load_catalog(path: str | Path) -> Catalog:
    """Read a saved catalog (JSON); each problem is located at its tool (or the key of it) in the file."""
    data, text = read_json(path)
    try:
        return from_wire(data, str(path))
    except UserError as exc:
        raise UserError(locate(exc.problems, text, data)) from None


def locate(problems: list[Problem], text: str, data: Any) -> list[Problem]:
    """Catalog problems (`tools[3] (name).inputSchema: ...`) placed at their line and column of the JSON text."""
    from mcptest.core.yaml_source import parse

    if all(p.line for p in problems):
        return problems
    try:
        doc = parse(text, problems[0].file)  # JSON is YAML: parsed again only to find positions
    except UserError:
        return problems
    out = []
    for p in problems:
        where = _TOOL_AT.match(p.message)
        if p.line or where is None:
            out.append(p)
            continue
        loc: tuple[str | int, ...] = ("tools",) if isinstance(data, dict) else ()
        loc = (*loc, int(where.group(1)), *where.group(2).split(".")[1:])
        out.append(doc.problem(loc, p.message))
    return out


def save_catalog(catalog: Catalog, path: str | Path) -> None:
    """Write `{"tools": [...]}` to `path` atomically (a temp file beside it, then a rename)."""
    from mcptest.core.atomic import atomic_write_text

    try:
        atomic_write_text(path, json.dumps(catalog.wire(), indent=2, ensure_ascii=False) + "\n")
    except OSError as exc:
        raise UserError([Problem(str(path), 0, 0, f"cannot write the catalog: {exc.strerror or exc}")]) from None


def tool_problems(raw: Any, i: int, shorthand: bool = False) -> list[str]:
    """What is wrong with the i-th tool of a catalog, one message each: `doctor --catalog` and `mock` alike."""
    at = f"tools[{i}]"
    if not isinstance(raw, dict):
        return [f"{at}: a tool must be an object, found a JSON {_kind(raw)}"]
    out = []
    if not isinstance(raw.get("name"), str) or not raw["name"]:
        out.append(f"{at}.name: every tool needs a non-empty string name")
    else:
        at = f"tools[{i}] ({raw['name']})"
    for key, kind, want in (*((k, str, "a string") for k in _OPTIONAL_STRINGS), *_OBJECT_KEYS):
        if raw.get(key) is not None and not isinstance(raw[key], kind):
            out.append(f"{at}.{key}: must be {want}, found a JSON {_kind(raw[key])}")
    if "inputSchema" not in raw and not shorthand:
        out.append(f'{at}: missing \'inputSchema\' (MCP requires one; write {{"type": "object"}} for no arguments)')
    for key in ("inputSchema", "outputSchema"):
        if isinstance(raw.get(key), dict):
            out += _schema_problems(f"{at}.{key}", raw[key])
    return out


def _schema_problems(at: str, schema: dict[str, Any]) -> list[str]:
    """A tool's input or output schema must be a valid JSON Schema of an object (MCP requires both)."""
    from mcptest.core.schema_checks import schema_problem
    from mcptest.core.validation import where

    found = schema_problem(schema)
    if found is not None:
        return [f"{where((at, *found[0]))}: not a valid JSON Schema: {found[1]}"]
    if schema.get("type") != "object":
        kind = f"type {json.dumps(schema['type'])}" if "type" in schema else "no type"
        return [f'{at}: must be an object schema ("type": "object"), found {kind}']
    return []


def _kind(value: Any) -> str:
    names = {dict: "object", list: "array", str: "string", bool: "boolean", type(None): "null"}
    return names.get(type(value), "number")
