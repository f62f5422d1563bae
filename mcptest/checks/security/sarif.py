"""SEC findings as a SARIF 2.1.0 log, in the same shape as doctor's lint findings."""

from __future__ import annotations

from mcptest.checks.sarif import LEVEL, rule_descriptor, sarif_log, sarif_result, tool_driver
from mcptest.checks.security.engine import SecurityReport
from mcptest.checks.security.registry import SEC_RULES


def security_sarif(report: SecurityReport, uri: str | None = None) -> str:
    """One result per finding with its rule's level (critical -> error, warning -> warning); the entry is the
    logical location (`server/name`), `uri` (the catalog or suite file) the physical one."""
    rules = [r for r in SEC_RULES if r.code in report.rules]
    index = {r.code: i for i, r in enumerate(rules)}
    results = []
    for flagged in report.flagged:
        f, e = flagged.finding, flagged.entry
        result = sarif_result(f.rule, f"{e.label}: {f.message}", uri, None, LEVEL[f.severity.value])
        result["ruleIndex"] = index[f.rule]
        kind = "function" if e.kind == "tool" else e.kind
        name = f"{e.server or flagged.source}/{e.key}"
        result.setdefault("locations", [{}])[0]["logicalLocations"] = [
            {"name": e.key, "fullyQualifiedName": name, "kind": kind}
        ]
        extra = {k: v for k, v in (("suggestion", f.suggestion), ("pointer", f.pointer)) if v}
        if extra:
            result["properties"] = extra
        results.append(result)
    descriptors = [
        rule_descriptor(r.code, r.summary, r.docs, LEVEL[r.severity.value]) | {"name": r.name} for r in rules
    ]
    return sarif_log({"tool": tool_driver(descriptors), "results": results})
