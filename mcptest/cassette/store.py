"""Where cassettes live and how they are read and written: `<suite dir>/cassettes/<test>/<model>.json`, atomically."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from mcptest.cassette.format import CASSETTE_FORMATS, Cassette
from mcptest.cassette.normalise import canonical, normalise
from mcptest.core.atomic import atomic_write_text
from mcptest.core.redact import redact_data

CASSETTE_DIR = "cassettes"
M = TypeVar("M", bound=BaseModel)


class CassetteUnreadable(Exception):
    """A cassette file exists but cannot be used."""


def slug(text: str) -> str:
    """A file-name-safe form of a test name or model id: lowercase, runs of other characters as `-`."""
    return re.sub(r"[^a-z0-9.]+", "-", text.lower()).strip("-.") or "default"


def cassette_path(suite_file: str | Path, test: str, model: str | None) -> Path:
    """The cassette of one agent test on one model."""
    return Path(suite_file).parent / CASSETTE_DIR / slug(test) / f"{slug(model or 'default')}.json"


def read(path: Path) -> Cassette:
    """Load and normalise a cassette; a broken one raises CassetteUnreadable saying why."""
    return normalise(load(path, Cassette))


def load(path: Path, kind: type[M]) -> M:
    """Read a cassette file of any kind (format version 1); a broken one raises CassetteUnreadable saying why."""
    from mcptest.core import json_source
    from mcptest.core.errors import UserError
    from mcptest.core.yaml_source import read_limited

    try:
        data = json_source.loads(read_limited(path), str(path))
    except (OSError, UnicodeDecodeError) as exc:
        raise CassetteUnreadable(f"cannot read {path}: {exc}") from None
    except UserError as exc:
        raise CassetteUnreadable(str(exc)) from None
    if isinstance(data, dict) and data.get("format_version") not in CASSETTE_FORMATS:
        found, known = data.get("format_version"), " and ".join(repr(v) for v in CASSETTE_FORMATS)
        raise CassetteUnreadable(f"{path}: unsupported cassette format {found!r} (this mcptest reads {known})")
    try:
        return kind.model_validate(data)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in err["loc"]) or "(top level)"
        raise CassetteUnreadable(f"{path}: {where}: {err['msg']}") from None


def write(path: Path, cassette: Cassette, secrets: set[str]) -> None:
    """Normalise, mask every secret, and replace the file atomically (a crash leaves the old cassette whole)."""
    save(path, normalise(cassette), secrets)


def save(path: Path, cassette: BaseModel, secrets: set[str]) -> None:
    """Any cassette kind as canonical JSON, every secret masked, replaced atomically (normalise it first)."""
    atomic_write_text(path, canonical(redact_data(cassette.model_dump(mode="json"), secrets)))
