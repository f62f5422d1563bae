"""The root a served mcptest works in: every path a tool call names must resolve inside it."""

from __future__ import annotations

from pathlib import Path


class OutsideRoot(ValueError):
    """A path in a tool call that is empty, absent, or resolves outside the root (symlinks followed)."""


def inside(root: Path, given: str, what: str = "suite") -> str:
    """`given` as a path relative to `root` (the working directory), once it is known to be a file under `root`."""
    if not given or not given.strip():
        raise OutsideRoot(f"the {what} path is empty; give a file under {root}")
    candidate = Path(given)
    full = (candidate if candidate.is_absolute() else root / candidate).resolve()
    try:
        relative = full.relative_to(root)
    except ValueError:
        raise OutsideRoot(f"{given}: outside the root {root}; mcptest serve reads only files under it") from None
    if not full.is_file():
        raise OutsideRoot(f"{given}: no such file under the root {root}")
    return relative.as_posix()
