"""SARIF 2.1.0 pieces shared by every log mcptest writes (run reports, lint findings, SEC findings), and the lint
findings' log itself."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from mcptest import __version__

if TYPE_CHECKING:
    from mcptest.checks.lint.engine import QualityReport

SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
LEVEL = {"critical": "error", "warning": "warning"}
"""A finding's severity as a SARIF level."""


def sarif_log(*runs: dict[str, Any]) -> str:
    """A whole SARIF log of these runs, as indented JSON."""
    log = {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": list(runs)}
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"


def tool_driver(rules: list[dict[str, Any]], version: str = __version__) -> dict[str, Any]:
    """The `tool` of a run: mcptest at `version`, with these rule descriptors."""
    return {"driver": {"name": "mcptest", "version": version, "rules": rules}}


def rule_descriptor(rule_id: str, summary: str, docs: str | None = None, level: str = "error") -> dict[str, Any]:
    """One `reportingDescriptor`: the rule's id, summary, documentation and default level."""
    rule: dict[str, Any] = {"id": rule_id, "shortDescription": {"text": summary}}
    if docs:
        rule["fullDescription"] = {"text": docs}
    rule["defaultConfiguration"] = {"level": level}
    return rule


def sarif_result(rule_id: str, text: str, file: str | None, line: int | None, level: str = "error") -> dict[str, Any]:
    """One `result`, located at `file` (and `line`, when known)."""
    result: dict[str, Any] = {"ruleId": rule_id, "level": level, "message": {"text": text}}
    if file:
        location: dict[str, Any] = {"artifactLocation": {"uri": quote(file.replace("\\", "/"), safe="/:")}}
        if line and line > 0:
            location["region"] = {"startLine": line}
        result["locations"] = [{"physicalLocation": location}]
    return result


def lint_sarif(reports: Sequence[tuple[str, QualityReport]], uri: str | None = None) -> str:
    """Lint findings (`doctor --lint-descriptions`) as a SARIF 2.1.0 log: one result per finding, Pass omitted.

    Each result names its rule (`DESC-001`, `SCH-003`, ...) with the rule's level (critical -> error, warning ->
    warning) and the tool as a logical location; `uri` (the catalog or suite file) adds a physical location.
    """
    from mcptest.checks.lint.registry import RULES
    from mcptest.core.printable import clip_runs

    ran = {code for _, report in reports for code in report.rules}
    rules = [r for r in RULES if r.code in ran]
    index = {r.code: i for i, r in enumerate(rules)}
    results = []
    for source, report in reports:
        for f in report.findings:
            if f.rule not in index:
                continue
            tool = clip_runs(f.tool)  # a server's 10 KB tool name is shown cut, saying so
            result = sarif_result(f.rule, clip_runs(f"{f.tool}: {f.message}"), uri, None, LEVEL[f.severity.value])
            result["ruleIndex"] = index[f.rule]
            result.setdefault("locations", [{}])[0]["logicalLocations"] = [
                {"name": tool, "fullyQualifiedName": f"{source}/{tool}", "kind": "function"}
            ]
            extra = {k: v for k, v in (("suggestion", f.suggestion), ("pointer", f.pointer)) if v}
            if extra:
                result["properties"] = extra
            results.append(result)
    descriptors = [rule_descriptor(r.code, r.summary, r.docs, LEVEL[r.severity.value]) for r in rules]
    for d, r in zip(descriptors, rules, strict=True):
        d["name"] = r.name
    return sarif_log({"tool": tool_driver(descriptors), "results": results})
