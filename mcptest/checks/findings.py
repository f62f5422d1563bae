"""The lint vocabulary: severities, what a rule reports (a Hit), the Finding record, and the Rule record."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from mcptest.records.catalog import Tool


class Severity(StrEnum):
    """How bad a finding is; `pass` only appears on the synthetic finding of a clean tool."""

    PASS = "pass"
    """The tool meets the bar for every rule that ran."""
    WARNING = "warning"
    """Imperfect but workable."""
    CRITICAL = "critical"
    """Violates a research-backed rule: an agent will likely struggle to use the tool reliably."""

    @property
    def rank(self) -> int:
        """0 for pass, 1 for warning, 2 for critical: for `--fail-on` comparisons."""
        return ("pass", "warning", "critical").index(self.value)


@dataclass(frozen=True)
class Hit:
    """What a rule yields for one problem: the rule's code and severity are added by the engine."""

    message: str
    suggestion: str | None = None
    pointer: str | None = None
    """A JSON pointer into the tool object, e.g. `/inputSchema/properties/city`."""
    pointers: tuple[str, ...] = ()
    """Every field a tool-level finding concerns (DESC-008 names each long argument); empty for one field."""
    severity: Severity | None = None
    """A lower severity for this one hit, where the rule's own would overstate it (None: the rule's)."""
    same: tuple[str, ...] = ()
    """What makes this defect one with the same rule's hits on other tools of the catalog, beyond a shared schema
    (SCH-004: the same field of the same kind of record, in each tool that writes it); empty for none."""
    listed: tuple[str, ...] = ()
    """The object words (singular) of a key this hit asks about, when a tool of the catalog that lists that object
    answers it (DESC-006: the listing gave a number key `test_plan_id`); empty for none."""


@dataclass(frozen=True)
class Finding:
    """One rule firing on one tool (or the synthetic Pass of a clean tool)."""

    rule: str
    severity: Severity
    tool: str
    message: str
    suggestion: str | None = None
    pointer: str | None = None
    pointers: tuple[str, ...] = ()
    """Every field a tool-level finding concerns, when it concerns several (`pointer` is then the first)."""
    also: tuple[str, ...] = ()
    """The other tools the same defect appears in, when one finding reports it for several (`lint_tools`)."""
    same: tuple[str, ...] = field(default=(), compare=False)
    """The hit's `same` key (`lint_tools` reports the findings sharing one once); not part of the finding's JSON."""
    listed: tuple[str, ...] = field(default=(), compare=False)
    """The hit's `listed` words (`lint_tools` drops the finding when a tool lists that object); not in the JSON."""

    def to_json(self) -> dict[str, Any]:
        """The finding as a JSON object (absent fields omitted)."""
        out: dict[str, Any] = {"rule": self.rule, "severity": self.severity.value, "tool": self.tool}
        out["message"] = self.message
        out |= {k: v for k, v in (("suggestion", self.suggestion), ("pointer", self.pointer)) if v is not None}
        out |= {"pointers": list(self.pointers)} if self.pointers else {}
        return out | ({"also": list(self.also)} if self.also else {})


Check = Callable[..., Iterable[Hit]]
"""A rule's function: `check(tool, **options) -> hits`; most rules take no options."""


@dataclass(frozen=True)
class Rule:
    """A lint rule: a stable code (never reused), a severity, and the function whose docstring documents it."""

    code: str
    severity: Severity
    check: Check
    options: tuple[tuple[str, Any], ...] = ()
    """Settings passed to `check` as keyword arguments (`registry.configure` sets them, e.g. `server_managed`)."""
    pedantic: bool = False
    """Right by definition but rarely worth acting on: off by default, on with `--strict` or `--select CODE`."""

    @property
    def name(self) -> str:
        """A readable slug taken from the function name: `desc_001_short_description` -> `short-description`."""
        return self.check.__name__.split("_", 2)[-1].replace("_", "-")

    @property
    def docs(self) -> str:
        """The user documentation: the function's docstring, dedented."""
        return inspect.cleandoc(self.check.__doc__ or "")

    @property
    def summary(self) -> str:
        """The first line of the documentation."""
        return self.docs.splitlines()[0] if self.docs else ""

    def run(self, tool: Tool) -> list[Finding]:
        """Every finding this rule reports on `tool`.

        Written as a plain loop: most rules find nothing on most tools, and a comprehension (a function of its own
        in Python 3.11) with the options' dict cost ~2 µs per call: ~50 ms of the 26,000 calls on 1,000 tools."""
        found = []
        for h in self.check(tool, **dict(self.options)) if self.options else self.check(tool):
            severity = h.severity or self.severity
            found.append(
                Finding(
                    self.code, severity, tool.name, h.message, h.suggestion, h.pointer, h.pointers, (), h.same, h.listed
                )
            )
        return found


def pointer(*parts: str | int) -> str:
    """A JSON pointer (RFC 6901) from path parts: `pointer("inputSchema", "properties", "a/b")`."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)
