"""Run the rules and the scores over a catalog: one QualityReport shared by doctor and `tool_quality:`."""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from mcptest.checks.findings import Finding, Rule, Severity
from mcptest.checks.lint import tdqs
from mcptest.checks.lint.arg_rules import lists_object
from mcptest.checks.lint.registry import DEFAULT_RULES, PASS_RULE
from mcptest.checks.lint.smells import smell_counts
from mcptest.checks.lint.surface import tool_tokens
from mcptest.core.forked import split_map
from mcptest.records.catalog import Catalog, Tool


def lint_tool(tool: Tool, rules: Sequence[Rule] = DEFAULT_RULES) -> list[Finding]:
    """Every finding the rules report on `tool`, in registry order; one synthetic Pass when none fire."""
    return _run(tool, rules) or [_passed(tool)]


def _run(tool: Tool, rules: Sequence[Rule]) -> list[Finding]:
    """The rules' findings on a tool the model sees. A tool only its MCP Apps UI calls (`model_visible` is false)
    is never in the model's tool list: what the rules judge (how an agent reads and fills it) does not apply."""
    return [f for rule in rules for f in rule.run(tool)] if tool.model_visible else []


def lint_tools(tools: Sequence[Tool], rules: Sequence[Rule] = DEFAULT_RULES) -> list[list[Finding]]:
    """Each tool's findings, as `lint_tool` reports them, except that one defect repeated is reported once (one
    defect, one finding). Inside one tool, a schema rule's finding on the same schema at several places (a record
    Pydantic inlines at each use) is one finding, its `pointers` naming every place. Across tools, the repeat goes
    on the first tool that has it, its message naming every tool it affects: a finding on a definition several
    tools share (the same `$defs` entry, word for word), a schema rule's finding, with the same message, on a
    property schema written out word for word in several tools (a pattern the server copies into each tool: the
    author fixes it once, where it is written), and findings a rule marks as one (`Finding.same`: SCH-004's field of
    one kind of record in each tool that writes it). The tools of a large catalog are linted on every core
    (`split_map`)."""
    return _grouped(tools, split_map(partial(_run, rules=rules), tools))


def _grouped(tools: Sequence[Tool], found: list[list[Finding]]) -> list[list[Finding]]:
    """Each tool's findings with every repeated defect reported once (`lint_tools`): first the repeats inside each
    tool, then those of a shared schema across tools, then, among what is left, the findings a rule marked as one
    (`Finding.same`). First of all, a finding a tool of the catalog answers is dropped (`_unlisted`)."""
    found = _unlisted(tools, found)
    found = [_within_tool(tool, findings) for tool, findings in zip(tools, found, strict=True)]
    found = _merged(tools, found, _definition_key, _shared_what)
    found = _merged(tools, found, _same_key, lambda _: "one record's field, which")
    return [findings or [_passed(tool)] for tool, findings in zip(tools, found, strict=True)]


def _unlisted(tools: Sequence[Tool], found: list[list[Finding]]) -> list[list[Finding]]:
    """`found` without the findings on a key whose object a tool of the catalog lists (`Finding.listed`: DESC-006's
    undescribed `test_plan_id` beside a `get_test_plans`): the agent takes the key from that listing."""
    if not any(f.listed for findings in found for f in findings):
        return found
    names = [tool.name for tool in tools]
    return [[f for f in fs if not (f.listed and any(lists_object(n, f.listed) for n in names))] for fs in found]


def _within_tool(tool: Tool, findings: list[Finding]) -> list[Finding]:
    """`findings` with a schema rule's repeats inside one tool reported once: the same defect on the same schema,
    written out at several places (a record Pydantic inlined at each use: a node's `key_property` and each of its
    `properties[]`), is one finding on the first place, its `pointers` naming every place."""
    groups: dict[tuple[str, str, str], list[Finding]] = {}
    for finding in findings:
        key = _repeat_key(tool, finding)
        if key is not None:
            groups.setdefault(key, []).append(finding)
    if all(len(g) < 2 for g in groups.values()):
        return findings
    firsts: dict[int, Finding] = {}
    drop: set[int] = set()
    for same in groups.values():
        if len(same) < 2:
            continue
        first = same[0]
        places = tuple(dict.fromkeys(p for f in same for p in f.pointers or (f.pointer or "",)))
        firsts[id(first)] = replace(
            first, message=f"{first.message} (the same schema at {_more(len(same) - 1)})", pointers=places
        )
        drop.update(id(f) for f in same[1:])
    return [firsts.get(id(f), f) for f in findings if id(f) not in drop]


def _more(n: int) -> str:
    return f"{n} more place" + ("s" if n > 1 else "")


