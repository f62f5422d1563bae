"""Snapshots: the `snapshot` matcher compares a target with a stored, normalised JSON copy in `__snapshots__/`."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from mcptest.core import json_source
from mcptest.core.errors import UserError
from mcptest.core.yaml_source import read_limited

DIRECTORY = "__snapshots__"
VOLATILE: tuple[tuple[str, str], ...] = (
    (r"\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?", "<timestamp>"),
    (r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b", "<uuid>"),
    (r"\b\d+(\.\d+)?\s?(ms|milliseconds?|s|seconds?|µs|us)\b", "<duration>"),
)
"""Patterns replaced in every string before comparing or storing: ISO 8601 timestamps, UUIDs, durations."""


class SnapshotSpec(BaseModel):
    """`{ snapshot: NAME }` or `{ snapshot: { name: NAME, normalize: [{ pattern, replace }], volatile: true } }`."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(description="The file `__snapshots__/NAME.json` beside the suite.")
    normalize: list[Replacement] = Field(default_factory=list, description="More replacements, applied in order.")
    volatile: bool = Field(True, description="Replace timestamps, UUIDs and durations (the default patterns).")

    @field_validator("name")
    @classmethod
    def _file_name(cls, value: str) -> str:
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{0,120}", value) or ".." in value:
            raise ValueError(f"snapshot name {value!r}: use letters, digits, '.', '_' and '-' (it names a file)")
        return value


class Replacement(BaseModel):
    """A regular expression and what replaces its matches in every string of the value."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    pattern: str
    replace: str = "<normalized>"

    @field_validator("pattern")
    @classmethod
    def _compiles(cls, value: str) -> str:
        try:
            re.compile(value)
        except re.error as exc:
            raise ValueError(f"invalid regex {value!r}: {exc}") from None
        return value


SnapshotSpec.model_rebuild()


def spec_of(value: Any) -> SnapshotSpec:
    """The matcher's value as a spec: a bare name, or the mapping form."""
    return SnapshotSpec(name=value) if isinstance(value, str) else SnapshotSpec.model_validate(value)


@dataclass
class SnapshotStore:
    """Where a run's snapshots live and whether it may write them."""

    directory: Path
    update: bool = False
    """`--update-snapshots`: rewrite every snapshot checked."""
    ci: bool = False
    """In CI a missing snapshot fails instead of being written."""
    written: list[str] = field(default_factory=list)

    def check(self, actual: Any, spec: SnapshotSpec) -> str | None:
        """None when the normalised value equals the stored one (or was just written); otherwise why not."""
        value = normalize(actual, spec)
        path = self.directory / DIRECTORY / f"{spec.name}.json"
        if self.update or (not path.exists() and not self.ci):
            self._write(path, value)
            return None
        if not path.exists():
            return f"no snapshot {path}: run `mcptest run --update-snapshots` locally and commit it"
        try:
            stored = json_source.loads(read_limited(path), str(path))
        except (OSError, UnicodeDecodeError) as exc:
            return f"cannot read the snapshot {path}: {exc}"
        except UserError as exc:
            return f"the snapshot is damaged: {exc}; `--update-snapshots` rewrites it"
        if stored == value:
            return None
        return f"differs from {path}: {_first_difference(stored, value)}; `--update-snapshots` accepts the new value"

    def _write(self, path: Path, value: Any) -> None:
        from mcptest.core.atomic import atomic_write_text

        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, json.dumps(value, indent=2, ensure_ascii=False, sort_keys=True) + "\n")
        self.written.append(str(path))


def normalize(value: Any, spec: SnapshotSpec) -> Any:
    """The value with every string's volatile parts replaced (and the spec's own replacements)."""
    rules = [*(VOLATILE if spec.volatile else ()), *((r.pattern, r.replace) for r in spec.normalize)]
    compiled = [(re.compile(p), r) for p, r in rules]

    def walk(v: Any) -> Any:
        if isinstance(v, str):
            for pattern, replacement in compiled:
                v = pattern.sub(replacement, v)
            return v
        if isinstance(v, dict):
            return {str(k): walk(x) for k, x in v.items()}
        if isinstance(v, list | tuple):
            return [walk(x) for x in v]
        return v

    return walk(value)


def _first_difference(stored: Any, actual: Any, where: str = "") -> str:
    if isinstance(stored, dict) and isinstance(actual, dict):
        for key in [*stored, *(k for k in actual if k not in stored)]:
            if stored.get(key, _MISSING) != actual.get(key, _MISSING):
                return _first_difference(stored.get(key, _MISSING), actual.get(key, _MISSING), f"{where}.{key}")
    if isinstance(stored, list) and isinstance(actual, list) and len(stored) == len(actual):
        for i, (a, b) in enumerate(zip(stored, actual, strict=True)):
            if a != b:
                return _first_difference(a, b, f"{where}[{i}]")
    return f"at {where.lstrip('.') or 'the top'}: stored {_show(stored)}, got {_show(actual)}"


_MISSING = object()


def _show(value: Any) -> str:
    return "nothing" if value is _MISSING else json.dumps(value, ensure_ascii=False)[:120]


def in_ci(environ: dict[str, str] | None = None) -> bool:
    """`CI` set to anything but empty, `0` or `false` (what GitHub Actions, GitLab and most CI services set)."""
    value = (os.environ if environ is None else environ).get("CI", "")
    return value.strip().lower() not in ("", "0", "false", "no")


_STORE: ContextVar[SnapshotStore | None] = ContextVar("mcptest_snapshots", default=None)


@contextmanager
def snapshot_store(store: SnapshotStore) -> Iterator[SnapshotStore]:
    """Make `store` the one `snapshot` matchers use while the block runs."""
    token = _STORE.set(store)
    try:
        yield store
    finally:
        _STORE.reset(token)


def check_snapshot(actual: Any, expected: Any) -> str | None:
    """The `snapshot` matcher: compare with the current run's store (a run outside one writes nothing)."""
    store = _STORE.get()
    if store is None:
        return "snapshot matchers run inside `mcptest run` (no snapshot folder is set)"
    return store.check(actual, spec_of(expected))
