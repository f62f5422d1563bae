"""YAML as a suite writes it: anchors, aliases and `<<` merges load, and every value keeps its line:col."""

from __future__ import annotations

import json

from mcptest.core.yaml_source import parse
from tests.conftest import ROOT, run_cli

MERGED = """\
defaults: &weather
  server: weather
  tool: get_weather
tools:
  - name: paris
    <<: *weather
    args: { city: Paris }
  - name: rome
    <<: *weather
    tool: get_forecast
"""


def test_merge_keys_fill_in_and_the_mapping_own_keys_win() -> None:
    doc = parse(MERGED, "s.yml")
    paris, rome = doc.data["tools"]
    assert paris == {"server": "weather", "tool": "get_weather", "name": "paris", "args": {"city": "Paris"}}
    assert rome["tool"] == "get_forecast" and rome["server"] == "weather"
    assert doc.value_pos(("tools", 0, "server")) == (2, 11)  # a merged value is found where the anchor wrote it
    assert doc.value_pos(("tools", 1, "tool")) == (10, 11)
    assert doc.key_pos(("tools", 0, "args")) == (7, 5)


def test_scalars_are_plain_python_values_as_yaml_1_2_reads_them() -> None:
    doc = parse('a: 0x10\nb: yes\nc: 2026-01-02\nd: "7"\ne: 1.5\nf: ~\ng: |\n  two\n  lines\n', "s.yml")
    assert doc.data == {"a": 16, "b": "yes", "c": "2026-01-02", "d": "7", "e": 1.5, "f": None, "g": "two\nlines\n"}
    assert doc.value_pos(("f",)) == (6, 1)  # a null has no text of its own: its key stands for it
    assert doc.value_pos(("g",)) == (7, 4)


def test_a_suite_that_reuses_a_test_through_a_merge_runs(write) -> None:
    write("weather.yml", (ROOT / "examples" / "quickstart" / "weather.yml").read_text(encoding="utf-8"))
    suite = write(
        "suite.yml",
        """
        servers:
          weather:
            command: ["mcptest", "mock", "--tools-from", "weather.yml"]
        tools:
          - &paris
            name: paris
            server: weather
            tool: get_weather
            args: { city: Paris }
            expect:
              - result.isError: { exact: false }
          - <<: *paris
            name: rome
            args: { city: Rome }
        """,
    )
    ran = run_cli("run", str(suite), "--reporter", "json")
    assert ran.code == 0, ran.stderr
    results = {r["name"]: r for r in json.loads(ran.stdout)["results"]}
    assert results["rome"]["status"] == "passed" and (results["paris"]["line"], results["rome"]["line"]) == (5, 12)


def test_the_unprintable_class_refuses_exactly_what_yaml_does_not_allow() -> None:
    """`_UNPRINTABLE` is spelt as the complement of YAML's printable set (it compiles faster); over every code point
    it must match exactly the characters outside tab, newlines and printable Unicode."""
    import re

    from mcptest.core import yaml_source

    allowed = re.compile("[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
    every = "".join(map(chr, range(0x110000)))
    assert yaml_source._UNPRINTABLE.findall(every) == allowed.findall(every)
    assert len(allowed.findall(every)) == 2048 + 29 + 6 + 26 + 2  # surrogates, C0, DEL-U+0084, U+0086-9F, U+FFFE/F
