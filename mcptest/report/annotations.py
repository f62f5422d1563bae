"""CI annotations: each failure of a run (and each lint or security finding) at its own file:line:col, as GitHub
workflow commands (`::error file=…,line=…,col=…,title=…::…`) or GitLab Code Quality JSON."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from mcptest.core.printable import printable

if TYPE_CHECKING:  # the report models are imported where a run's report is read: doctor's lint path needs none
    from mcptest.checks.lint.engine import QualityReport
    from mcptest.checks.security.engine import SecurityReport
    from mcptest.expect.failure import AssertionFailure
    from mcptest.records.report import GateReport, Report, TestResult

Level = Literal["error", "warning", "notice"]
MODES = ("auto", "off", "github", "gitlab")
GITHUB_LIMIT = 50
"""The annotations a step prints; the rest are counted on one line (GitHub itself keeps 50 per step and job)."""
CODEQUALITY_FILE = "gl-code-quality-report.json"
"""Where `--annotations gitlab` writes its Code Quality report: the name GitLab's documentation uses."""
_SEVERITY = {"error": "major", "warning": "minor", "notice": "info"}
"""An annotation's level as a GitLab Code Quality severity."""


@dataclass(frozen=True)
class Annotation:
    """One thing to show at a place in a file: a failed assertion, a failed test, a floor, a finding."""

    level: Level
    file: str
    line: int | None
    col: int | None
    title: str
    message: str
    check: str
    """What kind of thing it is: `test-assertion`, `test-error`, `gate/BLOCK`, or a rule code (`DESC-001`)."""
    severity: str | None = None
    """A Code Quality severity that overrides the one the level gives (`critical` for a critical lint finding)."""
    key: str | None = None
    """What stays the same while the failure does (an assertion as written, a rule at a tool), for the Code Quality
    fingerprint; the message is used when None. A message carries the values found (`got 7`), which change from
    one pipeline to the next: GitLab would show the same failure as fixed and new again."""


def annotation_mode(flag: str, environ: Mapping[str, str]) -> str:
    """The mode a command runs in: `auto` is `github` under GitHub Actions (`GITHUB_ACTIONS=true`), else `off`."""
    from mcptest.core.errors import usage_error

    if flag not in MODES:
        raise usage_error(f"--annotations: unknown mode '{flag}'; modes are {', '.join(MODES)}")
    if flag != "auto":
        return flag
    return "github" if environ.get("GITHUB_ACTIONS") == "true" else "off"


def run_annotations(report: Report) -> list[Annotation]:
    """Every failure of a run at its place: each failed assertion at its own line and column as the JSON report
    records it, a failure without one (a crash, a timeout) at its test's line, each failed gate's floor at its key.
    A quarantined failure or an incomplete gate is a warning (it does not fail the run)."""
    from mcptest.records.report import Status

    out: list[Annotation] = []
    for r in report.results:
        if r.status == Status.FAILED:
            out += _test(r)
    for g in report.gates:
        if g.status in (Status.FAILED, Status.INCOMPLETE):
            out += _gate(g)
    return out


def _test(r: TestResult) -> list[Annotation]:
    title = r.name + (f" [{r.model}]" if r.model else "") + (f" #{r.run}" if r.run else "")
    level: Level = "warning" if r.quarantined is not None else "error"
    out = [
        Annotation(
            level, r.file, f.line or r.line, f.col if f.line else None, title, f.text(), "test-assertion", key=_key(f)
        )
        for f in r.failures
    ]
    if r.error or not out:
        out.append(Annotation(level, r.file, r.line, None, title, r.error or "failed", "test-error", key="error"))
    return out


def _key(f: AssertionFailure) -> str:
    """An assertion as written: its target, matcher and expected value (not the value found)."""
    return json.dumps([f.target, f.matcher, f.expected], sort_keys=True, default=str)


def _gate(g: GateReport) -> list[Annotation]:
    from mcptest.records.report import Status

    title = f"{g.test}{f' [{g.model}]' if g.model else ''} · {g.block}"
    level: Level = "warning" if g.quarantined is not None or g.status == Status.INCOMPLETE else "error"
    check = f"gate/{g.block}"
    out = [
        Annotation(level, g.file, f.line or g.line, f.col if f.line else None, title, f.text(), check, key=_key(f))
        for f in g.failures
    ]
    if g.status == Status.INCOMPLETE:
        text = f"no verdict: judged on {g.runs} of {g.runs_asked} runs"
        out.append(Annotation(level, g.file, g.line, None, title, text, check, key="incomplete"))
    return out or [Annotation(level, g.file, g.line, None, title, f"the {g.block} gate failed", check)]


