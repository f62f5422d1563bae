"""Load a YAML file into plain Python data plus the line:col of every node (1-based)."""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcptest.errors import Problem, UserError

Loc = tuple[str | int, ...]


@dataclass
class SourceDoc:
    """A parsed YAML document: `data` is plain dicts/lists/scalars; positions are looked up by path."""

    path: str
    data: Any
    values: dict[Loc, tuple[int, int]] = field(default_factory=dict)
    keys: dict[Loc, tuple[int, int]] = field(default_factory=dict)

    def value_pos(self, loc: Loc) -> tuple[int, int]:
        """Where the value at `loc` starts; the nearest known ancestor when `loc` is not in the file."""
        for end in range(len(loc), -1, -1):
            if loc[:end] in self.values:
                return self.values[loc[:end]]
        return (1, 1)

    def key_pos(self, loc: Loc) -> tuple[int, int]:
        """Where the mapping key that names `loc` starts (the value position for list items)."""
        return self.keys.get(loc) or self.value_pos(loc)

    def problem(self, loc: Loc, message: str, *, at_key: bool = False) -> Problem:
        """A problem located at `loc` in this document."""
        line, col = self.key_pos(loc) if at_key else self.value_pos(loc)
        return Problem(self.path, line, col, message)


def read_text(path: str | Path) -> str:
    """Read a user's file, turning every OS-level failure into a one-line UserError."""
    p = Path(path)
    try:
        if p.is_dir():
            raise UserError([Problem(str(path), 0, 0, "is a directory, not a file (name the YAML file inside it)")])
        return p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError([Problem(str(path), 0, 0, "no such file")]) from None
    except UnicodeDecodeError as exc:
        raise UserError([Problem(str(path), 0, 0, f"not UTF-8 text ({exc.reason})")]) from None
    except OSError as exc:
        raise UserError([Problem(str(path), 0, 0, f"cannot read: {exc.strerror or exc}")]) from None


def parse(text: str, path: str) -> SourceDoc:
    """Parse YAML text; a syntax error is a UserError at its line and column."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    yaml = YAML(typ="rt")
    try:
        root = yaml.load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        what = " ".join(part for part in (exc.context, exc.problem) if part) or "invalid YAML"
        began = exc.context_mark
        if mark and began and began.line != mark.line:
            what += f" (it began at line {began.line + 1}, column {began.column + 1})"
        raise UserError([Problem(path, line, col, f"YAML syntax error: {what}")]) from None
    except YAMLError as exc:
        raise UserError([Problem(path, 0, 0, f"YAML syntax error: {exc}")]) from None
    doc = SourceDoc(path=path, data=None)
    doc.values[()] = (1, 1)
    doc.data = _plain(root, (), doc)
    return doc


def load(path: str | Path) -> SourceDoc:
    """Read and parse a YAML file."""
    return parse(read_text(path), str(path))


def _plain(node: Any, loc: Loc, doc: SourceDoc) -> Any:
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    if isinstance(node, CommentedMap):
        out: dict[Any, Any] = {}
        for key, value in node.items():
            k = _scalar(key)
            child = (*loc, k)
            kl, kc = node.lc.key(key)
            vl, vc = node.lc.value(key)
            doc.keys[child] = (kl + 1, kc + 1)
            doc.values[child] = (vl + 1, vc + 1) if value is not None else (kl + 1, kc + 1)
            out[k] = _plain(value, child, doc)
        return out
    if isinstance(node, CommentedSeq):
        items = []
        for i, value in enumerate(node):
            line, col = node.lc.item(i)
            doc.values[(*loc, i)] = (line + 1, col + 1)
            items.append(_plain(value, (*loc, i), doc))
        return items
    return _scalar(node)


def _scalar(value: Any) -> Any:
    if value is None or type(value) in (str, int, float, bool):
        return value
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, str):
        return str(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    if isinstance(value, _dt.date):
        return value.isoformat()
    return str(value)
