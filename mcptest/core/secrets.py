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
    """How `value` reads once quoted: JSON-escaped (once and twice, `\\u` or raw), as Python's repr shows it in an
    error message, and YAML single-quoted. A secret holding `"` or `\\` appears in these forms inside a string
    (a tool result holding JSON, a failure message quoting a value), where masking the raw value would miss it."""
    import json

    once = json.dumps(value)[1:-1]
    forms = {
        once,
        json.dumps(value, ensure_ascii=False)[1:-1],
        json.dumps(once)[1:-1],
        repr(value)[1:-1],
        value.replace("\\", "\\\\").replace("'", "\\'"),
        value.replace("'", "''"),
    }
    return {form for form in forms if maskable(form)}


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
