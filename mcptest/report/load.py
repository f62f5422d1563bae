"""Read a saved JSON report: migrate an older format, refuse an unknown one with a one-line UserError (exit 2)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from mcptest.core import json_source
from mcptest.core.errors import Problem, UserError
from mcptest.core.yaml_source import read_limited
from mcptest.records.report import REPORT_FORMAT_VERSION, Report

Raw = dict[str, Any]


def migrate_0_to_1(raw: Raw) -> Raw:
    """Format "0" (a pre-release form, kept to exercise this hook) to "1".

    "0" named the results `tests`, gave durations in seconds (`duration_s`, on the report and on each test), and had
    no `gates`, `model` or `run`. "1" calls them `results` and `duration_ms`; the rest is unchanged.
    """
    out = {k: v for k, v in raw.items() if k not in ("tests", "duration_s")}
    out["format_version"] = "1"
    out["duration_ms"] = round(float(raw.get("duration_s", 0)) * 1000, 3)
    out["results"] = [_test_0_to_1(t) for t in raw.get("tests", [])]
    return out


def _test_0_to_1(test: Any) -> Any:
    if not isinstance(test, dict):
        return test
    out = {k: v for k, v in test.items() if k != "duration_s"}
    out["duration_ms"] = round(float(test.get("duration_s", 0)) * 1000, 3)
    return out


def migrate_1_to_2(raw: Raw) -> Raw:
    """Format "1" to "2": the summary gains gate counts, `capped` and the one `ok` verdict.

    "1" counted results only; "2" counts the gates too and says `ok` exactly when the run exits 0. A "1" report
    never marked a gate incomplete nor recorded a cost cap, so both are derived from what it holds.
    """
    out = dict(raw)
    summary = dict(raw.get("summary") or {})
    gates = [_gate_1_to_2(g) if isinstance(g, dict) else g for g in raw.get("gates", [])]
    out["gates"] = gates
    gates = [g for g in gates if isinstance(g, dict)]
    counts = {s: sum(g.get("status") == s for g in gates) for s in ("passed", "failed")}
    summary["gates"] = {"total": len(gates), **counts, "incomplete": 0}
    summary["ok"] = not summary.get("failed") and not counts["failed"]
    out["summary"] = summary
    out["format_version"] = "2"
    return out


def _gate_1_to_2(gate: Raw) -> Raw:
    # "1" kept a floor's breach in words only; "2" makes every breach a failure of the block
    detail: dict[str, Any] = gate["detail"] if isinstance(gate.get("detail"), dict) else {}
    failures = list(gate.get("failures") or [])
    said = {f.get("message") for f in failures if isinstance(f, dict)}
    block = gate.get("block", "")
    failures += [
        {"target": block, "matcher": "floor", "expected": None, "actual": None, "message": b}
        for b in detail.get("breaches", [])
        if isinstance(b, str) and b not in said
    ]
    return {**gate, "failures": failures}


MIGRATIONS: dict[str, tuple[str, Callable[[Raw], Raw]]] = {
    "0": ("1", migrate_0_to_1),
    "1": ("2", migrate_1_to_2),
}
"""format_version -> (the next version, the function that lifts a raw report to it). Chained until current."""


def migrate(raw: Raw, path: str) -> Raw:
    """Lift a raw report to the current format_version, or raise a UserError naming both versions."""
    version = str(raw.get("format_version", "?"))
    _check_label(raw, version, path)
    while version != REPORT_FORMAT_VERSION:
        if version not in MIGRATIONS:
            readable = ", ".join(sorted({REPORT_FORMAT_VERSION, *MIGRATIONS}))
            raise _error(
                path, f"report format_version {version!r} is not supported (this mcptest reads {readable}); "
                "re-create it with this mcptest"
            )  # fmt: skip
        version, step = MIGRATIONS[version]
        raw = step(raw)
    return raw


def load_report(path: str | Path, role: str = "report") -> Report:
    """Read, migrate and validate a JSON report; every problem is a UserError located in `path`."""
    where = str(path)
    try:
        text = read_limited(path)
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise _error(where, f"cannot read the {role}: {reason}") from None
    with contextlib.suppress(ValidationError):  # the common case, parsed and checked in one pass by pydantic-core
        report = Report.model_validate_json(text)
        if report.format_version == REPORT_FORMAT_VERSION:
            return report
    raw = json_source.loads(text, where, f"the {role} is not valid JSON")
    if not isinstance(raw, dict) or "format_version" not in raw:
        raise _error(
            where, f"the {role} is not an mcptest JSON report (no format_version): save one with --reporter json"
        )
    try:
        return Report.model_validate(migrate(raw, where))
    except ValidationError as exc:
        raise UserError([_problem(where, role, e) for e in exc.errors()[:10]]) from None


_TESTS_KEY = {"0": "tests"}
"""Where each format_version keeps its test results, when not in `results`."""


def _check_label(raw: Raw, version: str, path: str) -> None:
    """Refuse a report whose format_version does not match its shape: migrating it would drop its tests."""
    key = _TESTS_KEY.get(version, "results")
    other = next((k for k in ("tests", "results") if k != key and k in raw), None)
    if other is not None:
        raise _error(
            path, f"the report says format_version {version!r}, but keeps its tests under `{other}`, not `{key}`: "
            "its format_version is wrong (correct it, or re-create the report)"
        )  # fmt: skip


def _problem(path: str, role: str, error: Any) -> Problem:
    loc = ".".join(str(p) for p in error["loc"]) or "(top level)"
    return Problem(path, 0, 0, f"not a valid {role}: {loc}: {error['msg']}")


def _error(path: str, message: str) -> UserError:
    return UserError([Problem(path, 0, 0, message)])
