"""Load-time checks of agent tests that run a model (or a script) rather than judge recorded runs."""

from __future__ import annotations

from mcptest.core.errors import Problem, where
from mcptest.core.yaml_source import Loc, SourceDoc
from mcptest.providers import provider_of, unknown_model_hint
from mcptest.suite.agents import AgentTest


def live_problems(test: AgentTest, doc: SourceDoc, i: int) -> list[Problem]:
    """What a live or scripted agent test is missing: a prompt, a model with a known provider, a fitting script."""
    loc: Loc = ("agents", i)
    found: list[tuple[Loc, str]] = []
    if test.prompt is None:
        found.append((loc, "missing required key 'prompt' (the user prompt the model is given)"))
    if test.scripted:
        found += _script_problems(test, loc)
    elif test.model is None and test.models is None:
        found.append((loc, "missing required key 'model' (or a `models:` matrix, or a `script:` to play the model)"))
    else:
        for j, model in enumerate(test.models or [test.model]):
            at: Loc = (*loc, "models", j) if test.models else (*loc, "model")
            if model is not None and provider_of(model, test.provider) is None:
                found.append((at, unknown_model_hint(model)))
            elif test.api is not None and provider_of(model, test.provider) not in ("openai", "openai-responses"):
                found.append(((*loc, "api"), "`api:` chooses between OpenAI's APIs: it needs an OpenAI model"))
    return [doc.problem(at, f"{where(at)}: {message}") for at, message in found]


def recorded_problems(test: AgentTest, doc: SourceDoc, i: int) -> list[Problem]:
    """Keys that only make sense for a live run, set on a test that judges recorded runs."""
    keys = [k for k in ("provider", "api", "base_url", "script", "turns") if getattr(test, k) is not None]
    return [
        doc.problem(
            ("agents", i, k),
            f"{where(('agents', i, k))}: `{k}:` is for live runs; this test judges "
            "recorded runs (`traces:` / `tool_calls:`)",
        )
        for k in keys
    ]


def _script_problems(test: AgentTest, loc: Loc) -> list[tuple[Loc, str]]:
    if test.provider not in (None, "scripted"):
        return [((*loc, "script"), f"`script:` plays the model itself; remove it or `provider: {test.provider}`")]
    if test.script is None:
        return [((*loc, "provider"), "`provider: scripted` needs a `script:` of what the model does in each run")]
    if test.base_url is not None:
        return [((*loc, "base_url"), "a scripted test calls no model endpoint; remove `base_url:`")]
    if len(test.script) not in (1, test.runs):
        return [
            (
                (*loc, "script"),
                f"the script has {len(test.script)} runs but `runs:` is {test.runs} "
                "(give one run for all, or one per run)",
            )
        ]
    return []
