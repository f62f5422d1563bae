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
        was, now = getattr(recorded, name), getattr(current, name)
        if was == now:
            continue
        if name == "catalog":
            out.append(f"{label} (a distractor or tool definition differs)")
        else:
            out.append(f"{label} ({_short(was)} -> {_short(now)})")
    return out


def _short(value: object, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 4] + "...'"
