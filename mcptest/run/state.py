"""What a run has finished so far: the one place a Report is built, whole or cut short by Ctrl-C or a bug."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime

from mcptest import __version__
from mcptest.core.redact import redact
from mcptest.records.coverage import Coverage, Tally
from mcptest.records.report import GateReport, Report, TestResult, summarize


@dataclass
class RunState:
    """The results of one run as they finish; `report()` can be asked for at any moment."""

    suite: str = ""
    started_at: datetime | None = None
    secrets: set[str] = field(default_factory=set)
    results: list[TestResult] = field(default_factory=list)
    gates: list[GateReport] = field(default_factory=list)
    capped: bool = False
    not_run: int = 0
    """Tests `-x/--fail-fast` never started."""
    quarantine: dict[str, str] = field(default_factory=dict)
    """Test name -> reason: the suite's `quarantine:` entries in force, out of the exit code."""
    start: float = field(default_factory=time.perf_counter)
    tally: Tally = field(default_factory=Tally)
    """What the run's calls and agent runs reached, counted as they finish."""
    coverage: Coverage | None = None
    """The tally laid over the servers' catalogs, once the tests are done."""

    def begin(self, suite: str, started_at: datetime, secrets: set[str]) -> None:
        """Start the clock of a run of `suite`."""
        self.suite, self.started_at, self.secrets, self.start = suite, started_at, secrets, time.perf_counter()

    def report(self, *, interrupted: bool = False) -> Report:
        """The Report of what has finished, secrets masked; `interrupted` marks a run that stopped early."""
        q = self.quarantine
        results = [r.model_copy(update={"quarantined": q[r.name]}) if r.name in q else r for r in self.results]
        gates = [g.model_copy(update={"quarantined": q[g.test]}) if g.test in q else g for g in self.gates]
        report = Report(
            mcptest_version=__version__,
            suite=self.suite,
            started_at=(self.started_at or datetime.now(UTC)).isoformat(),
            duration_ms=round((time.perf_counter() - self.start) * 1000, 3),
            results=results,
            gates=gates,
            summary=summarize(results, gates, capped=self.capped, interrupted=interrupted, not_run=self.not_run),
            coverage=self.coverage,
            interrupted=interrupted,
        )
        return redact(report, self.secrets)


def crash_message(exc: BaseException) -> str:
    """Why a test failed when checking it raised: a bug in mcptest, reported instead of ending the run."""
    logging.getLogger("mcptest").debug("a check raised", exc_info=exc)
    text = str(exc).strip().splitlines()[0][:300] if str(exc).strip() else ""
    reason = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    return f"mcptest could not check this test ({reason}); the other tests went on. Please report this bug."
