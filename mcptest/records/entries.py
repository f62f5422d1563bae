"""Everything a server tells the model, as one list: its tools, resources, resource templates and prompts.

`diff`, `pin` and `security` read catalogs through this view. A snapshot is the `Catalog` model's JSON
(`{"tools": [...]}`), optionally with `resources`, `resourceTemplates` and `prompts` arrays beside `tools`; a
cassette contributes the catalog its model was shown (distractors left out).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from mcptest.core.errors import Problem, UserError
from mcptest.records.catalog import Catalog, Tool, from_wire, locate, read_json, read_wire

KINDS = ("tool", "resource", "resource_template", "prompt")
"""The kinds of entry, in the order a report lists them."""

WIRE_KEYS = {"tool": "tools", "resource": "resources", "resource_template": "resourceTemplates", "prompt": "prompts"}
"""The key of each kind's array in a snapshot (the MCP list results' keys)."""

IDENTITY = {"tool": "name", "resource": "uri", "resource_template": "uriTemplate", "prompt": "name"}
"""The field that identifies an entry of each kind: a tool or prompt by name, a resource by URI."""


@dataclass(frozen=True)
class Entry:
    """One tool, resource, resource template or prompt; `raw` is its exact JSON object."""

    kind: str
    raw: dict[str, Any]
    server: str = ""
    """The server that lists it (empty for a single-server snapshot)."""

    @property
    def key(self) -> str:
        """What identifies it among entries of its kind: the name, or the URI (template) of a resource."""
        return str(self.raw.get(IDENTITY[self.kind]) or "")

    @property
    def name(self) -> str:
        """Its `name` (a resource without one: its URI)."""
        return str(self.raw.get("name") or self.key)

    @property
    def label(self) -> str:
        """How a report names it: `tool 'get_weather'`, `resource 'file:///a.txt'`."""
        return f"{self.kind.replace('_', ' ')} '{self.key}'"

    @property
    def description(self) -> str:
        """The description, or an empty string."""
        value = self.raw.get("description")
        return value if isinstance(value, str) else ""

    def tool(self) -> Tool:
        """The entry as a lint `Tool` (meaningful for tools; other kinds read as a tool with their fields)."""
        return Tool(self.raw)


@dataclass(frozen=True)
class Surface:
    """The entries of one catalog (one server, or several when read from a suite or a cassette)."""

    source: str
    entries: tuple[Entry, ...]
    problems: tuple[Problem, ...] = ()
    """What is wrong with the listed tools (`Catalog.problems`): a command that goes on prints them as warnings."""

    def of_kind(self, kind: str) -> list[Entry]:
        """The entries of one kind, in listed order."""
        return [e for e in self.entries if e.kind == kind]

    def unnamed(self) -> Surface:
        """The same entries with no server names: how a live server compares with a snapshot of it."""
        return Surface(self.source, tuple(replace(e, server="") for e in self.entries))

    def wire(self) -> dict[str, Any]:
        """The entries as a snapshot: `{"tools": [...]}` plus `resources`, `resourceTemplates`, `prompts` when any."""
        out: dict[str, Any] = {"tools": [e.raw for e in self.tools]}
        for kind in KINDS[1:]:
            if self.of_kind(kind):
                out[WIRE_KEYS[kind]] = [e.raw for e in self.of_kind(kind)]
        return out

    @property
    def named(self) -> bool:
        """Every entry names its server (a suite's or a cassette's catalog)."""
        return all(e.server for e in self.entries)

    @property
    def tools(self) -> list[Entry]:
        """The tool entries."""
        return self.of_kind("tool")


def from_catalog(catalog: Catalog, source: str, server: str = "") -> Surface:
    """The entries of a `Catalog`: its tools, and its resources, templates and prompts once the model has them."""
    entries = [Entry("tool", t.raw, server) for t in catalog.tools]
    for kind in KINDS[1:]:
        for item in getattr(catalog, WIRE_KEYS[kind], None) or ():
            entries.append(Entry(kind, getattr(item, "raw", item), server))
    return Surface(source, tuple(entries), catalog.problems)


def from_json(data: Any, source: str) -> Surface:
    """A snapshot (`{"tools": [...], "resources": [...], ...}` or a bare tool array) or a cassette's catalog.

    A tool that breaks the schema is a problem of the surface (read as a live server's is, `read_wire`), not an
    error: the tools that can be read are compared, pinned and scanned like any others."""
    if isinstance(data, dict) and "fingerprint" in data and isinstance(data.get("catalog"), list):
        return _from_cassette(data, source)
    only_others = isinstance(data, dict) and "tools" not in data and any(k in data for k in list(WIRE_KEYS.values()))
    catalog = Catalog(()) if only_others else read_wire(data, source)
    entries = [Entry("tool", t.raw) for t in catalog.tools]
    problems: list[Problem] = []
    for kind in KINDS[1:]:
        items = data.get(WIRE_KEYS[kind]) if isinstance(data, dict) else None
        if items is None:
            continue
        if not isinstance(items, list):
            problems.append(Problem(source, 0, 0, f"{WIRE_KEYS[kind]}: expected an array"))
            continue
        for i, raw in enumerate(items):
            if isinstance(raw, dict) and isinstance(raw.get(IDENTITY[kind]), str) and raw[IDENTITY[kind]]:
                entries.append(Entry(kind, raw))
            else:
                where = f"{WIRE_KEYS[kind]}[{i}]"
                problems.append(Problem(source, 0, 0, f"{where}: needs a non-empty string {IDENTITY[kind]!r}"))
    if problems:
        raise UserError(problems)
    return Surface(source, tuple(entries), catalog.problems)


def load(path: str | Path) -> Surface:
    """Read a saved snapshot or a cassette file; each problem is placed at its line and column."""
    data, text = read_json(path)
    try:
        surface = from_json(data, str(path))
    except UserError as exc:
        raise UserError(locate(exc.problems, text, data)) from None
    return replace(surface, problems=tuple(locate(list(surface.problems), text, data))) if surface.problems else surface


def _from_cassette(data: dict[str, Any], source: str) -> Surface:
    entries = []
    for i, item in enumerate(data["catalog"]):
        if not isinstance(item, dict) or not isinstance(item.get("tool"), dict):
            raise UserError([Problem(source, 0, 0, f"catalog[{i}]: expected {{server, tool, distractor}}")])
        if not item.get("distractor"):
            entries.append(Entry("tool", item["tool"], str(item.get("server") or "")))
    from_wire([e.raw for e in entries], source)  # the same checks as a snapshot's tools
    return Surface(source, tuple(entries))
