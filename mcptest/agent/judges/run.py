"""Judge one run: ask every judge and juror of the test's `judge`/`jury` assertions, live or from the cassette."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

import anyio

from mcptest.agent.judges.asking import grade, question, rubric_text
from mcptest.cassette.format import JudgeCall, JudgeFingerprint
from mcptest.expect.assertions import Assertion, TargetMissing, resolve, show
from mcptest.expect.judge_spec import JudgeSpec, Juror, JurySpec, panel
from mcptest.providers.errors import MissingKey, RunFailed
from mcptest.providers.prices import Price, cost
from mcptest.providers.retry import RetryPolicy, Sleep
from mcptest.records.verdict import Judgement, JurorVerdict, decide, failure

if TYPE_CHECKING:
    from mcptest.providers.base import Provider
    from mcptest.records.messages import ModelReply
    from mcptest.records.trace import Trace
    from mcptest.suite.agents import AgentTest


class JudgeSource(Protocol):
    """Who answers a juror: a live provider, or the cassette's recorded answers."""

    async def provider(self, expect: int, index: int, juror: Juror, question: str) -> Provider:
        """A provider for juror `index` of `expect[expect]`, asked the question whose `sha256:` is `question`."""
        ...


def graded(test: AgentTest) -> list[tuple[int, Assertion, JudgeSpec | JurySpec]]:
    """The test's `judge` and `jury` assertions with their index in `expect:`."""
    out = []
    for i, a in enumerate(test.expect or []):
        spec = a.matcher.judge or a.matcher.jury
        if spec is not None:
            out.append((i, a, spec))
    return out


def fingerprints(test: AgentTest) -> list[JudgeFingerprint]:
    """What each judge assertion asks, as the cassette's fingerprint keeps it."""
    return [
        JudgeFingerprint(expect=i, target=a.target, models=[j.model for j in panel(s)], rubric=rubric_text(s))
        for i, a, s in graded(test)
    ]


@dataclass
class Judged:
    """A run's verdicts, the calls to record, and what the judges cost live."""

    judgements: list[Judgement] = field(default_factory=list)
    calls: list[JudgeCall] = field(default_factory=list)
    spent: float = 0.0


async def judge_run(
    test: AgentTest,
    trace: Trace,
    source: JudgeSource,
    prices: Mapping[str, Price | None] = {},  # noqa: B006 - never mutated
    sleep: Sleep = anyio.sleep,
) -> Judged:
    """Every judge assertion on one run; a judge call that fails (after retries) raises RunFailed naming it."""
    from mcptest.suite.agents import agent_view

    view = agent_view(trace)
    said = [t.prompt for t in trace.user_turns] if trace.user_turns else [trace.prompt or ""]
    out = Judged()
    for i, a, spec in graded(test):
        try:
            text = resolve(view, a.target)
        except TargetMissing:
            continue  # the check reports the missing target
        if not isinstance(text, str):
            out.judgements.append(_not_text(i, a.target, spec, text))
            continue
        prompt = question(spec, a.target, text, said)
        key = "sha256:" + hashlib.sha256(prompt.encode()).hexdigest()
        verdicts: list[JurorVerdict] = []
        for k, juror in enumerate(panel(spec)):
            try:
                provider = await source.provider(i, k, juror, key)
                verdict, replies = await grade(provider, spec, juror.model, prompt, RetryPolicy(), sleep)
            except RunFailed as exc:
                raise RunFailed(f"expect[{i}] judge {juror.model}: {exc.message}") from None
            spent = _cost(replies, prices.get(juror.model))
            out.spent += spent or 0.0
            out.calls.append(
                JudgeCall.model_construct(
                    expect=i, juror=k, model=juror.model, question=key, replies=replies, cost_usd=spent
                )
            )
            verdicts.append(verdict)
        out.judgements.append(decide(i, a.target, spec, verdicts))
    return out