def github_commands(annotations: Iterable[Annotation], limit: int = GITHUB_LIMIT) -> list[str]:
    """The first `limit` annotations as GitHub workflow commands, then one line counting the rest."""
    items = list(annotations)
    lines = [_command(a) for a in items[:limit]]
    if len(items) > limit:
        lines.append(f"mcptest: {len(items) - limit} more annotations not shown (the first {limit} are above)")
    return lines


def _command(a: Annotation) -> str:
    props = {"file": a.file, "line": a.line, "col": a.col, "title": a.title}
    shown = ",".join(f"{k}={_property(str(v))}" for k, v in props.items() if v is not None)
    return f"::{a.level} {shown}::{_data(a.message)}"


def _data(text: str) -> str:
    # the escapes GitHub's runner undoes in a command's message
    return printable(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def codequality(annotations: Iterable[Annotation]) -> str:
    """The annotations as a GitLab Code Quality report (a JSON array; one issue each, with a fingerprint that stays
    the same from one pipeline to the next while the failure does)."""
    import hashlib  # here: loading OpenSSL costs ~6 ms of every doctor start, which asks only for the mode

    issues = []
    seen: Counter[str] = Counter()
    for a in annotations:
        key = "\x00".join((a.check, a.file, a.title, a.message if a.key is None else a.key))
        seen[key] += 1
        if seen[key] > 1:  # GitLab keeps one issue per fingerprint: the same assertion twice in one test stays two
            key += f"\x00{seen[key]}"
        issues.append(
            {
                "description": printable(f"{a.title}: {a.message}"),
                "check_name": a.check,
                "fingerprint": hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest(),
                "severity": a.severity or _SEVERITY[a.level],
                "location": {"path": a.file, "lines": {"begin": a.line or 1}},
            }
        )
    return json.dumps(issues, indent=2, ensure_ascii=False) + "\n"


def lint_annotations(reports: Iterable[tuple[str, QualityReport]], file: str | None) -> list[Annotation]:
    """`doctor --lint-descriptions` findings at their tool's place in `file`: the tool's `"name"` in a saved catalog,
    the server's key in a suite (a live server's tools are written nowhere else); Pass left out."""
    out = []
    for source, report in reports:
        for f in report.findings:
            if f.severity.value == "pass" or not file:
                continue
            line, col = place_in(file, source, "name", f.tool)
            text = f"{f.tool}: {f.message}" + (f" ({f.suggestion})" if f.suggestion else "")
            level: Level = "error" if f.severity.value == "critical" else "warning"
            severity = "critical" if level == "error" else "minor"
            out.append(Annotation(level, file, line, col, f"{f.rule} {f.tool}", text, f.rule, severity))
    return out


def security_annotations(report: SecurityReport, file: str | None) -> list[Annotation]:
    """`security` findings at their entry's place in `file`, as `lint_annotations` places a tool."""
    from mcptest.records.entries import IDENTITY

    out = []
    for flagged in report.flagged if file else ():
        f, entry = flagged.finding, flagged.entry
        line, col = place_in(file or "", entry.server or flagged.source, IDENTITY[entry.kind], entry.key)
        level: Level = "error" if f.severity.value == "critical" else "warning"
        severity = "critical" if level == "error" else "minor"
        title = f"{f.rule} {entry.label}"
        out.append(Annotation(level, file or "", line, col, title, f"{entry.label}: {f.message}", f.rule, severity))
    return out


def place_in(file: str, server: str, key: str, value: str) -> tuple[int, int]:
    """Where an entry is written: in a JSON file the first `"key": value` naming it; in a suite the key of its
    server under `servers:`; else the file's first line."""
    from mcptest.core.errors import UserError
    from mcptest.core.yaml_source import parse, read_text

    try:
        text = read_text(file)
    except (OSError, UserError):  # the file moved or cannot be read since it was scanned: its first line
        return 1, 1
    if file.endswith(".json"):
        import re

        for literal in {json.dumps(value), json.dumps(value, ensure_ascii=False)}:
            found = re.search(rf'"{re.escape(key)}"\s*:\s*{re.escape(literal)}', text)
            if found:
                return _line_col(text, found.start())
        return 1, 1
    try:
        return parse(text, file).key_pos(("servers", server))
    except UserError:  # not a YAML suite after all
        return 1, 1


def _line_col(text: str, at: int) -> tuple[int, int]:
    line = text.count("\n", 0, at) + 1
    return line, at - (text.rfind("\n", 0, at) + 1) + 1
