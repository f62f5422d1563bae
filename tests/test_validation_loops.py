"""Document 002's case study end to end: "before" fails with the findings a user acts on, "after" passes."""

from __future__ import annotations

import json

import anyio
import pytest

from mcptest.core.exit_codes import ExitCode
from tests.conftest import ROOT, run_cli

EXAMPLE = ROOT / "examples" / "validation-loops"
SUITE = EXAMPLE / "mcptest.yml"


def run_side(side: str):
    ran = run_cli("run", str(SUITE), "-r", "json", env={"SIDE": side}, timeout=90)
    return ran, json.loads(ran.stdout)


def test_before_fails_with_the_documents_failure_classes() -> None:
    ran, report = run_side("before")
    assert ran.code == ExitCode.FAILED
    gates = {g["block"]: g for g in report["gates"]}
    assert gates["calls"]["targets"] == {
        "calls.valid_args": 56,
        "calls.first_try_valid": 80,
        "calls.validation_loops": 2,
        "calls.longest_loop": 5,
        "calls.unknown_tool": 1,
        "calls.redundant": 1,
    }
    assert gates["workflow"]["targets"]["workflow.id_flow"] == 67
    lines = ran.stderr.splitlines()
    assert "  bad values tried: priority = 'High', 'Medium', 'medium', ''" in lines
    assert "  create_metric: FAIL - 'binary' is not one of ['numeric', 'categorical']" in lines
    assert "  bad values tried: categories = []" in lines
    assert "UNKNOWN create_tests: not in the catalog the model saw" in lines
    assert "REDUNDANT list_behaviors(): already called with these arguments" in lines
    assert (
        "ID create_test_configuration.test_set_id = 'test-set-1' was not returned by an earlier "
        "create_test_set_bulk call"
    ) in lines
    failed = {r["name"]: r for r in report["results"] if r["status"] == "failed"}
    assert set(failed) == {
        "an empty test set is refused by the schema",
        "priority has a documented range",
        "the catalog tells the model what it needs",
    }
    lint = failed["the catalog tells the model what it needs"]["failures"]
    assert [(f["target"], f["actual"]) for f in lint] == [('rules["SCH-005"]', 22), ('rules["SCH-006"]', 1)]


def test_after_passes_every_test_and_gate() -> None:
    ran, report = run_side("after")
    assert ran.code == ExitCode.OK, ran.stdout
    assert all(g["status"] == "passed" for g in report["gates"])
    assert report["summary"]["failed"] == 0


@pytest.mark.parametrize("side", ["before", "after"])
def test_the_committed_runs_are_what_the_mock_servers_really_answer(side: str) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("record_runs", EXAMPLE / "record_runs.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    script = module.BEFORE if side == "before" else module.AFTER
    fresh = anyio.run(module.record, side, script)
    assert module.render(fresh) == (EXAMPLE / side / "run.json").read_text(encoding="utf-8")