def _not_text(i: int, target: str, spec: JudgeSpec | JurySpec, value: object) -> Judgement:
    why = f"a judge reads text; `{target}` is {show(value, 80)}"
    jurors = [JurorVerdict(model=j.model, passed=False, reason=why, error=True) for j in panel(spec)]
    return decide(i, target, spec, jurors).model_copy(update={"passed": False, "reason": why})


def _cost(replies: Sequence[ModelReply], price: Price | None) -> float | None:
    usages = [r.usage for r in replies if r.usage is not None]
    return cost(price, sum(u.input for u in usages), sum(u.output for u in usages)) if usages else None


class LiveJudges:
    """Judges asked live: one provider per (provider, base_url), shared by the runs of a cell."""

    def __init__(self, environ: Mapping[str, str]) -> None:
        self._environ = environ
        self._providers: dict[tuple[str, str | None], Provider] = {}

    async def provider(self, expect: int, index: int, juror: Juror, question: str) -> Provider:
        """The juror's provider (built on first use; a missing key fails the run)."""
        from mcptest.providers import build, provider_of

        name = provider_of(juror.model, juror.provider) or "anthropic"
        key = (name, juror.base_url)
        if key not in self._providers:
            try:
                self._providers[key] = build(name, self._environ, juror.base_url)
            except MissingKey as exc:
                raise RunFailed(str(exc)) from None
        return self._providers[key]

    async def aclose(self) -> None:
        """Close every provider built."""
        for provider in self._providers.values():
            await provider.aclose()


class RecordedJudges:
    """Judges replayed from one cassette run: each question must be the one recorded. `moved` maps an assertion's
    index now to its index when recorded (assertions added or removed before it shift it)."""

    def __init__(self, calls: Sequence[JudgeCall], where: str, moved: Mapping[int, int] = {}) -> None:  # noqa: B006
        self._calls = {(c.expect, c.juror): c for c in calls}
        self._where = where
        self._moved = moved

    async def provider(self, expect: int, index: int, juror: Juror, question: str) -> Provider:
        """A provider that answers with the recorded replies."""
        from mcptest.cassette.format import CassetteRun
        from mcptest.cassette.replay import ReplayMiss, ReplayProvider

        recorded = self._calls.get((self._moved.get(expect, expect), index))
        if recorded is None:
            raise ReplayMiss(f"{self._where}: the cassette has no answer of {juror.model}; re-record it")
        if recorded.question != question:
            raise ReplayMiss(f"{self._where}: the judged text differs from the recording; re-record it")
        return ReplayProvider(CassetteRun(replies=recorded.replies, exchanges=[]), self._where)


async def with_verdicts(
    test: AgentTest,
    trace: Trace,
    source: JudgeSource,
    prices: Mapping[str, Price | None] = {},  # noqa: B006 - never mutated
    sleep: Sleep = anyio.sleep,
) -> tuple[Trace, Judged]:
    """The trace with its judge verdicts attached; a failed run is not judged, a failed judge call fails the run."""
    if trace.error or not graded(test):
        return trace, Judged()
    try:
        judged = await judge_run(test, trace, source, prices, sleep)
    except RunFailed as exc:
        return trace.model_copy(update={"error": exc.message}), Judged()
    return trace.model_copy(update={"judgements": judged.judgements}), judged


def verdict_of(trace: Trace) -> Callable[[int], str | None]:
    """`check`'s grader for one run: the failure of the verdict on `expect[i]`, or why there is none."""
    found = {j.expect: j for j in trace.judgements or []}

    def grade(i: int) -> str | None:
        if i in found:
            return failure(found[i])
        return f"not judged: {trace.error}" if trace.error else "not judged"

    return grade


def moved(recorded: Sequence[JudgeFingerprint], current: Sequence[JudgeFingerprint]) -> dict[int, int]:
    """Current `expect:` index -> recorded index of each judge assertion, paired in order."""
    return {now.expect: was.expect for was, now in zip(recorded, current, strict=False)}
