"""A fake model for tool-bench, served by the providers' fake HTTP servers: it picks by word overlap.

It reads the request as the real SDKs send it (OpenAI `function` tools or Anthropic tools), so what it picks
depends on the descriptions it was shown, as a model's picks do.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from tests.providers.fake_llm import FakeLLM, Turn, anthropic_body, call, openai_body

_WORD = re.compile(r"[a-z]{4,}")


@dataclass
class PickingLLM(FakeLLM):
    """Calls the offered tool whose description shares most words with the request (first on a tie); with no
    overlap it answers in text. `in_text`: names the tool in text instead of calling it; `leak`: also writes the
    request's API key into its text, as a careless proxy might echo it."""

    in_text: bool = False
    leak: bool = False

    def respond(self, path: str, headers: dict[str, str], body: dict[str, Any]) -> tuple[int, dict[str, str], Any]:
        status, extra, payload = super().respond(path, headers, body)
        if status != 200:
            return status, extra, payload
        turn = self.choose(body, headers)
        if path.endswith("/chat/completions"):
            return 200, {}, openai_body(turn, body.get("model"))
        return 200, {}, anthropic_body(turn, body.get("model"))

    def choose(self, body: dict[str, Any], headers: dict[str, str]) -> Turn:
        prompt = next(m["content"] for m in body["messages"] if m["role"] == "user")
        wanted = set(_WORD.findall(prompt.lower()))
        tools = [t.get("function", t) for t in body.get("tools", [])]
        overlap = [len(wanted & set(_WORD.findall(t.get("description", "").lower()))) for t in tools]
        secret = f" (key: {headers.get('authorization') or headers.get('x-api-key')})" if self.leak else ""
        if not overlap or max(overlap) == 0:
            return Turn(text=f"No tool fits.{secret}")
        name = tools[overlap.index(max(overlap))]["name"]
        if self.in_text:
            return Turn(text=f"I would use `{name}`.{secret}")
        return Turn(text=f"Calling it.{secret}" if secret else None, calls=[call(name)])


def picking_llm(**options: Any) -> PickingLLM:
    """A PickingLLM (its base needs a turn list it never uses)."""
    return PickingLLM(turns=[Turn()], **options)
