"""User mistakes (reported as `file:line:col: message`, exit 2) as opposed to bugs."""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with a user's input, located in a file."""

    file: str
    line: int
    col: int
    message: str

    def __str__(self) -> str:
        if self.line <= 0:
            return f"{self.file}: {self.message}"
        return f"{self.file}:{self.line}:{self.col}: {self.message}"


class UserError(Exception):
    """Bad input from the user: a suite, a flag, a file. Never a bug in mcptest."""

    def __init__(self, problems: list[Problem] | str) -> None:
        if isinstance(problems, str):
            problems = [Problem("mcptest", 0, 0, problems)]
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


def usage_error(message: str) -> UserError:
    """A problem with the command line itself (no file to point at)."""
    return UserError([Problem("mcptest", 0, 0, message)])


def did_you_mean(word: str, candidates: Sequence[str] | set[str]) -> str:
    """` (did you mean 'x'?)` when a candidate is close to `word`, else an empty string."""
    close = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def where(path: Sequence[str | int]) -> str:
    """A suite location as a user reads it: `tools[2].expect[0].matcher`."""
    out = ""
    for el in path:
        out += f"[{el}]" if isinstance(el, int) else (f".{el}" if out else str(el))
    return out or "(top level)"