def _repeat_key(tool: Tool, finding: Finding) -> tuple[str, str, str] | None:
    """A schema rule's finding below the root: its rule, what it says (without the place) and its schema's text
    (without what a place says of its use: a record's description or default there)."""
    if not finding.rule.startswith("SCH-") or finding.rule in _PER_TOOL or not finding.pointer:
        return None
    parts = _places(finding)
    if not all(len(x) >= 2 and x[0] == "inputSchema" for x in parts):
        return None
    schemas = [_at(tool.input_schema, x[1:]) for x in parts]
    if any(not isinstance(s, dict) for s in schemas):
        return None
    said = finding.message.split(": ", 1)[-1]
    bare = [{k: v for k, v in s.items() if k not in _ABOUT_THE_USE} for s in schemas]
    return finding.rule, said, json.dumps(bare, sort_keys=True, default=str)


_ABOUT_THE_USE = frozenset(["description", "title", "default", "examples"])
"""Keywords that say how a record is used at one place ("The key property of the node"), not what it is."""


def _merged(
    tools: Sequence[Tool],
    found: list[list[Finding]],
    key_of: Callable[[Tool, Finding], Hashable | None],
    what: Callable[[Finding], str],
) -> list[list[Finding]]:
    """`found` with the findings of one key on several tools reported once, on the first tool, its message naming
    each tool (`what` they share) and `also` the others."""
    shared: dict[Hashable, list[tuple[int, Finding]]] = {}
    for index, findings in enumerate(found):
        for finding in findings:
            key = key_of(tools[index], finding)
            if key is not None:
                shared.setdefault(key, []).append((index, finding))
    drop: set[int] = set()
    rewrite: dict[int, Finding] = {}
    for places in shared.values():
        if len({i for i, _ in places}) < 2:
            continue
        # a finding an earlier merge made already names other tools (`also`): they stay named, not dropped with it
        tool_names = list(dict.fromkeys(n for i, f in places for n in (tools[i].name, *f.also)))
        first = places[0][1]
        shown = ", ".join(tool_names[:8]) + (f", +{len(tool_names) - 8} more" if len(tool_names) > 8 else "")
        rewrite[id(first)] = replace(
            first,
            message=f"{first.message} ({what(first)} {len(tool_names)} tools share: {shown})",
            also=tuple(tool_names[1:]),
        )
        drop.update(id(f) for _, f in places[1:])
    return [[rewrite.get(id(f), f) for f in findings if id(f) not in drop] for findings in found]


def _shared_what(first: Finding) -> str:
    return "a definition" if _in_definitions(first) else "the same schema in"


def _same_key(tool: Tool, finding: Finding) -> tuple[str, tuple[str, ...]] | None:
    """The key of a finding its rule marked as one defect with its hits on other tools (`Finding.same`)."""
    return (finding.rule, finding.same) if finding.same else None


def _passed(tool: Tool) -> Finding:
    if not tool.model_visible:
        return Finding(PASS_RULE, Severity.PASS, tool.name, "hidden from the model (_meta.ui.visibility): not linted")
    return Finding(PASS_RULE, Severity.PASS, tool.name, "meets every rule that ran")


def _places(finding: Finding) -> list[list[str]]:
    """The finding's JSON pointers, each split into unescaped parts (`/inputSchema/properties/a` -> its 3 parts)."""
    places = finding.pointers or ((finding.pointer,) if finding.pointer else ())
    return [[s.replace("~1", "/").replace("~0", "~") for s in p.split("/")[1:]] for p in places]


def _in_definitions(finding: Finding) -> bool:
    """Whether every place of the finding is inside the input schema's `$defs`/`definitions`."""
    parts = _places(finding)
    return bool(parts) and all(
        len(x) >= 3 and x[0] == "inputSchema" and x[1] in ("$defs", "definitions") for x in parts
    )


def _definition_key(tool: Tool, finding: Finding) -> tuple[str, str, str] | None:
    """The key under which two tools report the same defect: the rule, the message and the text of the schemas it
    concerns. For a finding inside `$defs`/`definitions`, the definitions themselves; for a schema rule's finding
    on property schemas below the root (never the root: two tools' whole inputs are not one pattern), those
    schemas; None for any other finding (a description finding depends on the tool it describes)."""
    parts = _places(finding)
    if _in_definitions(finding):
        defs = {(x[1], x[2]): tool.input_schema.get(x[1], {}).get(x[2]) for x in parts}
        text = json.dumps(sorted(defs.items(), key=lambda kv: kv[0]), sort_keys=True, default=str)
        return finding.rule, finding.message, text
    below_root = bool(parts) and all(len(x) >= 3 and x[0] == "inputSchema" for x in parts)
    if finding.rule in _PER_TOOL or not below_root:
        return None
    schemas = [_at(tool.input_schema, x[1:]) for x in parts]
    if any(s is None for s in schemas):
        return None
    return finding.rule, finding.message, json.dumps(schemas, sort_keys=True, default=str)


