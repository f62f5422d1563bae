"""The work behind each served tool, over the same functions the commands call: `load_suite`, the runner, the agent
reporter, doctor's lint, the SEC scan, the catalog diff, the rule registry. Nothing here speaks MCP or prints.

Every path is checked against the root first (`paths.inside`); a bad suite or argument raises `UserError`, which
the server turns into a tool error of `file:line:col` lines.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal, get_args

from mcptest.serve.models import (
    DiffOutcome,
    LintOutcome,
    ListedTest,
    Problem,
    RuleDoc,
    RunOutcome,
    ScanOutcome,
    TestList,
    Validation,
)
from mcptest.serve.paths import inside

if TYPE_CHECKING:
    from mcptest.records.report import TestResult
    from mcptest.run.selection import Selection
    from mcptest.suite.models import Suite

LintFailOn = Literal["critical", "warning", "never"]
"""The `fail_on` of the lint and the security scan: the finding severity that makes `ok` false."""
DiffFailOn = Literal["breaking", "risky", "never"]
"""The `fail_on` of the catalog diff: the change impact that makes `ok` false."""
DIFF_FAIL_ON: tuple[str, ...] = get_args(DiffFailOn)


def validate_suite(root: Path, suite: str) -> Validation:
    """Load the suite as `mcptest validate` does: ok with its counts, or every problem at its place."""
    from mcptest.core.errors import UserError
    from mcptest.suite.loader import load_suite

    path = inside(root, suite)
    try:
        loaded = load_suite(path)
    except UserError as exc:
        problems = [Problem(file=p.file, line=p.line, col=p.col, message=p.message, text=str(p)) for p in exc.problems]
        return Validation(ok=False, suite=path, counts={}, problems=problems)
    counts = {
        "servers": len(loaded.servers),
        "tool_tests": len(loaded.tools),
        "resource_tests": len(loaded.resources),
        "prompt_tests": len(loaded.prompts),
        "agent_tests": len(loaded.agents),
        "tool_quality_blocks": len(loaded.tool_quality),
        "security_blocks": len(loaded.security),
    }
    return Validation(ok=True, suite=path, counts=counts, problems=[])


def selection(filter: str | None, tags: Sequence[str] | None) -> Selection:
    """The run's filters, as `--filter` and `--tag` take them (a bad `re:` pattern is a UserError)."""
    from mcptest.run.selection import Selection

    return Selection(filter=filter or None, tags=tuple(tags or ()))


def list_tests(root: Path, suite: str, filter: str | None = None, tags: Sequence[str] | None = None) -> TestList:
    """The tests `mcptest run --list` would print, in run order."""
    from mcptest.run.listing import selected_rows
    from mcptest.suite.loader import load_suite

    loaded = load_suite(inside(root, suite))
    rows = selected_rows(loaded, selection(filter, tags))
    tests = [ListedTest(kind=kind, name=name, location=f"{loaded.file}:{line}") for kind, name, line in rows]
    return TestList(suite=str(loaded.file), count=len(tests), tests=tests)


def load_for_run(root: Path, suite: str, filter: str | None, tags: Sequence[str] | None) -> tuple[Suite, Selection]:
    """The suite and selection of a run; a suite that selects nothing is a UserError that says so."""
    from mcptest.core.errors import UserError
    from mcptest.run.runner import selected_count
    from mcptest.suite.loader import load_suite

    loaded = load_suite(inside(root, suite))
    chosen = selection(filter, tags)
    if not selected_count(loaded, chosen):
        raise UserError(f"no tests selected in {loaded.file} (check filter / tags)")
    return loaded, chosen


async def run_suite(
    loaded: Suite,
    chosen: Selection,
    fail_fast: bool,
    on_result: Callable[[TestResult], None],
    on_agent_runs: Callable[[int, int, str], None],
) -> RunOutcome:
    """Run the suite as `mcptest run --reporter agent` does (cassettes replayed, never recorded; snapshots read,
    never updated) and return both the agent report and the JSON report. `on_result` hears each finished result,
    `on_agent_runs` (done, total, label) each finished agent run."""
    import anyio

    from mcptest.agent.plan import AgentOptions
    from mcptest.report.agent import render_agent
    from mcptest.run.exit_status import run_exit_code
    from mcptest.run.runner import run_suite as run
    from mcptest.run.snapshot_policy import run_snapshots
    from mcptest.run.state import RunState

    if moved := await anyio.to_thread.run_sync(pins_moved, loaded):  # listing runs an event loop of its own
        return moved
    snapshots = run_snapshots(loaded.file, update=False, allow_update_in_ci=False)
    options = AgentOptions(on_progress=on_agent_runs)
    result = await run(
        loaded, chosen, agents_options=options, state=RunState(), snapshots=snapshots, on_result=on_result,
        fail_fast=fail_fast,
    )  # fmt: skip
    report, code = result.report, run_exit_code(result)
    return RunOutcome(
        suite=str(loaded.file),
        verdict="PASS" if code == 0 else "FAIL",
        exit_code=int(code),
        passed=report.summary.passed,
        failed=report.summary.failed,
        total=report.summary.total,
        agent_report=render_agent(report),
        report=report.model_dump(mode="json"),
    )


