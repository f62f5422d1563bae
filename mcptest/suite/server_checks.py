"""Server checks pydantic cannot make: `auth:` only over HTTP, and auth secrets read from the environment."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from mcptest.core.errors import Problem, where
from mcptest.core.yaml_source import SourceDoc

if TYPE_CHECKING:
    from mcptest.suite.models import Suite

CAPTURE_ROOTS = ("logs", "progress", "sampling_requests", "elicitation_requests")
"""What a call test may assert on beside its result: the notifications and server requests seen during the call."""


def stdio_auth(doc: SourceDoc) -> list[Problem]:
    """`auth:` on a stdio server is a mistake; the key is dropped so it is reported once, with the fix."""
    servers = doc.data.get("servers")
    problems = []
    for name, server in servers.items() if isinstance(servers, dict) else ():
        if isinstance(server, dict) and "command" in server and "auth" in server:
            loc = ("servers", name, "auth")
            message = "auth is for HTTP servers (`url:`); give a stdio server its secrets through `env:`"
            problems.append(doc.problem(loc, f"{where(loc)}: {message}", at_key=True))
            del server["auth"]
    return problems


def auth_secrets(suite: Suite, doc: SourceDoc, environ: Mapping[str, str], secrets: set[str]) -> list[Problem]:
    """Read each server's auth secrets from the environment (they join the run's secrets, masked everywhere)."""
    problems = []
    for name, server in suite.servers.items():
        auth = getattr(server, "auth", None)
        if auth is None:
            continue
        if auth.bearer_env is not None:
            loc: tuple[str, ...] = ("servers", name, "auth", "bearer_env")
            var = auth.bearer_env
        else:
            assert auth.oauth is not None
            loc = ("servers", name, "auth", "oauth", "client_credentials", "client_secret_env")
            var = auth.oauth.client_credentials.client_secret_env
        value = environ.get(var)
        if not value:
            problems.append(doc.problem(loc, f"{where(loc)}: environment variable {var} is not set"))
            continue
        auth._secret = value
        secrets.add(value)
    return problems
