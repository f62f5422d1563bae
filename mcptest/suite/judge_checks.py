"""Load-time checks of judges: only agent tests that call a model can record a verdict, and a judge needs a provider."""

from __future__ import annotations

from mcptest.core.errors import Problem, where
from mcptest.core.yaml_source import Loc, SourceDoc
from mcptest.expect.assertions import Assertion
from mcptest.expect.judge_spec import JudgeSpec, panel
from mcptest.providers import provider_of, unknown_model_hint
from mcptest.suite.models import Suite


def judge_problems(suite: Suite, doc: SourceDoc) -> list[Problem]:
    """A judge outside a model-run agent test, or a judge model whose provider cannot be told."""
    found: list[tuple[Loc, str]] = []
    for i, tool_test in enumerate(suite.tools):
        found += _nowhere(
            _expect_loc(doc, ("tools", i)), tool_test.assertions, "tool tests have no model and no cassette"
        )
    for i, block in enumerate(suite.tool_quality):
        found += _nowhere(("tool_quality", i, "expect"), block.expect or [], "a quality block has no model to ask")
    for i, agent in enumerate(suite.agents):
        loc: Loc = ("agents", i, "expect")
        if agent.recorded:
            found += _nowhere(
                loc, agent.expect or [], "this test judges recorded runs and has no cassette to keep them"
            )
        elif agent.scripted:
            found += _nowhere(loc, agent.expect or [], "a scripted test calls no model and writes no cassette")
        else:
            found += _providers(loc, agent.expect or [])
    return [doc.problem(at, f"{where(at)}: {message}") for at, message in found]


def _expect_loc(doc: SourceDoc, loc: Loc) -> Loc:
    data = doc.data
    for step in loc:
        data = data[step]
    return (*loc, "expect", "assertions") if isinstance(data.get("expect"), dict) else (*loc, "expect")


def _nowhere(loc: Loc, assertions: list[Assertion], why: str) -> list[tuple[Loc, str]]:
    return [
        ((*loc, j), f"a `{a.matcher.kind}` matcher needs an agent test that calls a model ({why})")
        for j, a in enumerate(assertions)
        if a.matcher.graded
    ]


def _providers(loc: Loc, assertions: list[Assertion]) -> list[tuple[Loc, str]]:
    out = []
    for j, a in enumerate(assertions):
        spec = a.matcher.judge or a.matcher.jury
        for juror in panel(spec) if spec is not None else []:
            if provider_of(juror.model, juror.provider) is None:
                kind = "judge" if isinstance(spec, JudgeSpec) else "jury"
                out.append(((*loc, j), f"{kind} model: {unknown_model_hint(juror.model)}"))
    return out
