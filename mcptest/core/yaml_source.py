"""Load a YAML file into plain Python data plus the line:col of every node (1-based)."""

from __future__ import annotations

import datetime as _dt
import errno
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcptest.core.errors import Problem, UserError

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


MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_INT_DIGITS = 4300
"""The longest integer a YAML file may hold: Python's own default bound, whatever a JSON reader raised it to."""
_INT_TAG = "tag:yaml.org,2002:int"
# What YAML (and so mcptest) accepts in a file: tab, newlines and printable Unicode; a NUL is the usual intruder.
_SURROGATE = re.compile("[\ud800-\udfff]")
# Spelt as what is refused (the complement of the allowed set, checked equal over every code point): the negated
# class over the astral planes takes ~10 ms to compile, at every start.
_UNPRINTABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]")


def read_text(path: str | Path, limit: int = MAX_FILE_BYTES) -> str:
    """Read a user's file (at most `limit` bytes), turning every OS-level failure into a one-line UserError."""
    p = Path(path)
    try:
        if p.is_dir():
            raise UserError([Problem(str(path), 0, 0, "is a directory, not a file (name the YAML file inside it)")])
        return read_limited(p, limit)
    except FileNotFoundError:
        raise UserError([Problem(str(path), 0, 0, "no such file")]) from None
    except UnicodeDecodeError as exc:
        raise UserError([Problem(str(path), 0, 0, f"not UTF-8 text ({exc.reason})")]) from None
    except OSError as exc:
        raise UserError([Problem(str(path), 0, 0, f"cannot read: {exc.strerror or exc}")]) from None


def read_limited(path: str | Path, limit: int = MAX_FILE_BYTES) -> str:
    """A UTF-8 file's text; past `limit` bytes (`/dev/zero`, a runaway log) it is an OSError, never a MemoryError."""
    with Path(path).open("rb") as handle:
        raw = handle.read(limit + 1)
    if len(raw) > limit:
        raise OSError(errno.EFBIG, f"larger than {limit // 2**20} MiB, more than mcptest reads from one file")
    return raw.decode("utf-8")


def unprintable(text: str, path: str) -> Problem | None:
    """The first character YAML does not allow (a NUL, an escape...), located, or None."""
    bad = _UNPRINTABLE.search(text)
    if bad is None:
        return None
    line = text.count("\n", 0, bad.start()) + 1
    col = bad.start() - (text.rfind("\n", 0, bad.start()) + 1) + 1
    return Problem(path, line, col, f"character U+{ord(bad.group()):04X} is not allowed in a YAML file (remove it)")


def parse(text: str, path: str) -> SourceDoc:
    """Parse YAML text; a syntax error, a bomb or a tag is a UserError at its line and column.

    The document is composed into nodes (which carry their positions) and walked once, building plain data and
    the position table together; the round-trip loader would also keep comments and styles, at twice the cost.
    """
    from ruamel.yaml import YAML
    from ruamel.yaml.composer import MaxDepthExceededError
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    from mcptest.core.yaml_guard import MAX_DEPTH, BoundedComposer, Refused

    bad = unprintable(text, path)
    if bad:
        raise UserError([bad])
    yaml = YAML(typ="safe", pure=True)
    yaml.Composer = BoundedComposer
    yaml.max_depth = MAX_DEPTH
    doc = SourceDoc(path=path, data=None)
    doc.values[()] = (1, 1)
    try:
        root = yaml.compose(text)
        doc.data = None if root is None else _Walk(doc, yaml.constructor, yaml.composer.origins).plain(root, ())
    except MaxDepthExceededError as exc:
        mark = exc.problem_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        raise UserError([Problem(path, line, col, f"nested deeper than {MAX_DEPTH} levels: flatten it")]) from None
    except Refused as exc:
        mark = exc.problem_mark
        raise UserError([Problem(path, mark.line + 1, mark.column + 1, str(exc.problem))]) from None
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
    return doc


def load(path: str | Path) -> SourceDoc:
    """Read and parse a YAML file."""
    return parse(read_text(path), str(path))


