"""Helpers shared by the commands: colour decisions, writing a rendered report, pausing the GC while loading."""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from mcptest.core.atomic import atomic_write_text

FAST_EXIT = False
"""Set by `mcptest.cli.entry`: the process will end without tearing the interpreter down."""
_KEPT: list[object] = []


def keep_until_exit(*objects: object) -> None:
    """Leave these alive for the end of a process that exits without teardown (`FAST_EXIT`): freeing two reports of
    50,000 results and their delta one object at a time costs ~0.1 s a user would wait for, for nothing."""
    if FAST_EXIT:
        _KEPT.extend(objects)


def warn_problems(problems: Iterable[object]) -> None:
    """Print each problem of a catalog the command went on with (a tool that breaks the schema) as a warning."""
    from mcptest.core.printable import printable

    for problem in problems:
        print(printable(f"mcptest: warning: {problem}"), file=sys.stderr)


def use_color(no_color: bool, stream: object | None = None) -> bool:
    """Colour only on a terminal (`stream`, default today's stdout: a redirected or captured one counts), and never
    with `--no-color` or `NO_COLOR` set."""
    if no_color or os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(sys.stdout if stream is None else stream, "isatty", None)
    return bool(isatty and isatty())


def emit(text: str, output: str | None, what: str = "the report") -> None:
    """Write a rendered report to `output` atomically (saying so on stderr, one line), or to stdout."""
    if output:
        atomic_write_text(output, text)
        print(f"mcptest: wrote {what} to {output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
        sys.stdout.flush()


def check_output(output: str | None) -> None:
    """Refuse an `--output` that cannot be written, before anything runs rather than after (exit 2)."""
    from pathlib import Path

    from mcptest.core.errors import usage_error

    if not output:
        return
    path = Path(output)
    if path.is_dir():
        raise usage_error(f"--output {output}: is a directory; name a file in it, e.g. {path / 'report.json'}")
    folder = path.parent
    while not folder.exists() and folder != folder.parent:  # missing folders are created when the report is written
        folder = folder.parent
    if not folder.is_dir():
        raise usage_error(f"--output {output}: {folder} is not a directory")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise usage_error(f"--output {output}: cannot create files in {folder} (permission denied)")


@contextmanager
def loading() -> Iterator[None]:
    """Pause the cyclic GC while a command imports its modules and builds its models and suite.

    What is made then lives as long as the process, so collecting it over and over is wasted work (~20 ms of
    `mcptest validate`). Afterwards it is frozen out of later collections, and collecting resumes as before.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.enable()


class Style:
    """ANSI styling by SGR code (`"1"` bold, `"31"` red, ...), or none: plain text written in one go beats rich's
    markup parsing when a command prints thousands of lines (and spares importing rich)."""

    def __init__(self, color: bool) -> None:
        self.color = color

    def __call__(self, text: str, code: str) -> str:
        """`text` in the style `code` (unchanged without colour)."""
        return f"\x1b[{code}m{text}\x1b[0m" if self.color else text
