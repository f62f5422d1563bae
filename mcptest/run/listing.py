"""`mcptest run --list`: the selected tests, in run order, without running any."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mcptest.run.selection import Selection
    from mcptest.suite.models import Suite


def selected_rows(suite: Suite, selection: Selection) -> list[tuple[str, str, int]]:
    """One (kind, name, line) per selected test in run order: tool, resource, prompt and gate tests, then agents."""
    from mcptest.run.kinds import report_fields
    from mcptest.run.runner import select

    rows = [(report_fields(t, suite.file)["kind"], t.name, t._line) for t in select(suite, selection)]
    rows += [("agent", a.name, a._line) for a in suite.agents if selection.matches(a)]
    return rows
