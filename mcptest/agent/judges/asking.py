"""Asking a judge: the question (rubric, criteria, the text), reading its JSON answer, one retry when it is not."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from functools import partial
from typing import Any

from mcptest.expect.judge_spec import JudgeSpec, JurySpec
from mcptest.providers.base import Provider
from mcptest.providers.retry import RetryPolicy, Sleep, with_retries
from mcptest.records.messages import ModelReply, ModelRequest, UserMessage
from mcptest.records.verdict import CriterionScore, JurorVerdict, at_least, weighted

SYSTEM = (
    "You are a strict, fair grader. You are given a rubric and a text an AI agent wrote. Grade the text against the "
    "rubric only, and answer with one JSON object and nothing else."
)
"""The instruction sent with every judge question."""

MAX_TOKENS = 1024
"""The output-token limit of a judge's answer: one short JSON object (room for a reasoning model's thinking)."""

RETRY = "Your answer could not be used: {why}. Answer again with only the JSON object, nothing before or after it."
"""The follow-up sent once when the first answer is not valid JSON of the asked form."""

_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.DOTALL)


def rubric_text(spec: JudgeSpec | JurySpec) -> str:
    """The rubric as the judge is shown it: the free text, then the criteria (what a change of it re-asks)."""
    parts = [spec.rubric] if spec.rubric else []
    if spec.criteria:
        parts.append(
            "Criteria, each scored from 0.0 to 1.0:\n"
            + "\n".join(f"- {c.name}: {c.description}" for c in spec.criteria)
        )
    return "\n\n".join(parts)


def question(spec: JudgeSpec | JurySpec, target: str, text: str, messages: Sequence[str]) -> str:
    """The question: the user's messages for context, the rubric, the text to grade, the answer's exact form."""
    said = "\n".join(f"- {m}" for m in messages)
    form = '{"pass": true or false, "score": a number from 0.0 to 1.0, "reason": "<one sentence>"'
    if spec.criteria:
        form += ', "criteria": [{"name": "<criterion name>", "score": 0.0 to 1.0, "reason": "<one sentence>"}, ...]'
    return (
        f"The user said:\n{said}\n\nRubric:\n{rubric_text(spec)}\n\n"
        f"The text to grade (the agent's `{target}`):\n<<<\n{text}\n>>>\n\n"
        f"Answer with only this JSON object: {form}}}"
    )


async def grade(
    provider: Provider, spec: JudgeSpec | JurySpec, model: str, prompt: str, retry: RetryPolicy, sleep: Sleep
) -> tuple[JurorVerdict, list[ModelReply]]:
    """One judge's verdict and the replies it took: a second call only when the first answer is not usable."""
    request = first_request(model, prompt)
    replies: list[ModelReply] = []
    why = ""
    for _ in range(2):
        reply = await with_retries(partial(provider.reply, request), retry, sleep)
        replies.append(reply)
        found = read(reply, spec, model)
        if isinstance(found, JurorVerdict):
            return found, replies
        why = found
        request = retry_request(model, prompt, reply, why)
    reason = f"its answer was {why}, after one retry"
    return JurorVerdict(model=model, passed=False, reason=reason, error=True), replies


def retry_request(model: str, prompt: str, first: ModelReply, why: str) -> ModelRequest:
    """The follow-up: the same conversation, the unusable answer, and what was wrong with it."""
    return ModelRequest(
        model=model,
        system=SYSTEM,
        prompt=prompt,
        max_tokens=MAX_TOKENS,
        history=[first, UserMessage(text=RETRY.format(why=why))],
    )


def first_request(model: str, prompt: str) -> ModelRequest:
    """The question as one model call."""
    return ModelRequest(model=model, system=SYSTEM, prompt=prompt, max_tokens=MAX_TOKENS)


def read(reply: ModelReply, spec: JudgeSpec | JurySpec, model: str) -> JurorVerdict | str:
    """The verdict in a reply, or why the reply is not valid JSON of the asked form."""
    text = (reply.text or "").strip()
    fenced = _FENCE.match(text)
    try:
        data = json.loads(fenced.group(1) if fenced else text)
    except json.JSONDecodeError as exc:
        return f"not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno}): {_quote(text)}"
    if not isinstance(data, dict):
        return f"not a JSON object: {_quote(text)}"
    problem = _shape(data, spec)
    if problem:
        return problem
    criteria: list[CriterionScore] = []
    score = float(data["score"])
    if spec.criteria:
        given = {c["name"]: c for c in data["criteria"]}
        score, weights = weighted(spec.criteria, {n: float(c["score"]) for n, c in given.items()})
        criteria = [
            CriterionScore(name=c.name, weight=w, score=float(given[c.name]["score"]), reason=given[c.name]["reason"])
            for c, w in zip(spec.criteria, weights, strict=True)
        ]
    return JurorVerdict(
        model=model,
        score=score,
        passed=at_least(score, spec.threshold),
        said_pass=data["pass"],
        reason=data["reason"],
        criteria=criteria,
    )


def _shape(data: dict[str, Any], spec: JudgeSpec | JurySpec) -> str | None:
    if not isinstance(data.get("pass"), bool):
        return '"pass" must be true or false'
    if not _unit(data.get("score")):
        return '"score" must be a number from 0.0 to 1.0'
    if not isinstance(data.get("reason"), str):
        return '"reason" must be a string'
    if not spec.criteria:
        return None
    items = data.get("criteria")
    if not isinstance(items, list) or not all(isinstance(c, dict) for c in items):
        return '"criteria" must be a list of {"name", "score", "reason"} objects'
    given = {c.get("name"): c for c in items}
    for c in spec.criteria:
        item = given.get(c.name)
        if item is None:
            return f'"criteria" has no entry for "{c.name}"'
        if not _unit(item.get("score")) or not isinstance(item.get("reason"), str):
            return f'criterion "{c.name}" needs a "score" from 0.0 to 1.0 and a "reason"'
    return None


def _unit(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value <= 1


def _quote(text: str, limit: int = 120) -> str:
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")
