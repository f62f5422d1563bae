"""Where doctor and `mcptest tools` get a catalog: a saved file, a command, a URL, or a suite's servers."""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from mcptest.core.errors import usage_error

if TYPE_CHECKING:
    from mcptest.server.session import ServerConfig
    from mcptest.suite.models import Suite


@dataclass
class Sources:
    """What to inspect: a saved catalog, or servers (from the command line or from a suite)."""

    catalog_path: str | None = None
    servers: list[tuple[str, ServerConfig]] = field(default_factory=list)
    suite: Suite | None = None
    base_dir: Path = Path(".")

    def one(self) -> tuple[str, ServerConfig]:
        """The one server a command that reads a single server (tools, catalog, diff) needs; else a usage error."""
        if len(self.servers) != 1:
            raise usage_error(f"the suite has {len(self.servers)} servers; pick one with --server")
        return self.servers[0]


def resolve_sources(
    suite: str | None = None,
    server: str | None = None,
    catalog: str | None = None,
    command: str | None = None,
    url: str | None = None,
    headers: list[str] | None = None,
    timeout: float = 30.0,
    usage: str = "mcptest doctor FILE (or --catalog, --command, --url)",
) -> Sources:
    """Turn the command-line choice into Sources; conflicting or incomplete flags are UserErrors (exit 2).

    A flag given an empty value is an error, never the same as leaving it out (which falls back to ./mcptest.yml).
    """
    given = [
        flag
        for flag, value in (("SUITE", suite), ("--catalog", catalog), ("--command", command), ("--url", url))
        if value is not None
    ]
    if len(given) > 1:
        raise usage_error(f"choose one of SUITE, --catalog, --command, --url (got {' and '.join(given)})")
    if headers and not url:
        raise usage_error("--header only applies with --url")
    if server and (catalog or command or url):
        raise usage_error("--server picks a server from a suite; it cannot be combined with --catalog/--command/--url")
    if timeout <= 0:
        raise usage_error("--timeout must be a positive number of seconds")
    for flag, value in (("SUITE", suite), ("--catalog", catalog), ("--url", url)):
        if value is not None and not value.strip():
            raise usage_error(f"{flag} is empty (pass one: {usage})")
    if catalog is not None:
        return Sources(catalog_path=catalog)
    if command is not None:
        return Sources(servers=[("command", _stdio(command, timeout))])
    if url is not None:
        return Sources(servers=[("url", _http(url, headers or [], timeout))])
    return _from_suite(suite, server, usage)


def _stdio(command: str, timeout: float) -> ServerConfig:
    from mcptest.suite.models import StdioServer

    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise usage_error(f"--command: cannot split {command!r}: {exc}") from None
    if not argv:
        raise usage_error('--command is empty: name the server to start, e.g. --command "uvx mcp-server-time"')
    return StdioServer.model_validate({"command": argv, "connect_timeout_s": timeout, "call_timeout_s": timeout})


def _http(url: str, headers: list[str], timeout: float) -> ServerConfig:
    from pydantic import ValidationError

    from mcptest.suite.models import HttpServer

    parsed: dict[str, str] = {}
    for header in headers:
        key, sep, value = header.partition(":")
        if not sep or not key.strip():
            raise usage_error(f"--header {header!r}: write it as NAME:VALUE, e.g. 'Authorization: Bearer x'")
        parsed[key.strip()] = value.strip()
    try:
        config = {"url": url, "headers": parsed, "connect_timeout_s": timeout, "call_timeout_s": timeout}
        return HttpServer.model_validate(config)
    except ValidationError:
        raise usage_error(f"--url {url!r}: expected an http:// or https:// URL") from None


def _from_suite(path: str | None, server: str | None, usage: str) -> Sources:
    from mcptest.core.errors import did_you_mean
    from mcptest.suite.loader import find_suite, load_suite

    suite = load_suite(find_suite(path, usage))
    names = list(suite.servers)
    if server is not None and server not in suite.servers:
        known = did_you_mean(server, names) or f"; servers are {', '.join(names) or '(none)'}"
        raise usage_error(f"--server: {suite.file} has no server '{server}'{known}")
    chosen = [server] if server else names
    return Sources(servers=[(n, suite.servers[n]) for n in chosen], suite=suite, base_dir=Path(suite.file).parent)