_PER_TOOL = frozenset({"SCH-005"})
"""Schema rules whose defect is the field's presence in each tool's input, not how its schema is written: a
server-managed id in 14 tools costs the model in each of them and is hidden tool by tool (`rules["SCH-005"]`
counts exposures)."""


def _at(schema: Any, parts: list[str]) -> Any:
    """The value at a pointer's parts inside `schema`, or None where the pointer leads nowhere."""
    node = schema
    for part in parts:
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return None
    return node


@dataclass(frozen=True)
class ToolReport:
    """One tool's findings, TDQS score (with its six heuristics) and surface tokens."""

    name: str
    findings: tuple[Finding, ...]
    score: float
    heuristics: dict[str, float]
    tokens: int

    def to_json(self) -> dict[str, Any]:
        """The tool report as JSON."""
        return {
            "name": self.name,
            "score": self.score,
            "heuristics": self.heuristics,
            "tokens": self.tokens,
            "findings": [f.to_json() for f in self.findings],
        }


@dataclass(frozen=True)
class QualityReport:
    """The lint findings, scores, smells and token cost of a whole catalog."""

    tools: tuple[ToolReport, ...]
    rules: tuple[str, ...]
    """The codes of the rules that ran (after --select/--ignore)."""

    @property
    def findings(self) -> list[Finding]:
        """Every finding, tool by tool (synthetic Pass findings included)."""
        return [f for t in self.tools for f in t.findings]

    def count(self, severity: Severity, family: str = "DESC") -> int:
        """How many findings of a rule family (`DESC` or `SCH`) landed at `severity`."""
        return sum(1 for f in self.findings if f.severity is severity and f.rule.startswith(f"{family}-"))

    @property
    def mean_score(self) -> float:
        """The mean of the per-tool scores (1.0 for an empty catalog: nothing is badly described)."""
        return round(sum(t.score for t in self.tools) / len(self.tools), 4) if self.tools else 1.0

    @property
    def min_score(self) -> float:
        """The worst tool's score (1.0 for an empty catalog)."""
        return min((t.score for t in self.tools), default=1.0)

    @property
    def smells(self) -> dict[str, int]:
        """Findings per named smell."""
        return smell_counts(self.findings)

    @property
    def tokens(self) -> int:
        """The catalog's tool-surface tokens."""
        return sum(t.tokens for t in self.tools)

    def summary(self) -> dict[str, Any]:
        """The catalog-level figures: the `tool_quality:` targets that are not per tool."""
        smells = self.smells
        return {
            "tool_count": len(self.tools),
            "mean_score": self.mean_score,
            "min_score": self.min_score,
            "critical_count": self.count(Severity.CRITICAL),
            "warning_count": self.count(Severity.WARNING),
            "schema_criticals": self.count(Severity.CRITICAL, "SCH"),
            "schema_warnings": self.count(Severity.WARNING, "SCH"),
            "smells": smells,
            "smell_total": sum(smells.values()),
            "tool_surface_tokens": self.tokens,
        }

    def to_json(self) -> dict[str, Any]:
        """The whole report as JSON: rules that ran, the summary, then one entry per tool."""
        return {"rules": list(self.rules), "summary": self.summary(), "tools": [t.to_json() for t in self.tools]}


def assess(catalog: Catalog, rules: Sequence[Rule] = DEFAULT_RULES) -> QualityReport:
    """Lint, score and count every tool of `catalog` (with the default tier of rules unless told otherwise); the
    tools of a large catalog are linted and scored on every core (`split_map`)."""
    tools = tuple(catalog.tools)
    judged = split_map(partial(_judged, rules=rules), tools)
    found = _grouped(tools, [findings for findings, _ in judged])
    return QualityReport(
        tuple(_tool_report(t, fs, v) for t, fs, (_, v) in zip(tools, found, judged, strict=True)),
        tuple(r.code for r in rules),
    )


def _judged(tool: Tool, rules: Sequence[Rule]) -> tuple[list[Finding], dict[str, float]]:
    """A tool's own findings and TDQS heuristics: the per-tool work of `assess`."""
    return _run(tool, rules), tdqs.heuristics(tool)


def _tool_report(tool: Tool, findings: list[Finding], values: dict[str, float]) -> ToolReport:
    return ToolReport(tool.name, tuple(findings), tdqs.mean(values), values, tool_tokens(tool))
