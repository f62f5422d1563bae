"""Which values of a suite are secrets: API keys, auth headers, and environment values named or marked secret.

Masking a value that is not a secret corrupts data (a cassette holding `"city": "***"` cannot replay), so the
rule is narrow: a value is masked only when its name says it is a credential or the suite lists it under
`secrets:`, and never when it is shorter than `MIN_SECRET_LENGTH` characters.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace

from mcptest.core.errors import Problem

MIN_SECRET_LENGTH = 8
_SECRET_NAME = re.compile(
    r"KEY|TOKEN|SECRET|PASSWORD|PASSWD|AUTH|CREDENTIAL|PRIVATE|COOKIE|SIGNATURE|BEARER", re.IGNORECASE
)
_AUTH_SCHEME = re.compile(r"^(?:Bearer|Basic|Token|Digest|Bot)\s+(\S+)$", re.IGNORECASE)


def is_secret_name(name: str) -> bool:
    """Whether an environment variable's or a header's name says its value is a credential."""
    return bool(_SECRET_NAME.search(name))


def maskable(value: str) -> bool:
    """A value long enough to mask: shorter ones would rewrite ordinary words wherever they occur."""
    return len(value) >= MIN_SECRET_LENGTH


def secret_parts(value: str) -> set[str]:
    """The maskable forms of one secret value: itself and, for `Bearer <token>`, the bare token too."""
    parts = {value}
    scheme = _AUTH_SCHEME.match(value.strip())
    if scheme:
        parts.add(scheme.group(1))
    return {p for p in parts if maskable(p)}


def escaped_forms(value: str) -> set[str]:
    """How `value` reads once or twice quoted: JSON-escaped (with `\\u` escapes or without), as Python's repr shows
    it, YAML single-quoted, and each of these quoted again (a repr of a JSON text in a failure message). A secret
    holding `"` or `\\` appears in these forms inside a string, where masking the raw value would miss it."""
    once = {quote(value) for quote in _QUOTES}
    twice = {quote(form) for form in once for quote in _QUOTES}
    return {form for form in once | twice if form != value and maskable(form)}


def _json_quoted(value: str, ascii_only: bool) -> str:
    import json

    return json.dumps(value, ensure_ascii=ascii_only)[1:-1]


_QUOTES = (
    lambda v: _json_quoted(v, True),
    lambda v: _json_quoted(v, False),
    lambda v: repr(v)[1:-1],
    lambda v: v.replace("\\", "\\\\").replace("'", "\\'"),  # repr's form when the value holds both quotes
    lambda v: v.replace("'", "''"),  # YAML single-quoted
)


def collect(values: Iterable[str]) -> set[str]:
    """The maskable forms of several secret values."""
    out: set[str] = set()
    for value in values:
        out |= secret_parts(value)
    return out


def mask_problems(problems: list[Problem], secrets: set[str]) -> list[Problem]:
    """Load errors with every secret masked: a secret used where a number belongs must not be printed."""
    from mcptest.core.redact import redact_text

    if not secrets:
        return problems
    return [replace(p, message=redact_text(p.message, secrets)) for p in problems]
