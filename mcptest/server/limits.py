"""How much of a server's output mcptest reads: each bound has a default and an environment variable that raises it.

A server under test may be broken in any way, so nothing it sends is read without a bound: one JSON-RPC message
(a stdio line, an HTTP body, inflated), the content items of one result, its stderr kept for the report, and the
pages of a paginated list. What a bound cuts says so, naming the variable that raises it (docs/servers.md).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from mcptest.core.errors import UserError


@dataclass(frozen=True)
class Limits:
    """The bounds in force (read from the environment by `limits()`)."""

    message_bytes: int = 64_000_000
    """One JSON-RPC message: a stdio line (counted in characters once decoded) or an HTTP body once inflated."""
    content_items: int = 10_000
    """The `content` items of a tool result (and `contents` of a resource, `messages` of a prompt) kept."""
    stderr_bytes: int = 64_000
    """The tail of a server's stderr kept for a failed test's report."""
    pages: int = 1_000
    """The pages of one paginated list (`tools/list`, ...) followed before giving up."""


VARIABLES = {
    "message_bytes": "MCPTEST_MAX_MESSAGE_BYTES",
    "content_items": "MCPTEST_MAX_CONTENT_ITEMS",
    "stderr_bytes": "MCPTEST_MAX_STDERR_BYTES",
    "pages": "MCPTEST_MAX_PAGES",
}
"""Each bound's environment variable."""


def limits(environ: dict[str, str] | None = None) -> Limits:
    """The bounds, each raised or lowered by its variable; a value that is not a positive whole number: UserError."""
    env = os.environ if environ is None else environ
    values: dict[str, int] = {}
    for field, variable in VARIABLES.items():
        text = env.get(variable, "").replace("_", "").strip()
        if not text:
            continue
        if not text.isdigit() or int(text) < 1:
            raise UserError(f"{variable}={env[variable]!r}: not a positive whole number (e.g. {variable}=1000000)")
        values[field] = int(text)
    return Limits(**values)


def raise_hint(field: str) -> str:
    """`raise MCPTEST_...` for the message of a cut."""
    return f"raise {VARIABLES[field]} to read more"
