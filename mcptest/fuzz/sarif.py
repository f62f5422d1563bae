"""Fuzz findings as a SARIF 2.1.0 log, in the shape of the lint and SEC logs: the tool is the logical location."""

from __future__ import annotations

from mcptest.checks.sarif import rule_descriptor, sarif_log, sarif_result, tool_driver
from mcptest.fuzz.classify import SEVERITY
from mcptest.fuzz.report import FuzzReport

_LEVEL = {"error": "error", "warning": "warning", "info": "note"}
_SUMMARY = {
    "crash": "The server process exited on this input.",
    "hang": "No answer within the time limit, twice.",
    "internal_error": "A JSON-RPC internal error (-32603).",
    "malformed_response": "A result that breaks the CallToolResult shape.",
    "stack_trace": "A stack trace in the answer.",
    "env_leak": "A value of the server's environment in the answer.",
    "output_schema": "structuredContent missing or off the tool's outputSchema.",
    "invalid_accepted": "An input the schema rejects was accepted as a success.",
    "valid_rejected": "An input the schema accepts was rejected.",
    "coercion": "An invalid input accepted once its JSON types are read laxly.",
}


def fuzz_sarif(report: FuzzReport, uri: str | None = None) -> str:
    """One result per finding (`fuzz/<class>`), the tool as its logical location (`server/tool`), the minimal
    input and the replay line as properties; `uri` (the suite file) adds a physical location."""
    kinds = [k for k in SEVERITY if any(f.kind == k for f in report.findings)]
    index = {k: i for i, k in enumerate(kinds)}
    results = []
    for f in report.findings:
        result = sarif_result(f"fuzz/{f.kind}", f"{f.tool}: {f.detail}", uri, None, _LEVEL[f.severity])
        result["ruleIndex"] = index[f.kind]
        result.setdefault("locations", [{}])[0]["logicalLocations"] = [
            {"name": f.tool, "fullyQualifiedName": f"{report.server}/{f.tool}", "kind": "function"}
        ]
        result["properties"] = {"input": f.input, "input_valid": f.input_valid, "replay": f.replay}
        results.append(result)
    rules = [rule_descriptor(f"fuzz/{k}", _SUMMARY[k], None, _LEVEL[SEVERITY[k]]) for k in kinds]
    return sarif_log({"tool": tool_driver(rules), "results": results})
