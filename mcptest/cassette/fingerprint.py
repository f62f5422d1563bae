"""Which recorded settings differ from the suite's, in words a user can act on."""

from __future__ import annotations

from mcptest.cassette.format import Fingerprint, JudgeFingerprint

_LABELS = {
    "model": "the model",
    "provider": "the provider",
    "system": "the system prompt",
    "prompt": "the prompt",
    "servers": "the servers",
    "catalog": "the tool catalog",
    "max_turns": "max_turns",
    "max_tokens": "max_tokens",
    "runs": "runs",
}


def changes(recorded: Fingerprint, current: Fingerprint) -> list[str]:
    """One phrase per changed field, e.g. `the prompt ('What is...' -> 'What's...')`, in a fixed order."""
    out = []
    for name, label in _LABELS.items():
        if name == "prompt" and recorded.turns != current.turns:
            out += _turn_changes(recorded.turns, current.turns)
        was, now = getattr(recorded, name), getattr(current, name)
        if was == now:
            continue
        if name == "catalog":
            out.append(f"{label} (a distractor or tool definition differs)")
        else:
            out.append(f"{label} ({_short(was)} -> {_short(now)})")
    return out + _judge_changes(recorded.judges, current.judges)


def _turn_changes(was: list[str], now: list[str]) -> list[str]:
    """A changed message is named by its target index: `turns[1]` is the first of `turns:` (0 is the prompt)."""
    pairs = enumerate(zip(was, now, strict=False), 1)
    out = [f"turns[{i}] ({_short(a)} -> {_short(b)})" for i, (a, b) in pairs if a != b]
    if len(was) != len(now):
        out.append(f"the number of turns ({len(was) + 1} -> {len(now) + 1} user messages)")
    return out


def _judge_changes(was: list[JudgeFingerprint], now: list[JudgeFingerprint]) -> list[str]:
    """Judges pair up in order (other assertions may come and go between them); a change names the assertion:
    `the rubric of expect[2] (...)`, `the judge model of expect[0] (...)`."""
    out = []
    for old, new in zip(was, now, strict=False):
        i = new.expect
        if old.models != new.models:
            which = "judge model" if len(old.models) == len(new.models) == 1 else "jurors"
            shown = (old.models[0], new.models[0]) if which == "judge model" else (old.models, new.models)
            out.append(f"the {which} of expect[{i}] ({_short(shown[0])} -> {_short(shown[1])})")
        if old.rubric != new.rubric:
            out.append(f"the rubric of expect[{i}] ({_changed_part(old.rubric, new.rubric)})")
        if old.target != new.target:
            out.append(f"the judged target of expect[{i}] ({_short(old.target)} -> {_short(new.target)})")
    if len(was) != len(now):
        out.append(f"the number of judge and jury assertions ({len(was)} -> {len(now)})")
    return out


def _changed_part(was: str, now: str) -> str:
    """`'old' -> 'new'` around the first difference, so a change deep in a long text shows."""
    k = next((i for i, (a, b) in enumerate(zip(was, now, strict=False)) if a != b), min(len(was), len(now)))
    start = max(0, k - 20) if max(len(was), len(now)) > 50 else 0
    lead = "..." if start else ""
    return f"{_short(lead + was[start:])} -> {_short(lead + now[start:])}"


def _short(value: object, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 4] + "...'"
