"""`mcptest report --compare last|last-green|main`: the baseline taken from the run history, and each failing case
labelled new, recurring or flaky."""

from __future__ import annotations

from collections.abc import Set

from mcptest.core.errors import usage_error
from mcptest.records.report import Report, Status
from mcptest.report.delta import CaseKind, Comparison, FailureKind

BASELINES = {
    "last": "the last stored run before this one",
    "last-green": "the last stored run that passed",
    "main": "the last stored run on branch main",
}
"""The names `--compare` takes from the history (a file of that name, if one exists, is read instead)."""


def baseline_from_history(current: Report, which: str, url: str) -> tuple[Report, set[tuple[str, str | None]]]:
    """The stored baseline for `current` (always from before it started) and the (test, model) pairs the history
    calls flaky; a missing store or baseline is a UserError saying which."""
    from mcptest.history.context import suite_identity
    from mcptest.history.location import missing_file, shown
    from mcptest.history.queries import flaky
    from mcptest.history.store import HistoryError, open_store

    suite = suite_identity(current.suite)
    if (missing := missing_file(url)) is not None:
        raise usage_error(f"--compare {which}: no history yet ({missing} does not exist); run the suite first")
    try:
        store = open_store(url)
    except HistoryError as exc:
        raise usage_error(f"--compare {which}: {exc}") from None
    with store:
        base = store.baseline(suite, "main" if which == "main" else which, before=current.started_at)
        found = flaky(store, suite)
    if base is None:
        raise usage_error(f"--compare {which}: {BASELINES[which]} of {suite} is not in {shown(url)}")
    return base, {(s.test, s.model) for s in found.tests}


def label_failures(comparison: Comparison, flaky: Set[tuple[str, str | None]] = frozenset()) -> Comparison:
    """Mark each case failing now: `flaky` when the history says so, `recurring` when it failed in the baseline
    too, else `new`."""
    for case in comparison.cases:
        if case.current_status != Status.FAILED or case.kind == CaseKind.RUNS:
            continue
        if (case.test, case.model) in flaky:
            case.failure = FailureKind.FLAKY
        elif case.baseline_status == Status.FAILED:
            case.failure = FailureKind.RECURRING
        else:
            case.failure = FailureKind.NEW
    return comparison
