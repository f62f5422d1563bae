"""A tool catalog: what a server's `tools/list` returned, loaded from a file or a live server, saved atomically."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from mcptest.core.errors import Problem, UserError
from mcptest.core.printable import clipped

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

    @property
    def model_visible(self) -> bool:
        """Whether the host shows this tool to the model. The MCP Apps extension lets a tool be called only by its
        UI (`_meta.ui.visibility: ["app"]`); the host keeps such a tool out of the model's tool list. No
        visibility (or an empty one) means both, the extension's default."""
        meta = self.raw.get("_meta")
        ui = meta.get("ui") if isinstance(meta, dict) else None
        seen = ui.get("visibility") if isinstance(ui, dict) else None
        return not isinstance(seen, list) or not seen or "model" in seen


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
    problems: tuple[Problem, ...] = ()
    """What is wrong with the listed tools, one problem each (a catalog read with `read_wire`); a tool that cannot be
    read at all (not an object, no name, a field of the wrong JSON type, a schema that is no JSON Schema) is left
    out of `tools`, one that only breaks MCP's rules (no `"type": "object"`) is kept."""
    sent: tuple[Any, ...] | None = None
    """The tools array exactly as listed, unreadable tools included (None: the same as `tools`)."""

    def wire(self) -> dict[str, Any]:
        """The catalog as a `tools/list` result, `{"tools": [...]}`, exactly as it was listed."""
        return {"tools": list(self.sent) if self.sent is not None else [t.raw for t in self.tools]}

    @property
    def left_out(self) -> int:
        """How many listed tools could not be read."""
        return 0 if self.sent is None else len(self.sent) - len(self.tools)

    def tool(self, name: str) -> Tool | None:
        """The first tool called `name`, if any."""
        return next((t for t in self.tools if t.name == name), None)


def from_wire(data: Any, source: str = "catalog", *, shorthand: bool = False) -> Catalog:
    """Build a catalog from a `tools/list` result or a bare array of tools; problems raise UserError.

    `shorthand` (a tool-bench spec's inline catalog) lets a tool leave out `inputSchema`.
    """
    catalog = read_wire(data, source, shorthand=shorthand)
    if catalog.problems:
        raise UserError(list(catalog.problems))
    return replace(catalog, sent=None)


def read_wire(data: Any, source: str = "catalog", *, shorthand: bool = False) -> Catalog:
    """A catalog of every tool that can be read, with what is wrong with each tool as its `problems` (the messages
    `from_wire` raises): how commands that can go on read a server that breaks the schema. A result that is no
    catalog at all, or a malformed resource or prompt list, still raises UserError."""
    tools = tool_list(data, source)
    checked = [_tool_check(raw, i, shorthand) for i, raw in enumerate(tools)]
    problems = [Problem(source, 0, 0, m) for found, _ in checked for m in found]
    others_wrong = [Problem(source, 0, 0, m) for m in _other_problems(data)]
    if others_wrong:
        raise UserError(problems + others_wrong)
    others = {key: _objects(data, wire, source) for key, wire in _OTHER_PRIMITIVES.items()}
    readable = tuple(Tool(raw) for raw, (_, ok) in zip(tools, checked, strict=True) if ok)
    return Catalog(readable, **others, problems=tuple(problems), sent=tuple(tools))


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
    catalog = read_catalog(path)
    if catalog.problems:
        raise UserError(list(catalog.problems))
    return replace(catalog, sent=None)


def read_catalog(path: str | Path) -> Catalog:
    """Read a saved catalog as `read_wire` reads a live one: each tool's problem located at its line and column."""
    data, text = read_json(path)
    try:
        catalog = read_wire(data, str(path))
    except UserError as exc:
        raise UserError(locate(exc.problems, text, data)) from None
    return replace(catalog, problems=tuple(locate(list(catalog.problems), text, data))) if catalog.problems else catalog


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
    return _tool_check(raw, i, shorthand)[0]


def _tool_check(raw: Any, i: int, shorthand: bool) -> tuple[list[str], bool]:
    """The i-th tool's problems, and whether it can still be read (a name, fields of the right JSON types, schemas
    that are JSON Schemas): what breaks only MCP's rules leaves a tool that lint, diff and the scan can read."""
    at = f"tools[{i}]"
    if not isinstance(raw, dict):
        return [f"{at}: a tool must be an object, found a JSON {_kind(raw)}"], False
    out = []
    if not isinstance(raw.get("name"), str) or not raw["name"]:
        out.append(f"{at}.name: every tool needs a non-empty string name")
    else:
        at = f"tools[{i}] ({clipped(raw['name'])})"
    for key, kind, want in (*((k, str, "a string") for k in _OPTIONAL_STRINGS), *_OBJECT_KEYS):
        if raw.get(key) is not None and not isinstance(raw[key], kind):
            out.append(f"{at}.{key}: must be {want}, found a JSON {_kind(raw[key])}")
    readable = not out
    if "inputSchema" not in raw and not shorthand:
        out.append(f'{at}: missing \'inputSchema\' (MCP requires one; write {{"type": "object"}} for no arguments)')
    for key in ("inputSchema", "outputSchema"):
        if isinstance(raw.get(key), dict):
            found, valid = _schema_problems(f"{at}.{key}", raw[key])
            out += found
            readable = readable and valid
    return out, readable


def _schema_problems(at: str, schema: dict[str, Any]) -> tuple[list[str], bool]:
    """A tool's input or output schema must be a valid JSON Schema of an object (MCP requires both); the flag says
    whether it is a JSON Schema at all."""
    from mcptest.core.errors import where
    from mcptest.core.schema_checks import ref_problems, schema_problem

    found = schema_problem(schema)
    if found is not None:
        return [f"{where((at, *found[0]))}: not a valid JSON Schema: {found[1]}"], False
    out = [f"{where((at, *loc))}: {message}" for loc, message in ref_problems(schema)]
    if schema.get("type") != "object":
        kind = f"type {json.dumps(schema['type'])}" if "type" in schema else "no type"
        out.append(f'{at}: must be an object schema ("type": "object"), found {kind}')
    return out, True


def _kind(value: Any) -> str:
    names = {dict: "object", list: "array", str: "string", bool: "boolean", type(None): "null"}
    return names.get(type(value), "number")
