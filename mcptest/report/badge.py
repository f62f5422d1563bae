"""A README badge: the pass rate of a run as a shields.io endpoint document (https://shields.io/badges/endpoint-badge)."""

from __future__ import annotations

import json

from mcptest.records.report import Report


def render_badge(report: Report, label: str = "mcptest") -> str:
    """`{"schemaVersion": 1, "label", "message", "color"}`: the message is the pass rate over the tests that ran
    (skipped ones left out) with the counts, plus the failed gates; green exactly when the run passed (its exit code
    was 0), else yellow at 90% or more, orange at 75% or more, red below."""
    s = report.summary
    judged = s.passed + s.failed
    rate = 100.0 if judged == 0 else 100.0 * s.passed / judged
    shown = f"{rate:.0f}" if rate.is_integer() or judged == 0 else f"{rate:.1f}"
    if s.failed and float(shown) >= 100:  # 9,999 of 10,000 must not read as 100%
        shown = "99.9"
    message = f"{shown}% passed ({s.passed}/{judged})"
    if s.gates.failed:
        message += f", {s.gates.failed} gate{'s' if s.gates.failed != 1 else ''} failed"
    color = "brightgreen" if report.ok else "yellow" if rate >= 90 else "orange" if rate >= 75 else "red"
    return json.dumps({"schemaVersion": 1, "label": label, "message": message, "color": color}, indent=2) + "\n"
