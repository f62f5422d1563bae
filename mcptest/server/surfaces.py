"""Where `diff`, `pin`, `security`, `tools`, `catalog` and `init` get live catalogs: the servers the command line
names, listed through doctor's probe (or captured whole, for `catalog`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from mcptest.records.entries import Surface, from_catalog

if TYPE_CHECKING:
    from mcptest.records.catalog import Catalog
    from mcptest.server.session import ServerConfig
    from mcptest.server.sources import Sources

T = TypeVar("T")


@dataclass
class Unreachable(Exception):
    """A server could not be started or listed: a failed check (exit 1), not a user mistake."""

    server: str
    message: str
    stderr: str = ""

    def __str__(self) -> str:
        return f"server '{self.server}': {self.message}"


async def live_catalog(name: str, config: ServerConfig, base_dir: Path | str = ".") -> Catalog:
    """Start a server and list its catalog; a server that fails raises Unreachable (its first failed check, stderr)."""
    from mcptest.server.doctor import probe_server

    probe = await probe_server(name, config, base_dir)
    if probe.catalog is None:
        failed = next(c for c in probe.checks if c.status == "fail")
        raise Unreachable(name, f"{failed.name}: {failed.detail}", probe.stderr)
    return probe.catalog


async def live_surface(name: str, config: ServerConfig, base_dir: Path | str = ".") -> Surface:
    """Start a server and list what it offers; a server that fails raises Unreachable with its stderr."""
    return from_catalog(await live_catalog(name, config, base_dir), f"server '{name}'", name)


def live_surfaces(sources: Sources) -> list[tuple[str, Surface]]:
    """Every server of `sources`, one after the other, as (server name, surface)."""
    import anyio

    async def gather() -> list[tuple[str, Surface]]:
        return [(name, await live_surface(name, config, sources.base_dir)) for name, config in sources.servers]

    return anyio.run(gather)


def chosen_surfaces(
    suite: str | None,
    server: str | None,
    command: str | None,
    url: str | None,
    header: list[str] | None,
    timeout: float,
    *,
    debug: bool = False,
    one: bool = False,
) -> tuple[Sources, list[tuple[str, Surface]]]:
    """The servers the command line names (`one`: exactly one, else a usage error), each listed live, with the
    Sources they came from; the SDK's logs are quiet unless `debug`."""
    from mcptest.server.session import quiet_sdk_logs
    from mcptest.server.sources import resolve_sources

    sources = resolve_sources(suite, server, None, command, url, header, timeout)
    if one:
        sources.one()
    quiet_sdk_logs(debug)
    return sources, live_surfaces(sources)


def chosen_server(
    suite: str | None,
    server: str | None,
    command: str | None,
    url: str | None,
    header: list[str] | None,
    timeout: float,
    *,
    usage: str,
    debug: bool = False,
) -> tuple[str, ServerConfig, Path]:
    """The one server the command line names, as (name, config, base folder); more than one is a usage error (told
    with `usage`). The SDK's logs are quiet unless `debug`."""
    from mcptest.server.session import quiet_sdk_logs
    from mcptest.server.sources import resolve_sources

    sources = resolve_sources(suite, server, None, command, url, header, timeout, usage)
    name, config = sources.one()
    quiet_sdk_logs(debug)
    return name, config, sources.base_dir


def from_chosen_server(
    fetch: Callable[[str, ServerConfig, Path], Awaitable[T]],
    suite: str | None,
    server: str | None,
    command: str | None,
    url: str | None,
    header: list[str] | None,
    timeout: float,
    *,
    usage: str,
    debug: bool = False,
) -> T:
    """`fetch` (e.g. `live_catalog`, or `server.capture.snapshot_server`) run on the one server the command line
    names; a server that fails raises what `fetch` raises."""
    import anyio

    chosen = chosen_server(suite, server, command, url, header, timeout, usage=usage, debug=debug)
    return anyio.run(fetch, *chosen)