class _Walk:
    """Plain data and positions from composed nodes; `<<` merges and aliases as the safe loader does them."""

    def __init__(self, doc: SourceDoc, constructor: Any, origins: dict[int, int]) -> None:
        self.doc = doc
        self.constructor = constructor
        self.origins = origins
        self.open: set[int] = set()  # collections being walked, so an alias to an ancestor is an error, not a hang

    def plain(self, node: Any, loc: Loc) -> Any:
        from ruamel.yaml.nodes import MappingNode, SequenceNode

        if not isinstance(node, MappingNode | SequenceNode):
            if node.tag == _INT_TAG and sum(c.isdigit() for c in node.value) > MAX_INT_DIGITS:
                digits = sum(c.isdigit() for c in node.value)
                what = f"an integer of {digits:,} digits, longer than the {MAX_INT_DIGITS} digits mcptest reads in YAML"
                raise UserError([Problem(self.doc.path, *_mark(node), what + " (quote it to keep it as text)")])
            try:
                value = _scalar(self.constructor.construct_object(node, deep=True))
            except ValueError as exc:  # an integer past Python's 4,300-digit limit, a date out of range
                what = f"cannot read this value: {exc}".split("; use sys.")[0] + " (quote it to keep it as text)"
                raise UserError([Problem(self.doc.path, *_mark(node), what)]) from None
            if isinstance(value, str) and not value.isascii() and _SURROGATE.search(value):
                value = self._paired(value, node)
            return value
        same = self.origins.get(id(node), id(node))
        if same in self.open:
            what = "YAML syntax error: this alias refers to a node that contains it"
            raise UserError([self.doc.problem(loc, what, at_key=True)])
        self.open.add(same)
        try:
            return self._mapping(node, loc) if isinstance(node, MappingNode) else self._sequence(node, loc)
        finally:
            self.open.discard(same)

    def _paired(self, value: str, node: Any) -> str:
        """A string whose `\\uD83D\\uDE00`-style escaped pairs are joined; a lone half is a UserError at its scalar."""
        try:
            return value.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
        except UnicodeDecodeError:
            lone = next(c for i, c in enumerate(value) if _SURROGATE.fullmatch(c) and not _paired_at(value, i))
            what = (
                f"`\\u{ord(lone):04x}` is half of a UTF-16 surrogate pair, not a character: write the character "
                "itself, or a `\\U` escape of eight hex digits"
            )
            raise UserError([Problem(self.doc.path, *_mark(node), what)]) from None

    def _mapping(self, node: Any, loc: Loc) -> dict[Any, Any]:
        self.constructor.flatten_mapping(node)  # `<<` pairs come first, so the mapping's own keys override them
        merged = len(getattr(node, "merge", None) or ())
        out: dict[Any, Any] = {}
        own: dict[Any, tuple[int, int]] = {}
        for i, (key_node, value_node) in enumerate(node.value):
            k = _key(self.plain(key_node, loc))
            at = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            if i >= merged:
                if k in own:
                    first = "line {}, column {}".format(*own[k])
                    what = f'YAML syntax error: duplicate key "{k}" (first at {first})'
                    raise UserError([Problem(self.doc.path, *at, what)])
                own[k] = at
            child = (*loc, k)
            self.doc.keys[child] = at
            value = self.plain(value_node, child)
            mark = value_node.start_mark
            self.doc.values[child] = (mark.line + 1, mark.column + 1) if value is not None else at
            out[k] = value
        return out

    def _sequence(self, node: Any, loc: Loc) -> list[Any]:
        items = []
        for i, item in enumerate(node.value):
            self.doc.values[(*loc, i)] = (item.start_mark.line + 1, item.start_mark.column + 1)
            items.append(self.plain(item, (*loc, i)))
        return items


def _paired_at(text: str, i: int) -> bool:
    high = "\ud800" <= text[i] <= "\udbff"
    j = i + 1 if high else i - 1
    want = ("\udc00", "\udfff") if high else ("\ud800", "\udbff")
    return 0 <= j < len(text) and want[0] <= text[j] <= want[1]


def _mark(node: Any) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


def _key(value: Any) -> Any:
    """A mapping key as plain data: a collection used as a key (legal YAML, never meaningful here) is its text."""
    return value if value is None or isinstance(value, str | int | float | bool) else str(value)


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
