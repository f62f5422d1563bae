"""The suite's `quarantine:` list: tests that still run and are reported, but are kept out of the exit code until
a date, because they are known to be flaky."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from pydantic import Field

from mcptest.core.errors import Problem, did_you_mean
from mcptest.core.yaml_source import SourceDoc
from mcptest.suite.strict import Strict


class QuarantineEntry(Strict):
    """`- {test: NAME, reason: ..., until: YYYY-MM-DD}`: NAME runs and is reported, but its failures (and its
    gates') do not fail the run, through `until`; from the day after, the entry no longer applies and the run says
    it expired."""

    test: str = Field(min_length=1, description="The test's name, as written in the suite.")
    reason: str = Field(min_length=1, description="Why it is quarantined (an issue link, `flaky: ...`).")
    until: date = Field(description="The last day the quarantine applies (YYYY-MM-DD); it expires the day after.")


def quarantine_problems(doc: SourceDoc, names: Sequence[str]) -> list[Problem]:
    """Each entry naming no test of the suite, at its `test:` value (a typo would quarantine nothing)."""
    entries = doc.data.get("quarantine")
    problems = []
    for i, entry in enumerate(entries if isinstance(entries, list) else []):
        name = entry.get("test") if isinstance(entry, dict) else None
        if isinstance(name, str) and name and name not in names:
            loc = ("quarantine", i, "test")
            hint = did_you_mean(name, list(names)) or "; it must name a test of this suite"
            problems.append(doc.problem(loc, f"quarantine[{i}].test: no test named '{name}'{hint}"))
    return problems
