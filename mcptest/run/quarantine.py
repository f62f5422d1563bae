"""Which of the suite's `quarantine:` entries are in force on the day a run starts, and which have expired."""

from __future__ import annotations

from datetime import date

from mcptest.suite.models import Suite


def quarantine_in_force(suite: Suite, today: date) -> tuple[dict[str, str], list[str]]:
    """(test name -> reason, for entries whose `until` is today or later; one note per expired entry).

    An entry applies through its `until` day; from the next day its test counts again, and the run says so."""
    active: dict[str, str] = {}
    expired: list[str] = []
    for entry in suite.quarantine:
        if entry.until >= today:
            active[entry.test] = entry.reason
        else:
            expired.append(
                f"mcptest: the quarantine of '{entry.test}' in {suite.file} expired on {entry.until.isoformat()}: "
                "its failures count again (remove the entry, or extend `until:` if it is still flaky)"
            )
    return active, expired
