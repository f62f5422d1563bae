"""Helpers shared by the commands: colour decisions and writing a rendered report."""

from __future__ import annotations

import os
import sys

from mcptest.fsutil import atomic_write_text


def use_color(no_color: bool, stream: object = sys.stdout) -> bool:
    """Colour only on a terminal, and never with `--no-color` or `NO_COLOR` set."""
    if no_color or os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def emit(text: str, output: str | None) -> None:
    """Write a rendered report to `output` atomically, or to stdout."""
    if output:
        atomic_write_text(output, text)
    else:
        sys.stdout.write(text)
        sys.stdout.flush()
