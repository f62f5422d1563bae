"""Which recorded settings differ from the suite's, in words a user can act on."""

from __future__ import annotations

from mcptest.cassette.format import Fingerprint

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
    return out


def _turn_changes(was: list[str], now: list[str]) -> list[str]:
    """A changed message is named by its target index: `turns[1]` is the first of `turns:` (0 is the prompt)."""
    pairs = enumerate(zip(was, now, strict=False), 1)
    out = [f"turns[{i}] ({_short(a)} -> {_short(b)})" for i, (a, b) in pairs if a != b]
    if len(was) != len(now):
        out.append(f"the number of turns ({len(was) + 1} -> {len(now) + 1} user messages)")
    return out


def _short(value: object, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 4] + "...'"
