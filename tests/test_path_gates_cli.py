"""The path gates through `mcptest run`: committed trace files, inline calls and a replayed cassette."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from mcptest.core.exit_codes import ExitCode
from tests.conftest import ROOT, run_cli

EXAMPLES = ROOT / "examples" / "agent-gates"
QUICKSTART = ROOT / "examples" / "quickstart"


def test_the_path_example_passes_every_block_on_trace_files_and_inline_calls() -> None:
    ran = run_cli("run", str(EXAMPLES / "path.yml"), "-r", "json", "-q")  # stderr: the gate lines alone
    assert ran.code == ExitCode.OK, ran.stderr
    assert ran.stderr.splitlines() == [
        "trajectory [PASS] research then answer: matched 2 of 2 runs (subsequence), 6 of 6 steps",
        "golden path [PASS] research then answer: reached in 2 of 2 runs, efficiency 90, 1 extra call, "
        "0 backtracks, 1 repeat",
        "EXTRA run 2: calls 2:docs.search",
        "REPEATS run 2: calls 2:docs.search",
        "tool edges [PASS] research then answer: 0 restricted attempts, allowed tools used 100%, "
        "0 calls outside allowed",
        "stability [PASS] research then answer: score 100 (thrash 100, failure loop 100, progress 100, "
        "recovery 100), 0 drift flags",
        "narrative [PASS] research then answer: 2 claims, 0 claimed but absent, 0 unclaimed mutations, "
        "0 argument mismatches",
        "trajectory [PASS] inline run pinned call by call: matched 1 of 1 run (strict), 2 of 2 steps",
        "tool edges [PASS] inline run pinned call by call: 0 restricted attempts",
    ]
    gates = {(g["test"], g["block"]): g for g in json.loads(ran.stdout)["gates"]}
    golden = gates[("research then answer", "golden_path")]
    assert golden["targets"]["golden_path.efficiency"] == 90  # (4/4 + 4/5) / 2
    assert [r["efficiency"] for r in golden["detail"]["runs"]] == [100, 80]
    assert gates[("inline run pinned call by call", "trajectory")]["runs"] == 1


def test_the_breaching_path_example_exits_1_and_says_what_went_wrong_by_position() -> None:
    ran = run_cli("run", str(EXAMPLES / "path-breaching.yml"), "-q")
    assert ran.code == ExitCode.FAILED
    assert ran.stderr.splitlines() == [
        "trajectory [FAIL] research then answer: matched 0 of 1 run (subsequence), 1 of 3 steps",
        "  trajectory.matched: 0 is not >= 1 (line 10:7)",
        'step 2: expected fetch(url ~ ^https://), got docs.fetch(url="ftp://files.example.test/q3.pdf")',
        '  url: "ftp://files.example.test/q3.pdf" does not match /^https:///',
        "step 3: expected create_note, got no call to create_note after call 1",
        "golden path [FAIL] research then answer: reached in 0 of 1 run, efficiency 0, 5 extra calls, "
        "0 backtracks, 1 repeat",
        "  golden_path.reached: 0 is not >= 1 (line 18:7)",
        "  golden_path.efficiency: 0 is not >= 50 (line 18:7)",
        "MISSING never reached fetch → summarize → create_note (reached 1 golden step)",
        "EXTRA calls 2:docs.fetch, 3:docs.fetch, 4:docs.delete_document, 5:docs.search, 6:docs.summarize",
        "REPEATS calls 3:docs.fetch",
        "tool edges [FAIL] research then answer: 1 restricted attempt, allowed tools used 75%, 0 calls outside allowed",
        "  edges.restricted_attempts: 1 is not <= 0 (line 20:7)",
        "RESTRICTED calls 4:docs.delete_document",
        "stability [FAIL] research then answer: score 0 (thrash 100, failure loop 83, progress 50, recovery 0), "
        "1 drift flag",
        "  stability.drift_flags: 1 is not <= 0 (line 22:16)",
        "DRIFT unrecovered (recovery 0)",
        "narrative [FAIL] research then answer: 1 claim, 1 claimed but absent, 1 unclaimed mutation, "
        "0 argument mismatches",
        "  narrative.claimed_but_absent: 1 is not <= 0 (line 23:16)",
        'CLAIMED BUT ABSENT "created note": no successful call backs it',
        'UNCLAIMED docs.delete_document(id="q3-draft"): a mutating call the answer never mentions',
    ]
    assert "5 of 5 gates failed" in ran.stdout


def test_the_path_gates_read_a_replayed_cassette(tmp_path: Path) -> None:
    shutil.copy(QUICKSTART / "weather.yml", tmp_path / "weather.yml")
    shutil.copytree(QUICKSTART / "cassettes", tmp_path / "cassettes")
    suite = tmp_path / "suite.yml"
    suite.write_text(
        """
servers:
  weather:
    command: ["mcptest", "mock", "--tools-from", "weather.yml"]
agents:
  - name: claude answers from the tool
    model: claude-haiku-4-5
    servers: [weather]
    prompt: What is the weather in Tokyo?
    runs: 3
    trajectory:
      steps:
        - { tool: weather.get_weather, args: { city: { regex: "^Paris$" } } }
    golden_path: { calls: [get_weather] }
    tool_edges: { allowed: [get_weather, convert_temperature], restricted: [delete_forecast] }
    stability: {}
    narrative: {}
""",
        encoding="utf-8",
    )
    ran = run_cli("run", str(suite), "-r", "json", cwd=tmp_path, env={"CI": "true"})
    assert ran.code == ExitCode.FAILED, ran.stderr
    gates = {g["block"]: g for g in json.loads(ran.stdout)["gates"]}
    assert {block: g["status"] for block, g in gates.items()} == {
        "trajectory": "failed",
        "golden_path": "passed",
        "tool_edges": "passed",
        "stability": "passed",
        "narrative": "passed",
    }
    assert gates["trajectory"]["runs"] == 3
    assert gates["trajectory"]["lines"][2:4] == [
        'run 1: step 1: expected weather.get_weather(city ~ ^Paris$), got weather.get_weather(city="Tokyo")',
        '  city: "Tokyo" does not match /^Paris$/',
    ]
    assert gates["golden_path"]["targets"]["golden_path.efficiency"] == 100
    assert gates["tool_edges"]["targets"]["edges.allowed_pct"] == 50
    assert gates["narrative"]["targets"]["narrative.claims"] == 0
