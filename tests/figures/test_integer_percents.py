"""Issue 12: the integer percents of the calls, workflow and path gates are the figures those gates compare.

The source documents define none of these gates; their contract (docs/gates.md, "Percents and rounding") makes each
percent an integer, rounded half up on the exact fraction and clamped (short of 1 → at most 99). So the rule for
figures the documents fix as integers applies: the line, the JSON target, the default gate and an `expect:` all
hold the same integer, and a threshold is compared on it. These tests put a figure half a percent from a threshold
and check that no two of them disagree.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.conftest import run_cli

SAVE = {
    "server": "notes",
    "tool": {
        "name": "save",
        "description": "Save a note.",
        "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
    },
}


def _call(name: str, args: dict[str, Any], error: bool = False) -> dict[str, Any]:
    return {
        "server": "notes",
        "name": name,
        "args": args,
        "is_error": error,
        "content": [{"type": "text", "text": "ok"}],
    }


def _run(tmp_path: Path, runs: list[dict[str, Any]], block: str) -> tuple[dict[str, Any], list[str]]:
    (tmp_path / "runs.json").write_text(json.dumps([{"format_version": "1", **runs[0]}, *runs[1:]]))
    (tmp_path / "suite.yml").write_text(
        f"agents:\n  - name: near a threshold\n    prompt: Save notes.\n    traces: [runs.json]\n{block}"
    )
    ran = run_cli("run", "suite.yml", "--reporter", "json", cwd=tmp_path)
    assert ran.code in (0, 1), ran.stderr
    (gate,) = json.loads(ran.stdout)["gates"]
    return gate, ran.stderr.splitlines()


def _valid_calls(tmp_path: Path, valid: int, total: int) -> tuple[dict[str, Any], list[str]]:
    calls = [_call("save", {"text": f"n{i}"}) for i in range(valid)]
    calls += [_call("save", {"text": i}) for i in range(total - valid)]
    expect = '    calls:\n      expect:\n        - calls.valid_args: { ">=": 90 }\n'
    return _run(tmp_path, [{"tool_calls": calls, "final_response": "saved", "catalog": [SAVE]}], expect)


def test_calls_valid_args_is_compared_as_it_is_shown(tmp_path: Path) -> None:
    # 179/200 = 89.5% rounds half up to 90: shown 90, stored 90, and 90 passes `>= 90`
    (tmp_path / "up").mkdir()
    gate, lines = _valid_calls(tmp_path / "up", 179, 200)
    assert gate["targets"]["calls.valid_args"] == 90 and gate["status"] == "passed"
    assert any(line.startswith("calls [PASS] near a threshold: 179 of 200 calls valid (90%)") for line in lines)
    # 1789/2000 = 89.45% rounds to 89: shown 89, stored 89, and the failure says 89
    (tmp_path / "down").mkdir()
    gate, lines = _valid_calls(tmp_path / "down", 1789, 2000)
    assert gate["targets"]["calls.valid_args"] == 89 and gate["status"] == "failed"
    assert [(f["target"], f["actual"]) for f in gate["failures"]] == [("calls.valid_args", 89)]
    assert any(line.startswith("calls [FAIL] near a threshold: 1789 of 2000 calls valid (89%)") for line in lines)
    assert "  calls.valid_args: 89 is not >= 90 (line 7:11)" in lines


def test_workflow_in_order_short_of_every_run_never_shows_100(tmp_path: Path) -> None:
    ordered = [_call("save", {"text": "a"}), _call("publish", {"id": "a"})]
    runs = [{"tool_calls": ordered, "final_response": "done"} for _ in range(199)]
    runs.append({"tool_calls": ordered[::-1], "final_response": "done"})
    gate, lines = _run(tmp_path, runs, "    workflow:\n      order: [save, publish]\n")
    # 199/200 = 99.5% would round to 100 and pass the default `>= 100`; the clamp keeps it 99 everywhere
    assert gate["targets"]["workflow.in_order"] == 99 and gate["status"] == "failed"
    assert [(f["target"], f["expected"], f["actual"]) for f in gate["failures"]] == [("workflow.in_order", 100, 99)]
    assert any("order followed in 199 of 200 runs (99%)" in line for line in lines)


def test_a_stability_drift_flag_is_raised_on_the_score_it_shows(tmp_path: Path) -> None:
    # 102 failed calls to `save` in a row (101 loop calls), then a success and 97 distinct calls: 200 calls,
    # failure loop (200 - 101) / 200 = 49.5% → 50, which the default threshold 50 does not flag
    calls = [_call("save", {"text": "x"}, error=True) for _ in range(102)] + [_call("save", {"text": "x"})]
    calls += [_call(f"tool_{i}", {"n": i}) for i in range(97)]
    gate, lines = _run(tmp_path, [{"tool_calls": calls, "final_response": "done"}], "    stability: {}\n")
    (run,) = gate["detail"]["runs"]
    assert gate["targets"]["stability.failure_loop"] == 50 and run["scores"]["failure_loop"] == 50
    assert "failure loop" not in run["flags"]
    assert re.search(r"failure loop 50\b", next(line for line in lines if line.startswith("stability ")))


def test_f1_a_source_fixed_integer_is_compared_on_the_same_integer(tmp_path: Path) -> None:
    # spec 000 fixes F1, precision and recall as integers 0..100: 99 TP, 101 FP, 101 FN is F1 198/400 = 49.5% → 50,
    # shown 50, stored 50, and the default `tool_selection.f1 >= 50` compares that 50
    hit = {"tool_calls": [_call("search", {"q": "x"})], "final_response": "found"}
    miss = {"tool_calls": [_call("shell", {"cmd": "x"})], "final_response": "found"}
    block = "    equal_function_sets:\n      classes:\n        - { name: search, members: [search] }\n"
    gate, lines = _run(tmp_path, [hit] * 99 + [miss] * 101, block)
    assert (gate["targets"]["tool_selection.f1"], gate["status"], gate["failures"]) == (50, "passed", [])
    assert any(
        line.startswith("selection F1 [PASS] near a threshold: F1 50, precision 50, recall 50 (99 TP, 101 FP, 101 FN")
        for line in lines
    )
