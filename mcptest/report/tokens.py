"""Token use per agent test and model, summed over its runs, with cached input and reasoning output on their own:
the side-by-side view of a model matrix that the console, Markdown and HTML reporters show."""

from __future__ import annotations

from dataclasses import dataclass

from mcptest.records.report import Report, TestResult

PARTS = ("input", "cached", "output", "reasoning", "total")
"""The columns, in order: input includes cached, output includes reasoning."""


@dataclass(frozen=True)
class TokenLine:
    """One agent test on one model: its metered runs and their tokens summed. A part is None when a run did not
    report it (`cached`/`reasoning` are 0 when the provider reported none)."""

    test: str
    model: str | None
    runs: int
    input: int | None
    cached: int | None
    output: int | None
    reasoning: int | None
    total: int

    def text(self) -> str:
        """`input 200 (50 cached), output 40 (20 reasoning), total 240 over 2 runs`."""
        parts = []
        if self.input is not None:
            parts.append(f"input {self.input}" + (f" ({self.cached} cached)" if self.cached else ""))
        if self.output is not None:
            parts.append(f"output {self.output}" + (f" ({self.reasoning} reasoning)" if self.reasoning else ""))
        runs = f" over {self.runs} runs" if self.runs > 1 else ""
        return ", ".join([*parts, f"total {self.total}"]) + runs


def token_lines(report: Report) -> list[TokenLine]:
    """Each (agent test, model) whose rows carry `tokens.total`, in report order."""
    groups: dict[tuple[str, str | None], list[TestResult]] = {}
    for r in report.results:
        if r.kind == "agent" and isinstance(r.targets.get("tokens.total"), int | float):
            groups.setdefault((r.name, r.model), []).append(r)
    return [
        TokenLine(
            name, model, len(rows), input=_sum(rows, "input"), cached=_sum(rows, "cached"), output=_sum(rows, "output"),
            reasoning=_sum(rows, "reasoning"), total=_sum(rows, "total") or 0,
        )
        for (name, model), rows in groups.items()
    ]  # fmt: skip


def _sum(rows: list[TestResult], part: str) -> int | None:
    """The part summed over the rows; `cached`/`reasoning` absent from a row that has the split count as 0 (a row
    omits them when the provider reported none), any other part absent makes the sum unknown."""
    total = 0
    for r in rows:
        value = r.targets.get(f"tokens.{part}")
        if value is None and part in ("cached", "reasoning") and "tokens.input" in r.targets:
            value = 0
        if not isinstance(value, int | float):
            return None
        total += int(value)
    return total
