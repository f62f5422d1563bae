"""`mcptest history` as text: the run list, a test's timeline and rates, the flaky list and the YAML to add."""

from __future__ import annotations

import json
from datetime import date, timedelta

from mcptest.core.printable import printable
from mcptest.history.models import FlakyList, Interval, LoadHistory, RunList, Series, TestHistory

MARKS = {"passed": "✓", "failed": "✗", "skipped": "-", "incomplete": "?"}
QUARANTINE_DAYS = 14
"""How far ahead `--suggest` sets a quarantine's `until:`: long enough to fix, short enough to be seen expiring."""


def runs_text(listing: RunList) -> str:
    """One line per run, newest first: id, start, verdict, counts, duration, commit."""
    if not listing.runs:
        return f"no runs of {listing.suite} in {listing.store}\n"
    lines = [f"{listing.suite} · {listing.store}"]
    for r in listing.runs:
        verdict = "interrupted" if r.interrupted else "capped" if r.capped else "ok" if r.ok else "FAILED"
        where = " ".join(x for x in (r.commit[:10] if r.commit else "", r.branch or "", r.shard and f"shard {r.shard}",
                                     r.source == "merge" and "merged") if x)  # fmt: skip
        counts = [f"{r.passed} passed", f"{r.failed} failed"] + [f"{r.skipped} skipped"] * bool(r.skipped)
        counts += [f"{r.gates_failed} gates failed"] * bool(r.gates_failed)
        when, took = r.started_at[:19].replace("T", " "), f"{r.duration_ms / 1000:.2f}s"
        lines.append(f"#{r.id:<5} {when}  {verdict:<11} {', '.join(counts)}  {took}  {where}".rstrip())
    return "\n".join(printable(line) for line in lines) + "\n"


def load_text(listing: LoadHistory) -> str:
    """One line per load, newest first: id, start, verdict, commit, then each operation's p95 (ms) and calls/s."""
    if not listing.runs:
        return f"no loads of {listing.suite} in {listing.store}\n"
    lines = [f"{listing.suite} · {listing.store} · p95 ms (calls/s) per operation, newest first"]
    for r in listing.runs:
        verdict = "interrupted" if r.interrupted else "ok" if r.ok else "errors"
        where = " ".join(x for x in (r.commit[:10] if r.commit else "", r.branch or "") if x)
        ops = "  ".join(f"{name} {f.p95_ms:g} ({f.calls_per_s:g}/s)" for name, f in r.operations.items())
        when = r.started_at[:19].replace("T", " ")
        lines.append(f"#{r.id:<5} {when}  {verdict:<11} {ops}  {where}".rstrip())
    return "\n".join(printable(line) for line in lines) + "\n"


def text_of_test(history: TestHistory) -> str:
    """Per model: the timeline strip (oldest first), pass rate and flip rate with intervals, the last failure."""
    if not history.series:
        return f"no runs of test {history.test!r} in {history.suite} ({history.store})\n"
    lines = []
    for s in history.series:
        strip = "".join(MARKS.get(p.status, "?") for p in s.timeline)
        lines += [f"{s.test}{f' [{s.model}]' if s.model else ''}  {strip}  (oldest → newest)", "  " + rates(s)]
        if s.last_failure:
            f = s.last_failure
            lines.append(f"  last failure: run #{f.run_id} {f.started_at[:19].replace('T', ' ')}"
                         f"{f' at {f.commit[:10]}' if f.commit else ''}")  # fmt: skip
            lines += [f"    {line}" for line in (f.text or "(no message)").splitlines()[:6]]
    return "\n".join(printable(line) for line in lines) + "\n"


def rates(s: Series) -> str:
    """`pass rate 80% [49%–94%] over 10 runs · flip rate 22% [6%–55%] (2 flips)`, and `flaky` when it is."""
    if not s.runs:
        return "no passed or failed runs"
    text = f"pass rate {_pct(s.pass_rate)} {_interval(s.pass_interval)} over {s.runs} runs"
    if s.flip_rate is not None:
        text += f" · flip rate {_pct(s.flip_rate)} {_interval(s.flip_interval)} ({s.flips} flips)"
    return text + (" · flaky" if s.flaky else "")


def flaky_text(found: FlakyList) -> str:
    """The flaky tests, one line each, and the rule they were judged by."""
    rule = (f"flip rate above {found.threshold:g} over each test's last {found.window} runs "
            f"(at least {found.min_runs})")  # fmt: skip
    if not found.tests:
        return f"no flaky tests in {found.suite}: none has a {rule}\n"
    lines = [f"{len(found.tests)} flaky in {found.suite} ({rule}):"]
    lines += [f"  {s.test}{f' [{s.model}]' if s.model else ''}  {rates(s)}" for s in found.tests]
    return "\n".join(printable(line) for line in lines) + "\n"


def suggestion(found: FlakyList, today: date) -> str:
    """The `quarantine:` entries to add to the suite for the flaky tests, expiring in QUARANTINE_DAYS."""
    until = (today + timedelta(days=QUARANTINE_DAYS)).isoformat()
    names = sorted({s.test for s in found.tests})
    if not names:
        return "# no flaky tests: nothing to quarantine\n"
    lines = ["quarantine:"]
    for name in names:
        worst = max((s for s in found.tests if s.test == name), key=lambda s: s.flip_rate or 0)
        reason = f"flaky: flip rate {_pct(worst.flip_rate)} over {worst.runs} runs"
        lines.append(f"  - {{test: {_yaml_str(name)}, reason: {_yaml_str(reason)}, until: {until}}}")
    return "\n".join(lines) + "\n"


def _yaml_str(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a YAML double-quoted scalar


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.0f}%"


def _interval(i: Interval) -> str:
    return f"[{i.low * 100:.0f}%–{i.high * 100:.0f}%]"
