"""Broken spec files: exit 2, nothing on stdout, every problem at its exact file:line:col."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import run_cli

EVERYTHING_WRONG = """\
catalog:
  tools:
    - name: lookup_a
      description: Return the current weather forecast for a city, as JSON.
intents:
  - query: what is the weather forecast in Paris
    gold: [lookup_a, lookup_b]
intent: []
mutations:
  - tool: lookup_b
    kind: blank
  - tool: lookup_a
    kind: truncate
  - tool: lookup_a
    kind: blnk
  - tool: lookup_a
    kind: drop_keyword
    word: wether
  - tool: lookup_a
    kind: drop_keyword
    word: the
  - tool: lookup_a
    kind: genericize
    chars: 3
  - tool: lookup_a
"""

CASES = {
    "everything at once": (
        EVERYTHING_WRONG,
        [
            "spec.yml:7:22: intents[0].gold[1]: unknown tool 'lookup_b' (did you mean 'lookup_a'?)",
            "spec.yml:8:1: (top level): unknown key 'intent' (did you mean 'intents'?)",
            "spec.yml:10:11: mutations[0].tool: unknown tool 'lookup_b' (did you mean 'lookup_a'?)",
            "spec.yml:12:5: mutations[1]: missing required key 'chars'",
            "spec.yml:15:11: mutations[2].kind: unknown kind 'blnk' (did you mean 'blank'?); "
            "kinds are blank, genericize, truncate, drop_keyword",
            "spec.yml:18:11: mutations[3].word: 'wether' does not occur in lookup_a's description "
            "(did you mean 'weather'?)",
            "spec.yml:21:11: mutations[4].word: 'the' is not a content word (one word, not a stop word the "
            "selector ignores)",
            "spec.yml:24:5: mutations[5]: unknown key 'chars'; allowed keys: tool, kind",
            "spec.yml:25:5: mutations[6]: missing required key 'kind' (one of blank, genericize, truncate, "
            "drop_keyword)",
        ],
    ),
    "negative chars": (
        "catalog: [{name: a, description: Adds numbers.}]\nintents: [{query: add, gold: [a]}]\n"
        "mutations:\n  - {tool: a, kind: truncate, chars: -3}\n",
        ["spec.yml:4:38: mutations[0].chars: input should be greater than or equal to 0"],
    ),
    "no catalog": (
        "intents:\n  - query: add\n    gold: [a]\n",
        ["spec.yml:1:1: (top level): missing required key 'catalog' (or 'catalog_path')"],
    ),
    "both catalogs": (
        "catalog: []\ncatalog_path: tools.json\nintents:\n  - query: add\n    gold: [a]\n",
        ["spec.yml:2:1: catalog_path: give either catalog or catalog_path, not both"],
    ),
    "missing catalog file": (
        "catalog_path: tools.json\nintents:\n  - query: add\n    gold: [a]\n",
        ["spec.yml:1:15: catalog_path: no such file 'tools.json' (the path is relative to the spec's folder)"],
    ),
    "a tool without a name": (
        "catalog:\n  - name: a\n  - description: nameless\nintents:\n  - query: add\n    gold: [a]\n",
        ["spec.yml:3:5: catalog: tools[1].name: every tool needs a non-empty string name"],
    ),
    "two tools with one name": (
        "catalog:\n  tools:\n    - name: a\n    - name: a\nintents:\n  - query: add\n    gold: [a]\n",
        ["spec.yml:2:3: catalog: tool names must be unique; repeated: a"],
    ),
    "no intents": (
        "catalog: [{name: a}]\nintents: []\n",
        ["spec.yml:2:10: intents: list should have at least 1 item after validation, not 0"],
    ),
    "YAML syntax": (
        "intents:\n  - query: [unclosed\n",
        [
            "spec.yml:3:1: YAML syntax error: while parsing a flow sequence expected ',' or ']', but got "
            "'<stream end>' (it began at line 2, column 12)"
        ],
    ),
    "not a mapping": (
        "- just\n- a list\n",
        ["spec.yml:1:1: a tool-bench spec is a mapping with catalog (or catalog_path) and intents"],
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_bad_spec_exits_2_with_every_problem_located(case: str, write: Callable[[str, str], Path]) -> None:
    text, expected = CASES[case]
    spec = write("spec.yml", text)
    ran = run_cli("tool-bench", "run", "spec.yml", cwd=spec.parent)
    assert (ran.code, ran.stdout) == (2, "")
    assert ran.stderr.splitlines() == expected


def test_a_catalog_file_with_broken_json_is_located_in_that_file(write: Callable[[str, str], Path]) -> None:
    write("tools.json", '{"tools": [\n  {"name": "a",}\n]}\n')
    spec = write("spec.yml", "catalog_path: tools.json\nintents:\n  - query: add\n    gold: [a]\n")
    ran = run_cli("tool-bench", "run", "spec.yml", cwd=spec.parent)
    assert ran.code == 2
    assert ran.stderr == "tools.json:2:16: JSON syntax error: Expecting property name enclosed in double quotes\n"


def test_a_missing_spec_file_is_one_line() -> None:
    ran = run_cli("tool-bench", "run", "no-such-spec.yml")
    assert (ran.code, ran.stderr) == (2, "no-such-spec.yml: no such file\n")


def test_a_json_spec_with_a_problem_is_still_located(write: Callable[[str, str], Path]) -> None:
    spec = write(
        "spec.json", '{\n  "catalog": [{"name": "lookup_a"}],\n  "intents": [{"query": "x", "gold": ["lookup"]}]\n}\n'
    )
    ran = run_cli("tool-bench", "run", "spec.json", cwd=spec.parent)
    assert ran.code == 2
    assert ran.stderr == "spec.json:3:39: intents[0].gold[0]: unknown tool 'lookup' (did you mean 'lookup_a'?)\n"
