"""The agent reporter: the verdict first, then per failure its place, what was expected and received, and the
command that re-runs that test alone. Plain text, no colour, short and stable, for a coding agent to act on."""

from __future__ import annotations

import shlex

from mcptest.core.printable import printable
from mcptest.expect.failure import AssertionFailure
from mcptest.records.report import GateReport, Report, Status, TestResult

DETAIL_LINES = 5
"""The most lines a failure's expected/received detail takes; the rest is counted on the last line."""
LINE_LIMIT = 200
"""The characters a detail line keeps (a 50 KB tool answer is cut, saying so)."""
_RE2_SPECIAL = set("\\.+*?()|[]{}^$")


def render_agent(report: Report, color: bool = False) -> str:
    """The report for a coding agent (`color` is ignored: this format never has any)."""
    lines = [verdict_line(report)]
    failed_rows: dict[tuple[str, str | None], list[TestResult]] = {}
    for r in report.results:
        if r.status == Status.FAILED:
            failed_rows.setdefault((r.name, r.model), []).append(r)
    for rows in failed_rows.values():
        lines += ["", *_test_block(report.suite, rows)]
    for g in report.gates:
        if g.status in (Status.FAILED, Status.INCOMPLETE):
            lines += ["", *_gate_block(report.suite, g)]
    return "\n".join(lines) + "\n"


def verdict_line(report: Report) -> str:
    """`VERDICT PASS|FAIL failed=N passed=N total=N`, then the counts that are not zero (skipped, gates...)."""
    s = report.summary
    parts = [f"VERDICT {'PASS' if report.ok else 'FAIL'}", f"failed={s.failed}", f"passed={s.passed}"]
    parts.append(f"total={s.total}")
    extra = {
        "skipped": s.skipped,
        "gates_failed": s.gates.failed,
        "gates_incomplete": s.gates.incomplete,
        "quarantined": s.quarantined,
        "not_run": s.not_run,
    }
    parts += [f"{k}={v}" for k, v in extra.items() if v]
    if s.capped:
        parts.append("capped=max-cost")
    if report.interrupted:
        parts.append("interrupted=yes")
    return " ".join(parts)


def rerun_command(suite: str, name: str) -> str:
    """The shell command that runs the test named `name` of `suite` and no other: `--filter 're:^NAME$'`, the name
    escaped for RE2 and the whole argument quoted for a POSIX shell."""
    return f"mcptest run {shlex.quote(suite)} --filter {shlex.quote('re:' + anchored(name))} --reporter agent"


def anchored(name: str) -> str:
    """An RE2 pattern matching exactly `name`: metacharacters escaped, control characters as `\\x{..}` escapes."""
    out = []
    for ch in name:
        if ch in _RE2_SPECIAL:
            out.append("\\" + ch)
        elif not ch.isprintable():
            out.append(f"\\x{{{ord(ch):x}}}")
        else:
            out.append(ch)
    return "^" + "".join(out) + "$"


def _test_block(suite: str, rows: list[TestResult]) -> list[str]:
    first = rows[0]
    name = first.name + (f" [{first.model}]" if first.model else "")
    runs = [r.run for r in rows if r.run is not None]
    head = f"FAIL {_flat(name)}" + (f" (failed runs: {', '.join(f'#{n}' for n in runs)})" if runs else "")
    quarantine = [f"quarantined: {_flat(first.quarantined)}"] if first.quarantined is not None else []
    place = next((f for f in first.failures if f.line is not None), None)
    where = f"{first.file}:{place.line}:{place.col or 1}" if place is not None else f"{first.file}:{first.line}"
    detail = [f"error: {_flat(first.error)}"] if first.error else []
    detail += [line for f in first.failures for line in _expected_received(f)]
    if first.stderr:
        detail.append(f"stderr: {_flat(first.stderr.strip().splitlines()[-1] if first.stderr.strip() else '')}")
    if not detail:
        detail = ["error: failed without a recorded reason"]
    return [
        head,
        f"at: {printable(where)}",
        *quarantine,
        *_capped(detail),
        f"rerun: {rerun_command(suite, first.name)}",
    ]


def _gate_block(suite: str, g: GateReport) -> list[str]:
    name = g.test + (f" [{g.model}]" if g.model else "")
    verdict = "FAIL" if g.status == Status.FAILED else "INCOMPLETE"
    place = next((f for f in g.failures if f.line is not None), None)
    where = f"{g.file}:{place.line}:{place.col or 1}" if place is not None else f"{g.file}:{g.line}"
    detail = [line for f in g.failures for line in _expected_received(f)]
    if g.status == Status.INCOMPLETE:
        detail.insert(0, f"error: no verdict: judged on {g.runs} of {g.runs_asked} runs")
    quarantine = [f"quarantined: {_flat(g.quarantined)}"] if g.quarantined is not None else []
    return [
        f"{verdict} {_flat(name)} · {g.block} over {g.runs} run{'s' if g.runs != 1 else ''}",
        f"at: {printable(where)}",
        *quarantine,
        *_capped(detail or [f"error: the {g.block} gate failed"]),
        f"rerun: {rerun_command(suite, g.test)}",
    ]


def _expected_received(f: AssertionFailure) -> list[str]:
    from mcptest.expect.assertions import show

    if f.matcher == "floor":
        return [f"expected: {_flat(f.message)}"]
    return [
        f"expected: {_flat(f'{f.target} {f.matcher} {show(f.expected, LINE_LIMIT)}')}",
        f"received: {_flat(show(f.actual, LINE_LIMIT))} ({_flat(f.message)})",
    ]


def _capped(lines: list[str]) -> list[str]:
    if len(lines) <= DETAIL_LINES:
        return lines
    kept = lines[: DETAIL_LINES - 1]
    return [*kept, f"... {len(lines) - len(kept)} more detail lines (run the rerun command for all of them)"]


def _flat(text: str) -> str:
    """One printable line of at most LINE_LIMIT characters."""
    one = printable(" ".join(text.split()))
    return one if len(one) <= LINE_LIMIT else one[: LINE_LIMIT - 1] + "…"
