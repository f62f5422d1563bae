"""Compiled regular expressions kept between runs, as Python keeps compiled modules in `__pycache__`.

The lint holds some 150 regular expressions, and `re` parses and compiles each one in pure Python at every start:
about 55 ms, a fifth of a whole `mcptest doctor --lint-descriptions` on a 13-tool catalog (benchmarks/lint_speed.py).
What `re` builds from a pattern is a list of integers (its program for the `_sre` matcher) and its group names;
this module keeps those, per pattern and flags, in one marshal file beside this module's bytecode, and rebuilds a
pattern from them with `_sre.compile`, as `re` itself does after its compile: the same object, in microseconds.

The file is named for the interpreter (`cache_tag`) and the matcher's program version (`_sre.MAGIC`), so another
Python never reads it. A missing, unreadable or damaged file, or an interpreter whose `re` internals differ, means
compiling as `re.compile` does, nothing else. It is written (atomically, beside the bytecode, unless
`PYTHONDONTWRITEBYTECODE` is set or the directory is read-only) when a process compiled a pattern the file lacked.
`MCPTEST_RE_CACHE` names another file (the tests use it).
"""

from __future__ import annotations

import marshal
import os
import re
import sys
from pathlib import Path
from typing import Any

try:
    import _sre
    from importlib import import_module

    _compiler, _parser = import_module("re._compiler"), import_module("re._parser")
    _TAG: str | None = f"{sys.implementation.cache_tag}-{_sre.MAGIC}-{_sre.CODESIZE}"
except (ImportError, AttributeError):  # another interpreter's `re`: compile as it does
    _TAG = None

_Entry = tuple[int, list[int], int, dict[str, int], tuple[str | None, ...]]
_saved: dict[tuple[str, int], _Entry] | None = None
_new: dict[tuple[str, int], _Entry] = {}
_MOST = 2000


def compiled(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """`re.compile(pattern, flags)`, from the saved program when there is one."""
    if _TAG is None:
        return re.compile(pattern, flags)
    key = (pattern, int(flags))
    entry = _load().get(key)
    if entry is not None:
        try:
            made: re.Pattern[str] = _sre.compile(pattern, *entry)
            return made
        except (TypeError, ValueError, RuntimeError):  # a program this matcher refuses: compile afresh
            pass
    try:
        entry = _compile(pattern, key[1])
        made = _sre.compile(pattern, *entry)
    except re.error:
        raise
    except Exception:  # noqa: BLE001 (internals other than this module knows: compile as `re` does)
        return re.compile(pattern, flags)
    if not _new:
        import atexit

        atexit.register(_save)
    _new[key] = entry
    return made


def _compile(pattern: str, flags: int) -> _Entry:
    """What `re._compiler.compile` hands `_sre.compile` after the pattern itself (CPython 3.11-3.13)."""
    parsed = _parser.parse(pattern, flags)
    code = [int(op) for op in _compiler._code(parsed, flags)]  # opcodes are int subclasses, which marshal refuses
    groupindex = dict(parsed.state.groupdict)
    indexgroup: list[str | None] = [None] * parsed.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    return int(flags | parsed.state.flags), code, parsed.state.groups - 1, groupindex, tuple(indexgroup)


def _path() -> Path:
    named = os.environ.get("MCPTEST_RE_CACHE")
    if named:
        return Path(named)
    return Path(__file__).resolve().parent / "__pycache__" / f"re_cache.{_TAG}.marshal"


def _load() -> dict[tuple[str, int], _Entry]:
    global _saved
    if _saved is None:
        _saved = _read(_path())
    return _saved


def _read(path: Path) -> dict[tuple[str, int], _Entry]:
    """The saved programs of `path`; nothing for a missing, unreadable or damaged file."""
    try:
        data = marshal.loads(path.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return {}
    if not isinstance(data, dict) or data.get("tag") != _TAG or not isinstance(data.get("patterns"), dict):
        return {}
    return data["patterns"]  # type: ignore[no-any-return]


def _save() -> None:
    """Add what this process compiled to the file (what another process saved meanwhile kept)."""
    if sys.dont_write_bytecode and not os.environ.get("MCPTEST_RE_CACHE"):
        return
    path = _path()
    patterns: dict[Any, Any] = {**_read(path), **_new}
    if len(patterns) > _MOST:  # patterns edited away over many versions: start again from this process's
        patterns = dict(_new)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(marshal.dumps({"tag": _TAG, "patterns": patterns}))
        os.replace(tmp, path)
    except (OSError, ValueError):  # a read-only install (or a value marshal refuses): compile at each start, as before
        tmp.unlink(missing_ok=True)
