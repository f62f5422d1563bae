"""Which history store a run or a `history` command uses: a flag, the environment, the suite's setting, or the
default SQLite file beside the suite."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

ENV = "MCPTEST_HISTORY"
OFF = frozenset({"off", "false", "no", "0", "none"})
"""Values of `MCPTEST_HISTORY` that turn history off, as `--no-history` does."""
FOLDER = ".mcptest"
FILE = "history.db"


def default_url(suite_file: str | Path) -> str:
    """`sqlite:///<suite folder>/.mcptest/history.db`: beside the suite file, whatever the working directory."""
    folder = Path(suite_file).resolve().parent / FOLDER
    return f"sqlite:///{(folder / FILE).as_posix()}"


def history_url(
    suite_file: str | Path,
    flag: str | None = None,
    *,
    disabled: bool = False,
    suite_setting: bool = True,
    environ: Mapping[str, str],
) -> str | None:
    """The store's URL, or None when history is off. `--no-history` wins, then `--history URL`, then
    `MCPTEST_HISTORY` (a URL, or `off`), then the suite's `history: false`, then the default file."""
    if disabled:
        return None
    if flag:
        return flag
    env = environ.get(ENV, "").strip()
    if env.lower() in OFF:
        return None
    if env:
        return env
    return default_url(suite_file) if suite_setting else None


def shown(url: str) -> str:
    """A URL fit to print: the password of a PostgreSQL URL masked."""
    scheme, sep, rest = url.partition("://")
    if not sep or "@" not in rest:
        return url
    creds, _, host = rest.rpartition("@")
    user, colon, _ = creds.partition(":")
    return f"{scheme}://{user}{':***' if colon else ''}@{host}"


def missing_file(url: str) -> Path | None:
    """The file of a SQLite URL when it does not exist yet (nothing recorded there), else None."""
    scheme, sep, rest = url.partition(":///")
    if not sep or not scheme.startswith("sqlite") or rest in ("", ":memory:"):
        return None
    path = Path(rest)
    return None if path.exists() else path
