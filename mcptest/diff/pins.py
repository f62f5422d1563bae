"""`mcptest.lock`: one hash per description and per schema of every tool, resource and prompt of a suite's servers.

A pinned server whose catalog changed (a description rewritten, a schema edited, an entry added or removed) fails
`mcptest run` before any test runs. The lock also keeps the pinned catalog, so the failure shows the diff.
"""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from mcptest.core import json_source
from mcptest.core.errors import Problem, UserError
from mcptest.core.yaml_source import read_limited
from mcptest.records.entries import Surface, from_json

if TYPE_CHECKING:
    from mcptest.diff.model import DiffReport
    from mcptest.server.session import ServerConfig
    from mcptest.suite.models import Suite

LOCK_NAME = "mcptest.lock"
LOCK_FORMAT_VERSION: Literal["1"] = "1"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class Pin(_Model):
    """The hashes of one entry."""

    kind: str = Field(description="tool, resource, resource_template or prompt.")
    description: str = Field(description="`sha256:` of the description text (empty text when there is none).")
    schema_: str = Field(
        alias="schema",
        description="`sha256:` of everything else: schemas, annotations, title, MIME type (sorted keys).",
    )


class PinnedServer(_Model):
    """One server as it was pinned."""

    pins: dict[str, Pin] = Field(description="`kind:key` (e.g. `tool:get_weather`) to that entry's hashes.")
    catalog: dict[str, Any] = Field(description="The pinned catalog itself, so a change can be shown as a diff.")


class Lock(_Model):
    """The lock file: the pinned servers of one suite."""

    format_version: Literal["1"] = Field(LOCK_FORMAT_VERSION, description="The lock file format version.")
    servers: dict[str, PinnedServer] = Field(default_factory=dict, description="Pinned servers by suite name.")


def lock_path(suite_file: str | Path) -> Path:
    """Where a suite's lock lives: `mcptest.lock` beside the suite file."""
    return Path(suite_file).parent / LOCK_NAME


def pin(surface: Surface) -> PinnedServer:
    """Hash every entry of a server's catalog."""
    from mcptest.diff.schemas import canonical

    pins = {}
    for e in surface.entries:
        rest = {k: v for k, v in e.raw.items() if k != "description"}
        pins[f"{e.kind}:{e.key}"] = Pin.model_validate(
            {"kind": e.kind, "description": _sha(e.description), "schema": _sha(canonical(rest))}
        )
    return PinnedServer(pins=pins, catalog=copy.deepcopy(surface.wire()))


def changes(pinned: PinnedServer, live: Surface, server: str) -> DiffReport | None:
    """The diff from the pinned catalog to the live one when any hash differs (None when it matches)."""
    from mcptest.diff.classify import diff

    if pin(live).pins == pinned.pins:
        return None
    before = from_json(pinned.catalog, f"{LOCK_NAME} ({server})")
    return diff(before, Surface(f"server '{server}'", live.unnamed().entries))


def read_lock(path: Path) -> Lock | None:
    """The lock at `path`, or None when there is none; a damaged lock is a UserError."""
    if not path.is_file():
        return None
    try:
        return Lock.model_validate(json_source.loads(read_limited(path), str(path)))
    except (ValidationError, ValueError, OSError) as exc:
        first = str(exc).splitlines()[0]
        raise UserError(
            [Problem(str(path), 0, 0, f"not a valid lock file ({first}); re-create it with `mcptest pin --update`")]
        ) from None


def write_lock(lock: Lock, path: Path) -> None:
    """Write the lock atomically, keys sorted so it diffs well in review."""
    from mcptest.core.atomic import atomic_write_text

    data = lock.model_dump(mode="json", by_alias=True)
    atomic_write_text(path, json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n")


def _sha(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def pinned_changes(suite: Suite, lock: Lock) -> list[tuple[str, DiffReport, Surface]]:
    """List every pinned server of the suite live and return those whose catalog moved: the diff, the live catalog.

    A pinned server the suite no longer has is skipped; one that cannot be listed raises `surfaces.Unreachable`.
    """
    from mcptest.server.sources import Sources
    from mcptest.server.surfaces import live_surfaces

    servers: list[tuple[str, ServerConfig]] = [(n, suite.servers[n]) for n in lock.servers if n in suite.servers]
    live = live_surfaces(Sources(servers=servers, suite=suite, base_dir=Path(suite.file).parent))
    return [(n, d, live_) for n, live_ in live if (d := changes(lock.servers[n], live_, n)) is not None]


def changed_entries(report: DiffReport, live: Surface) -> Surface:
    """The entries of the live catalog that the diff says were added, renamed or changed (not removed)."""
    keys = {c.new_name or c.name for c in report.changes if c.code != "removed"}
    return Surface(live.source, tuple(e for e in live.entries if e.key in keys))
