"""`mcptest run --shard K/N` and `mcptest report merge`: N shards merged equal the unsharded run (timings aside)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mcptest.core.exit_codes import ExitCode
from mcptest.run.selection import Selection, parse_shard, shard_of
from tests.conftest import ROOT, run_cli

EXAMPLES = [ROOT / "examples" / "quickstart" / "mcptest.yml", ROOT / "examples" / "agent-gates" / "mcptest.yml"]


def _timeless(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _timeless(v) for k, v in value.items() if k not in ("duration_ms", "started_at")}
    if isinstance(value, list):
        return [_timeless(v) for v in value]
    return value


@pytest.mark.parametrize("suite", EXAMPLES, ids=lambda p: p.parent.name)
def test_four_shards_merged_equal_the_unsharded_report(suite: Path, tmp_path: Path) -> None:
    whole = run_cli("run", str(suite), "--reporter", "json", "-o", str(tmp_path / "whole.json"), timeout=180)
    shards = []
    for k in range(1, 5):
        out = tmp_path / f"shard-{k}.json"
        ran = run_cli("run", str(suite), "--shard", f"{k}/4", "--reporter", "json", "-o", str(out), timeout=180)
        assert ran.code in (ExitCode.OK, ExitCode.FAILED), ran.stderr
        shards.append(str(out))
    counts = [len(json.loads(Path(s).read_text())["results"]) for s in shards]
    assert sum(1 for c in counts if c) >= 2, f"the split put everything in one shard: {counts}"
    merged = run_cli("report", "merge", *shards, "-o", str(tmp_path / "merged.json"))
    assert merged.code == whole.code, merged.stderr
    expected = _timeless(json.loads((tmp_path / "whole.json").read_text()))
    assert _timeless(json.loads((tmp_path / "merged.json").read_text())) == expected


def test_a_tests_shard_depends_on_its_name_alone() -> None:
    names = [f"test {i}" for i in range(200)]
    before = {n: shard_of(n, 4) for n in names}
    assert {shard_of(n, 4) for n in names} == {1, 2, 3, 4}
    assert all(shard_of(n, 4) == before[n] for n in [*names, "a test added later"] if n in before)
    assert min(list(before.values()).count(k) for k in range(1, 5)) > 25  # roughly even


class Named:
    def __init__(self, name: str) -> None:
        self.name, self.tags = name, []


def test_every_test_is_in_exactly_one_shard() -> None:
    tests = [Named(f"t{i}") for i in range(50)]
    picked = [[t.name for t in tests if Selection(shard=(k, 3)).matches(t)] for k in (1, 2, 3)]
    assert sorted(sum(picked, [])) == sorted(t.name for t in tests)


@pytest.mark.parametrize("text", ["0/4", "5/4", "a/b", "3", "1/0"])
def test_a_bad_shard_is_a_usage_error(text: str) -> None:
    with pytest.raises(Exception, match="--shard: expected K/N"):
        parse_shard(text)
    ran = run_cli("run", str(EXAMPLES[0]), "--shard", text)
    assert ran.code == ExitCode.USAGE and "--shard: expected K/N" in ran.stderr


def test_merging_reports_of_different_suites_is_refused(tmp_path: Path) -> None:
    for i, suite in enumerate(EXAMPLES):
        run_cli("run", str(suite), "--reporter", "json", "-o", str(tmp_path / f"{i}.json"), timeout=180)
    ran = run_cli("report", "merge", str(tmp_path / "0.json"), str(tmp_path / "1.json"))
    assert ran.code == ExitCode.USAGE and "not shards" in ran.stderr


def test_list_prints_the_selected_tests_in_run_order_and_runs_nothing(tmp_path: Path) -> None:
    ran = run_cli("run", str(EXAMPLES[0]), "--list", "--skip-tag", "nothing", "-o", str(tmp_path / "r.json"))
    assert ran.code == ExitCode.OK and ran.stderr.strip() == "6 selected"
    kinds = [line.split()[0] for line in ran.stdout.splitlines()]
    assert kinds == ["tool"] * 4 + ["agent"] * 2
    first = ran.stdout.splitlines()[0]
    assert first.startswith("tool     weather for a city  ") and first.endswith("quickstart/mcptest.yml:10")
    assert not (tmp_path / "r.json").exists()
    sharded = [run_cli("run", str(EXAMPLES[0]), "--list", "--shard", f"{k}/3").stdout for k in (1, 2, 3)]
    assert sorted("".join(sharded).splitlines()) == sorted(ran.stdout.splitlines())
