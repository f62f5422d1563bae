"""The saved regular expressions (`mcptest.core.re_cache`): a pattern rebuilt from the file is the one `re` compiles."""

from __future__ import annotations

import json
import marshal
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from mcptest.core import re_cache

ROOT = Path(__file__).resolve().parent.parent
CATALOGS = ROOT / "tests" / "lint" / "real"

# Every pattern the lint modules hold, described and run over real tool descriptions, in a fresh process.
PROBE = r"""
import importlib, json, pkgutil, re, sys
import mcptest.checks.lint as lint
texts = json.loads(sys.stdin.read())
out = []
for info in sorted(pkgutil.iter_modules(lint.__path__), key=lambda i: i.name):
    module = importlib.import_module(f"mcptest.checks.lint.{info.name}")
    for name, value in sorted(vars(module).items()):
        if isinstance(value, re.Pattern):
            hits = [[m.span() for m in value.finditer(t)][:5] for t in texts]
            out.append([info.name, name, value.pattern, value.flags, value.groups, dict(value.groupindex), hits])
print(json.dumps(out))
"""


def _texts() -> list[str]:
    """Descriptions of real tools and their arguments: text the patterns were written for."""
    texts: list[str] = []
    for path in sorted(CATALOGS.glob("*.json"))[:40]:
        try:
            data = json.loads(path.read_text())
        except (ValueError, UnicodeDecodeError):
            continue
        tools = data.get("tools") if isinstance(data, dict) else None
        for tool in tools if isinstance(tools, list) else []:
            if isinstance(tool, dict) and isinstance(tool.get("description"), str):
                texts.append(tool["description"])
                props = (tool.get("inputSchema") or {}).get("properties") or {}
                texts += [p["description"] for p in props.values() if isinstance(p, dict) and "description" in p]
    return texts[:400]


def _probe(cache: Path, texts: list[str]) -> list[list[object]]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | {"MCPTEST_RE_CACHE": str(cache)}
    done = subprocess.run(
        [sys.executable, "-c", PROBE], input=json.dumps(texts), capture_output=True, text=True, env=env, cwd=ROOT,
        timeout=120, check=True,
    )  # fmt: skip
    result: list[list[object]] = json.loads(done.stdout)
    return result


def test_a_pattern_read_back_from_the_file_matches_as_compiled(tmp_path: Path) -> None:
    texts = _texts()
    assert len(texts) > 100
    cache = tmp_path / "re.marshal"
    cold = _probe(cache, texts)  # compiles each pattern and saves the file
    assert cache.exists()
    saved = marshal.loads(cache.read_bytes())["patterns"]
    assert len(saved) >= 100  # the lint's patterns, every one saved
    warm = _probe(cache, texts)  # rebuilds each pattern from the file
    assert warm == cold
    # and both are what `re.compile` makes of the pattern
    for module, name, pattern, flags, groups, groupindex, hits in warm:
        fresh = re.compile(str(pattern), int(str(flags)))
        assert (fresh.flags, fresh.groups, dict(fresh.groupindex)) == (flags, groups, groupindex), (module, name)
        assert [[list(m.span()) for m in fresh.finditer(t)][:5] for t in texts] == hits, (module, name)
    assert sum(1 for row in warm for spans in row[6] if spans) > 100  # the texts do exercise the patterns


def test_a_damaged_or_foreign_file_is_ignored_and_replaced(tmp_path: Path) -> None:
    texts = _texts()[:20]
    cache = tmp_path / "re.marshal"
    cache.write_bytes(b"\x00not marshal at all")
    first = _probe(cache, texts)
    assert marshal.loads(cache.read_bytes())["tag"] == re_cache._TAG
    cache.write_bytes(marshal.dumps({"tag": "another-python", "patterns": {("x", 0): (0, [1, 2], 0, {}, ())}}))
    assert _probe(cache, texts) == first
    assert marshal.loads(cache.read_bytes())["tag"] == re_cache._TAG


def test_compiled_is_re_compile(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MCPTEST_RE_CACHE", str(tmp_path / "re.marshal"))
    monkeypatch.setattr(re_cache, "_saved", None)
    monkeypatch.setattr(re_cache, "_new", {})
    made = re_cache.compiled(r"(?P<word>\w+)-(\d+)", re.I)
    assert made.flags == re.compile(r"(?P<word>\w+)-(\d+)", re.I).flags
    assert made.groupindex == {"word": 1}
    found = made.search("id ABC-42")
    assert found is not None and found.group("word", 2) == ("ABC", "42")
    with pytest.raises(re.error):
        re_cache.compiled("(unclosed")
