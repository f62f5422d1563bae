"""The CI rule for `--update-snapshots`: rewriting every snapshot is refused where `CI` is set, unless allowed."""

from __future__ import annotations

from pathlib import Path

from mcptest.expect.snapshots import SnapshotStore, in_ci


class UpdateRefusedInCI(Exception):
    """`--update-snapshots` where `CI` is set, without `--allow-update-in-ci`: nothing ran (exit 5)."""

    def __init__(self) -> None:
        super().__init__("--update-snapshots refused where CI is set (pass --allow-update-in-ci)")


def run_snapshots(
    suite_file: str | Path, *, update: bool, allow_update_in_ci: bool, environ: dict[str, str] | None = None
) -> SnapshotStore:
    """The snapshot store of a run of the suite at `suite_file`; raises `UpdateRefusedInCI` when the rule says no."""
    ci = in_ci(environ)
    if update and ci and not allow_update_in_ci:
        raise UpdateRefusedInCI
    return SnapshotStore(Path(suite_file).parent, update=update, ci=ci)
