"""The JUnit XML reporter: one <testsuite> per server, one <testcase> per test, run or gate block.

Valid against the Jenkins xUnit schema (junit-10.xsd) that CI systems read; `tests/report/schemas/` holds it.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from mcptest.core.figures import plural
from mcptest.expect.failure import AssertionFailure
from mcptest.records.report import GateReport, Report, Status, TestResult

_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
NO_SERVER = "(no server)"


def render_junit(report: Report, color: bool = False) -> str:
    """The report as JUnit XML (`color` is ignored)."""
    suites: dict[str, list[ET.Element]] = {}
    server_of = {(r.file, r.name, r.model): r.server for r in report.results}
    for r in report.results:
        suites.setdefault(r.server or NO_SERVER, []).append(_result(r))
    for g in report.gates:
        server = server_of.get((g.file, g.test, g.model)) or NO_SERVER
        suites.setdefault(server, []).append(_gate(g, server))
    root = ET.Element("testsuites", name=report.suite)
    for name, cases in suites.items():
        root.append(_suite(name, cases, report.started_at))
    _count(root, list(root))
    root.set("time", _seconds(report.duration_ms))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _suite(name: str, cases: list[ET.Element], started_at: str) -> ET.Element:
    suite = ET.Element("testsuite", name=name)
    _count(suite, cases)
    suite.set("skipped", str(sum(c.find("skipped") is not None for c in cases)))
    seconds = sum(float(c.get("time", "0")) for c in cases)
    suite.set("time", f"{seconds:.3f}")
    suite.set("timestamp", started_at)
    suite.extend(cases)
    return suite


def _count(element: ET.Element, cases: list[ET.Element]) -> None:
    """tests, failures, errors: summed over testcases, or over child testsuites."""
    if element.tag == "testsuites":
        for attr in ("tests", "failures", "errors"):
            element.set(attr, str(sum(int(s.get(attr, "0")) for s in cases)))
        return
    element.set("tests", str(len(cases)))
    element.set("failures", str(sum(c.find("failure") is not None for c in cases)))
    element.set("errors", str(sum(c.find("error") is not None and c.find("failure") is None for c in cases)))


def _result(r: TestResult) -> ET.Element:
    name = r.name + (f" [{r.model}]" if r.model else "") + (f" #{r.run}" if r.run else "")
    case = ET.Element("testcase", name=_xml(name), classname=_xml(r.server or NO_SERVER), time=_seconds(r.duration_ms))
    where = f"defined at {r.file}:{r.line}"
    if r.status == Status.SKIPPED:
        ET.SubElement(case, "skipped")
    if r.failures:
        _failure(case, "failure", "assertion", r.failures, [where])
    if r.error:
        ET.SubElement(case, "error", message=_xml(r.error), type="error").text = _xml(f"{r.error}\n{where}")
    if r.stderr:
        ET.SubElement(case, "system-err").text = _xml(r.stderr)
    return case


def _gate(g: GateReport, server: str) -> ET.Element:
    name = g.test + (f" [{g.model}]" if g.model else "") + f" · {g.block}"
    case = ET.Element("testcase", name=_xml(name), classname=_xml(server))
    if g.status == Status.SKIPPED:
        ET.SubElement(case, "skipped")
    if g.status == Status.FAILED:
        extra = [f"over {plural(g.runs, 'run')}", f"defined at {g.file}:{g.line}"]
        _failure(case, "failure", "gate", g.failures, extra)
    if g.lines:
        ET.SubElement(case, "system-out").text = _xml("\n".join(g.lines))
    return case


def _failure(case: ET.Element, tag: str, kind: str, failures: list[AssertionFailure], extra: list[str]) -> None:
    lines = [f.text() for f in failures] + extra
    message = lines[0] + (f" (+{len(lines) - len(extra) - 1} more)" if len(failures) > 1 else "")
    ET.SubElement(case, tag, message=_xml(message), type=kind).text = _xml("\n".join(lines))


def _seconds(ms: float) -> str:
    return f"{ms / 1000:.3f}"


def _xml(text: str) -> str:
    """Text XML 1.0 can carry: control characters (an ANSI escape in stderr, say) become U+FFFD."""
    return _NOT_XML.sub("\ufffd", text)
