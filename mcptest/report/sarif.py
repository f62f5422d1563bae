"""The SARIF 2.1.0 reporter: failed tests located at their YAML line, and lint findings with their rule ids."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from mcptest import __version__
from mcptest.core.figures import plural
from mcptest.records.report import GateReport, Report, Status, TestResult

if TYPE_CHECKING:
    from mcptest.checks.lint.engine import QualityReport

SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
RUN_RULES = {
    "test-assertion": "A test's assertion did not hold.",
    "test-error": "A test failed without an assertion: a server crash, a timeout, a protocol error.",
}
LEVEL = {"critical": "error", "warning": "warning"}


def render_sarif(report: Report, color: bool = False) -> str:
    """The failed tests and gate blocks of a report as a SARIF 2.1.0 log (`color` is ignored)."""
    results = [res for r in report.results if r.status == Status.FAILED for res in _test_results(r)]
    results += [_gate_result(g) for g in report.gates if g.status == Status.FAILED]
    ids = sorted({r["ruleId"] for r in results})
    rules = [_rule(i, RUN_RULES.get(i) or f"The `{i.split('/', 1)[1]}` gate block failed its floor.") for i in ids]
    for r in results:
        r["ruleIndex"] = ids.index(r["ruleId"])
    run = {"tool": _driver(rules, report.mcptest_version), "invocations": [_invocation(report)], "results": results}
    return _dump(run)


def _dump(*runs: dict[str, Any]) -> str:
    log = {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": list(runs)}
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"


def _driver(rules: list[dict[str, Any]], version: str = __version__) -> dict[str, Any]:
    return {"driver": {"name": "mcptest", "version": version, "rules": rules}}


def _invocation(report: Report) -> dict[str, Any]:
    return {"executionSuccessful": True, "startTimeUtc": report.started_at}


def _rule(rule_id: str, summary: str, docs: str | None = None, level: str = "error") -> dict[str, Any]:
    rule: dict[str, Any] = {"id": rule_id, "shortDescription": {"text": summary}}
    if docs:
        rule["fullDescription"] = {"text": docs}
    rule["defaultConfiguration"] = {"level": level}
    return rule


def _test_results(r: TestResult) -> list[dict[str, Any]]:
    name = r.name + (f" [{r.model}]" if r.model else "") + (f" #{r.run}" if r.run else "")
    out = [
        _result("test-assertion", f"{name}: {f.target} {f.matcher}: {f.message}", r.file, r.line) for f in r.failures
    ]
    if r.error or not out:
        out.append(_result("test-error", f"{name}: {r.error or 'failed'}", r.file, r.line))
    return out


def _gate_result(g: GateReport) -> dict[str, Any]:
    name = g.test + (f" [{g.model}]" if g.model else "")
    reasons = [f.message if f.matcher == "floor" else f"{f.target}: {f.message}" for f in g.failures]
    text = f"{name}: {g.block} failed over {plural(g.runs, 'run')}" + (": " + "; ".join(reasons) if reasons else "")
    return _result(f"gate/{g.block}", text, g.file, g.line)


def _result(rule_id: str, text: str, file: str | None, line: int | None, level: str = "error") -> dict[str, Any]:
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

    ran = {code for _, report in reports for code in report.rules}
    rules = [r for r in RULES if r.code in ran]
    index = {r.code: i for i, r in enumerate(rules)}
    results = []
    for source, report in reports:
        for f in report.findings:
            if f.rule not in index:
                continue
            result = _result(f.rule, f"{f.tool}: {f.message}", uri, None, LEVEL[f.severity.value])
            result["ruleIndex"] = index[f.rule]
            result.setdefault("locations", [{}])[0]["logicalLocations"] = [
                {"name": f.tool, "fullyQualifiedName": f"{source}/{f.tool}", "kind": "function"}
            ]
            extra = {k: v for k, v in (("suggestion", f.suggestion), ("pointer", f.pointer)) if v}
            if extra:
                result["properties"] = extra
            results.append(result)
    descriptors = [_rule(r.code, r.summary, r.docs, LEVEL[r.severity.value]) for r in rules]
    for d, r in zip(descriptors, rules, strict=True):
        d["name"] = r.name
    return _dump({"tool": _driver(descriptors), "results": results})
