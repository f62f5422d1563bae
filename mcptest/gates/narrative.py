"""Narrative vs trace (`narrative:`): does the final answer claim work the trace does not show, or hide work it did."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from mcptest.gates.claims import VERBS, Claim, claims, name_words, past_forms
from mcptest.gates.outcome import GateContext, GateOutcome, default, failure_lines, judged, plural, runs, status
from mcptest.gates.sequence import show_call
from mcptest.gates.workflow import string_values
from mcptest.records.trace import ToolCall, Trace
from mcptest.suite.blocks.narrative import NarrativeConfig

BLOCK = "narrative"
DEFAULT_GATE = (default("narrative.claimed_but_absent", "<=", 0),)
TARGETS = (
    "narrative.claims",
    "narrative.claimed_but_absent",
    "narrative.unclaimed_mutations",
    "narrative.arg_mismatch",
)


def backs(claim: Claim, call: ToolCall) -> bool:
    """A successful call backs a claim when its tool name holds both the claim's verb and its noun."""
    words = name_words(call.name)
    return not call.is_error and not call.unknown_tool and claim.verb in words and claim.noun in words


def mutating(call: ToolCall, verbs: Sequence[str], read_only: set[str]) -> bool:
    """A tool whose name holds a mutating verb (base or past form), unless its catalog entry says `readOnlyHint`."""
    return call.name not in read_only and _mutating_name(call.name, tuple(verbs))


@lru_cache(maxsize=4096)
def _mutating_name(name: str, verbs: tuple[str, ...]) -> bool:
    forms = past_forms(verbs)
    return any(w in verbs or w in forms for w in name_words(name))


def mentions(value: str, call: ToolCall) -> bool:
    """The value (ignoring case) is within one of the call's argument values or its result."""
    needle = value.lower()
    found = [*string_values(call.args), *string_values(call.structured_content), call.text]
    return any(needle in str(v).lower() for v in found)


def judge_run(trace: Trace, verbs: Sequence[str]) -> dict[str, Any]:
    """One run's claims against its calls."""
    text = trace.final_response or ""
    read_only = {t.name for t in trace.catalog or [] if (t.tool.get("annotations") or {}).get("readOnlyHint")}
    unique = list({(c.verb, c.noun): c for c in reversed(claims(text, verbs))}.values())[::-1]
    absent, mismatched, backed_calls = [], [], set()
    for claim in unique:
        backing = [j for j, call in enumerate(trace.tool_calls) if backs(claim, call)]
        backed_calls.update(backing)
        if not backing:
            absent.append(claim.text)
        for literal in claim.literals:
            if backing and not any(mentions(literal, trace.tool_calls[j]) for j in backing):
                mismatched.append(f'"{literal}" ({claim.text}) is in no argument or result of the backing call')
    lowered = text.lower()
    unclaimed = [
        show_call(call)
        for j, call in enumerate(trace.tool_calls)
        if j not in backed_calls
        and not call.is_error
        and mutating(call, verbs, read_only)
        and call.name.lower() not in lowered
    ]
    return {"claims": [c.text for c in unique], "absent": absent, "unclaimed": unclaimed, "mismatched": mismatched}


def evaluate(traces: Sequence[Trace], config: NarrativeConfig, context: GateContext) -> GateOutcome:
    """The final answer against the trace, rule-based and model-free (narrative-vs-trace divergence, MCP Pitfall Lab
    arXiv:2604.21477; spec 000, "Reliability and trace metrics").

    Claims: a past-tense mutating verb (`verbs:`) paired with its noun, e.g. "created the issue" -> create + issue
    (see mcptest.gates.claims); each distinct (verb, noun) counts once per run. A successful call backs a claim
    when its tool name's words (split at `_ . -` and camelCase, singular) hold both the verb and the noun.
    `narrative.claimed_but_absent` = claims no successful call backs (a failed call does not do the work);
    `narrative.unclaimed_mutations` = successful calls to mutating tools (a name word is a mutating verb, and the
    catalog does not mark it readOnlyHint) that back no claim and whose name the answer does not contain;
    `narrative.arg_mismatch` = quoted values ("...", `...`) and `#N` in a backed claim found in no argument value
    and no result of its backing calls; `narrative.claims` = claims found. All summed over the runs that recorded a
    final answer; absent when none did. Default gate: narrative.claimed_but_absent <= 0.
    """
    verbs = tuple(v.lower() for v in config.verbs or VERBS)
    rows: list[dict[str, Any]] = [
        {"run": i, **judge_run(t, verbs)} if t.final_response is not None else {"run": i, "no_answer": True}
        for i, t in enumerate(runs(traces), 1)
    ]
    answered = [r for r in rows if not r.get("no_answer")]
    targets: dict[str, int | float] = {}
    undefined = {}
    if answered:
        for target, key in zip(TARGETS, ("claims", "absent", "unclaimed", "mismatched"), strict=True):
            targets[target] = sum(len(r[key]) for r in answered)
    else:
        undefined = dict.fromkeys(TARGETS, "no run recorded a final answer")
    outcome = judged(BLOCK, targets, config, DEFAULT_GATE, undefined=undefined, detail={"runs": rows})
    outcome.lines = [summary_line(outcome, context.label), *failure_lines(outcome), *detail_lines(rows)]
    return outcome


def summary_line(outcome: GateOutcome, label: str) -> str:
    """`narrative [FAIL] label: 2 claims, 1 claimed but absent, 0 unclaimed mutations, 0 argument mismatches`."""
    t = outcome.targets
    if not t:
        return f"narrative {status(outcome)} {label}: no run recorded a final answer"
    return (
        f"narrative {status(outcome)} {label}: {plural(int(t['narrative.claims']), 'claim')}, "
        f"{int(t['narrative.claimed_but_absent'])} claimed but absent, "
        f"{plural(int(t['narrative.unclaimed_mutations']), 'unclaimed mutation')}, "
        f"{plural(int(t['narrative.arg_mismatch']), 'argument mismatch', 'argument mismatches')}"
    )


def detail_lines(rows: Sequence[dict[str, Any]]) -> list[str]:
    """What diverged, per run: claims with no call, mutations never mentioned, values that do not match."""
    out = []
    for r in rows:
        where = f"run {r['run']}: " if len(rows) > 1 else ""
        if r.get("no_answer"):
            out.append(f"NO ANSWER {where}the run recorded no final answer")
            continue
        out += [f'CLAIMED BUT ABSENT {where}"{c}": no successful call backs it' for c in r["absent"]]
        out += [f"UNCLAIMED {where}{c}: a mutating call the answer never mentions" for c in r["unclaimed"]]
        out += [f"ARG MISMATCH {where}{m}" for m in r["mismatched"]]
    return out
