"""The SARIF 2.1.0 reporter: failed tests and gate blocks located at their YAML line."""

from __future__ import annotations

from typing import Any

from mcptest.checks.sarif import rule_descriptor, sarif_log, sarif_result, tool_driver
from mcptest.core.figures import plural
from mcptest.records.report import GateReport, Report, Status, TestResult

RUN_RULES = {
    "test-assertion": "A test's assertion did not hold.",
    "test-error": "A test failed without an assertion: a server crash, a timeout, a protocol error.",
}


def render_sarif(report: Report, color: bool = False) -> str:
    """The failed tests and gate blocks of a report as a SARIF 2.1.0 log (`color` is ignored)."""
    results = [res for r in report.results if r.status == Status.FAILED for res in _test_results(r)]
    results += [_gate_result(g) for g in report.gates if g.status == Status.FAILED]
    ids = sorted({r["ruleId"] for r in results})
    rules = [
        rule_descriptor(i, RUN_RULES.get(i) or f"The `{i.split('/', 1)[1]}` gate block failed its floor.") for i in ids
    ]
    for r in results:
        r["ruleIndex"] = ids.index(r["ruleId"])
    invocation = {"executionSuccessful": True, "startTimeUtc": report.started_at}
    return sarif_log(
        {"tool": tool_driver(rules, report.mcptest_version), "invocations": [invocation], "results": results}
    )


def _test_results(r: TestResult) -> list[dict[str, Any]]:
    name = r.name + (f" [{r.model}]" if r.model else "") + (f" #{r.run}" if r.run else "")
    out = [
        sarif_result("test-assertion", f"{name}: {f.target} {f.matcher}: {f.message}", r.file, r.line)
        for f in r.failures
    ]
    if r.error or not out:
        out.append(sarif_result("test-error", f"{name}: {r.error or 'failed'}", r.file, r.line))
    return out


def _gate_result(g: GateReport) -> dict[str, Any]:
    name = g.test + (f" [{g.model}]" if g.model else "")
    reasons = [f.message if f.matcher == "floor" else f"{f.target}: {f.message}" for f in g.failures]
    text = f"{name}: {g.block} failed over {plural(g.runs, 'run')}" + (": " + "; ".join(reasons) if reasons else "")
    return sarif_result(f"gate/{g.block}", text, g.file, g.line)