def pins_moved(loaded: Suite) -> RunOutcome | None:
    """`mcptest run`'s pin check (on when the suite has a mcptest.lock): the failed outcome naming each pinned
    server whose catalog changed, or None to run the tests. A pinned server that cannot be listed is a tool error."""
    from mcptest.core.errors import usage_error
    from mcptest.diff.pin_check import check_before_run
    from mcptest.diff.render import summary_line
    from mcptest.server.surfaces import Unreachable

    try:
        moved = check_before_run(loaded, None)
    except Unreachable as exc:
        raise usage_error(f"{exc} (while checking mcptest.lock)") from None
    if not moved:
        return None
    lines = ["VERDICT FAIL pinned catalogs changed; no test ran (review, then `mcptest pin --update`)"]
    lines += [f"server '{name}': {summary_line(report)}" for name, report, _ in moved]
    return RunOutcome(
        suite=str(loaded.file), verdict="FAIL", exit_code=1, passed=0, failed=0, total=0,
        agent_report="\n".join(lines) + "\n", report={}, pins_changed=[name for name, _, _ in moved],
    )  # fmt: skip


def lint_server(
    root: Path,
    suite: str | None,
    server: str | None,
    catalog: str | None,
    fail_on: str = "critical",
    strict: bool = False,
) -> LintOutcome:
    """Doctor's DESC/SCH lint of a suite's servers (started as the suite says) or of a saved catalog file."""
    from mcptest.core.errors import usage_error
    from mcptest.run.doctor import FAIL_ON, diagnose

    if fail_on not in FAIL_ON:
        raise usage_error(f"fail_on: expected one of {', '.join(FAIL_ON)}, got {fail_on!r}")
    if (suite is None) == (catalog is None):
        raise usage_error("give either suite (with server to pick one) or catalog, not both")
    suite_path = inside(root, suite) if suite is not None else None
    catalog_path = inside(root, catalog, "catalog") if catalog is not None else None
    found = diagnose(suite_path, server, catalog_path, fail_on=fail_on, strict=strict, lint=True)
    checks = [c.to_json() for c in found.checks if c.source is not None]
    failed = any(c["status"] == "fail" for c in checks) or any(
        f.severity.rank >= FAIL_ON[fail_on] for _, r in found.reports for f in r.findings
    )
    return LintOutcome(
        ok=not failed,
        fail_on=fail_on,
        checks=checks,
        findings=[{"source": s} | f.to_json() for s, r in found.reports for f in r.findings],
        lint=[{"source": s, "selection": found.selection} | r.to_json() for s, r in found.reports],
    )


def security_scan(
    root: Path, suite: str | None, server: str | None, catalogs: Sequence[str] | None, fail_on: str = "critical"
) -> ScanOutcome:
    """The SEC scan of a suite's servers (started as the suite says) or of saved catalogs, together."""
    from mcptest.checks.security.engine import FAIL_ON
    from mcptest.core.errors import usage_error
    from mcptest.run.security_scan import scan_sources

    if fail_on not in FAIL_ON:
        raise usage_error(f"fail_on: expected one of {', '.join(FAIL_ON)}, got {fail_on!r}")
    if (suite is None) == (not catalogs):
        raise usage_error("give either suite (with server to pick one) or catalogs, not both")
    suite_path = inside(root, suite) if suite is not None else None
    files = [inside(root, c, "catalog") for c in catalogs or ()]
    report, _, problems = scan_sources(suite_path, server, files)
    summary = report.summary()
    return ScanOutcome(
        ok=not report.failed(fail_on),
        fail_on=fail_on,
        critical=summary["critical_count"],
        warning=summary["warning_count"],
        findings=[f.to_json() for f in report.flagged],
        problems=[str(p) for p in problems],
    )


def diff_catalogs(
    root: Path,
    old: str,
    new: str | None,
    suite: str | None,
    server: str | None,
    fail_on: str = "breaking",
) -> DiffOutcome:
    """`mcptest diff`: the saved catalog `old` against the file `new`, or against a suite's server listed live."""
    from mcptest.core.errors import usage_error
    from mcptest.diff.compare import diff_sources

    if fail_on not in DIFF_FAIL_ON:
        raise usage_error(f"fail_on: expected one of {', '.join(DIFF_FAIL_ON)}, got {fail_on!r}")
    if (new is None) == (suite is None):
        raise usage_error("give new (a catalog file) or suite (its server listed live), not both")
    old_path = inside(root, old, "catalog")
    new_path = inside(root, new, "catalog") if new is not None else None
    suite_path = inside(root, suite) if suite is not None else None
    report, problems = diff_sources(old_path, new_path, suite_path, server)
    worst = report.worst()
    return DiffOutcome(
        ok=not report.fails(fail_on),
        fail_on=fail_on,
        worst=worst.value if worst is not None else None,
        report=report.model_dump(mode="json"),
        problems=[str(p) for p in problems],
    )


def explain_rule(code: str) -> RuleDoc:
    """A DESC, SCH or SEC rule's documentation, as `mcptest rules CODE` prints it."""
    from mcptest.checks.lint import get_rule
    from mcptest.checks.security.registry import get_sec_rule

    rule = get_sec_rule(code) if code.strip().upper().startswith("SEC") else get_rule(code)
    return RuleDoc(
        code=rule.code,
        name=rule.name,
        severity=rule.severity.value,
        tier="pedantic" if rule.pedantic else "default",
        summary=rule.summary,
        docs=rule.docs,
    )
