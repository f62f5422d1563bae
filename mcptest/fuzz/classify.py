"""What one answer to a fuzzed call shows: each finding class, its severity, and the line that says why.

Error class (exit 1): the server exited (`crash`), no answer in time (`hang`, confirmed by a retry before it is
reported), a JSON-RPC internal error (`internal_error`) or a result that breaks its shape (`malformed_response`), a
stack trace in the answer (`stack_trace`: Python, Node, Java, Go, Rust forms), a value of the server's environment
echoed (`env_leak`), structuredContent off the outputSchema (`output_schema`). Warning: an invalid input accepted as a
success (`invalid_accepted`: the spec says servers MUST validate tool inputs), a valid input rejected
(`valid_rejected`: the schema and the behaviour disagree). Info: an invalid input accepted that is valid once its
JSON types are read laxly (`coercion`: `"5"` read as 5).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from mcptest.fuzz.inputs import Schema, coerced

SEVERITY = {
    "crash": "error",
    "hang": "error",
    "internal_error": "error",
    "malformed_response": "error",
    "stack_trace": "error",
    "env_leak": "error",
    "output_schema": "error",
    "invalid_accepted": "warning",
    "valid_rejected": "warning",
    "coercion": "info",
}
"""Every finding class and its severity, in the order summaries list them."""

RANK = {"error": 2, "warning": 1, "info": 0}

STACK_TRACES = (
    ("Python", r"Traceback \(most recent call last\)|File \"[^\"\n]+\", line \d+, in \S+"),
    ("Node", r"(?m)^\s*at (?:[^\n(]+ \()?(?:file://)?[^\s()]+\.(?:js|mjs|cjs|ts):\d+:\d+\)?$|node:internal/"),
    ("Java", r"(?m)^\s*at [\w$.<>]+\([\w$]+\.(?:java|kt|scala):\d+\)|Exception in thread \""),
    ("Go", r"goroutine \d+ \[[a-z ]+\]:|panic: [^\n]*\n[\s\S]*\.go:\d+"),
    ("Rust", r"thread '[^']*' panicked at|stack backtrace:\n\s+0: "),
)
"""Each language's stack trace, as RE2 patterns over the answer's text."""

INTERNAL_ERROR = -32603


@dataclass(frozen=True)
class Answer:
    """What one call produced: `result` (a CallToolResult in wire form) or how it failed."""

    kind: str
    """`result`, `timeout`, `closed` (the server exited), `error` (a JSON-RPC error, `code`), `malformed`, or
    `unavailable`."""
    result: dict[str, Any] | None = None
    message: str = ""
    code: int | None = None
    stderr: str = ""
    ms: float = 0.0

    @property
    def rejected(self) -> bool:
        """The server said no: an `isError` result or a JSON-RPC error other than an internal one."""
        if self.kind == "result":
            return bool((self.result or {}).get("isError"))
        return self.kind == "error" and self.code != INTERNAL_ERROR

    @property
    def accepted(self) -> bool:
        """A result that is not an error."""
        return self.kind == "result" and not (self.result or {}).get("isError")

    def text(self) -> str:
        """Every text the answer carries: the error message, text content, structuredContent as JSON."""
        parts = [self.message]
        result = self.result or {}
        for item in result.get("content") or []:
            if isinstance(item, dict):
                for key in ("text", "resource"):
                    value = item.get(key)
                    parts.append(value if isinstance(value, str) else json.dumps(value) if value else "")
        if "structuredContent" in result:
            parts.append(json.dumps(result["structuredContent"], ensure_ascii=False))
        return "\n".join(p for p in parts if p)


@dataclass(frozen=True)
class Finding:
    """One class of misbehaviour seen on one input."""

    kind: str
    detail: str

    @property
    def severity(self) -> str:
        """`error`, `warning` or `info`."""
        return SEVERITY[self.kind]


def classify(
    args: dict[str, Any],
    schema: Schema,
    answer: Answer,
    output_schema: dict[str, Any] | None = None,
    env: Mapping[str, str] | None = None,
) -> list[Finding]:
    """Every finding this answer to `args` shows (whether `args` is valid is asked of `schema`; `env` is the
    server's environment variables an answer must not hold)."""
    out: list[Finding] = []
    if answer.kind == "closed":
        out.append(Finding("crash", _first_line(answer.stderr) or answer.message))
    elif answer.kind == "timeout":
        out.append(Finding("hang", answer.message))
    elif answer.kind == "error" and answer.code == INTERNAL_ERROR:
        out.append(Finding("internal_error", answer.message))
    elif answer.kind in ("malformed", "unavailable"):
        out.append(Finding("malformed_response", answer.message))
    text = answer.text()
    if language := stack_trace(text):
        out.append(Finding("stack_trace", f"a {language} stack trace in the answer"))
    sent = json.dumps(args, ensure_ascii=False)
    for name, value in (env or {}).items():
        if len(value) >= 8 and value in text and value not in sent:
            out.append(Finding("env_leak", f"the answer holds the value of the server's environment variable {name}"))
            break
    valid = schema.valid(args)
    if valid and answer.rejected:
        out.append(Finding("valid_rejected", _first_line(_said(answer))))
    elif not valid and answer.accepted:
        if schema.valid(coerced(args, schema)):
            out.append(Finding("coercion", "accepted once its JSON types are read laxly"))
        else:
            out.append(Finding("invalid_accepted", "the schema rejects this input; the server returned a success"))
    problem = output_problem(answer.result or {}, output_schema) if answer.accepted and output_schema else None
    if problem:
        out.append(Finding("output_schema", problem))
    return out


def stack_trace(text: str) -> str | None:
    """The language whose stack trace `text` holds, if any."""
    from mcptest.core.regexes import compile_regex

    for language, pattern in STACK_TRACES:
        if compile_regex(pattern).search(text):
            return language
    return None


def output_problem(result: dict[str, Any], output_schema: dict[str, Any]) -> str | None:
    """Why a success result breaks its tool's outputSchema: structuredContent missing or not matching."""
    if "structuredContent" not in result:
        return "no structuredContent although the tool declares an outputSchema"
    try:
        check = _validator(json.dumps(output_schema, sort_keys=True))
        error = next(iter(check.iter_errors(result["structuredContent"])), None)
    except Exception:  # noqa: BLE001 (a schema jsonschema cannot read: not this finding)
        return None
    if error is None:
        return None
    where = "/".join(str(p) for p in error.absolute_path) or "(root)"
    return f"structuredContent at {where}: {_first_line(error.message)}"


@lru_cache(maxsize=64)
def _validator(schema: str) -> Any:
    """One validator per outputSchema for the whole run, not one per call."""
    from mcptest.core.json_schema import validator

    return validator(json.loads(schema))


def _said(answer: Answer) -> str:
    if answer.kind != "result":
        return answer.message
    texts = [i.get("text") for i in (answer.result or {}).get("content") or [] if isinstance(i, dict)]
    return next((t for t in texts if isinstance(t, str) and t), "an isError result")


def _first_line(text: str, most: int = 200) -> str:
    line = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    return line if len(line) <= most else line[: most - 1] + "…"
