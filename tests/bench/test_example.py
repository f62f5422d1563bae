"""examples/tool-bench: a realistic catalog and spec that runs offline and passes its documented gate."""

from __future__ import annotations

from mcptest.bench import load_spec, run_bench
from mcptest.bench.lexical import LexicalSelector
from tests.bench.conftest import EXAMPLE
from tests.conftest import run_cli


def test_the_example_is_big_enough_to_mean_something() -> None:
    bench = load_spec(EXAMPLE / "bench.yml")
    assert len(bench.catalog.tools) >= 20
    assert len(bench.intents) >= 30
    assert {m.kind for m in bench.mutations} == {"blank", "genericize", "truncate", "drop_keyword"}


def test_the_example_baseline_and_its_largest_drop() -> None:
    report = run_bench(load_spec(EXAMPLE / "bench.yml"), LexicalSelector())
    assert (report.baseline.correct, report.baseline.total) == (24, 34)
    assert report.catalog.tools == 28
    assert report.max_drop == 2 / 34
    drops = {(m.kind, m.tool): len(m.lost) - len(m.gained) for m in report.mutations}
    assert drops[("genericize", "get_file_info")] == 2
    assert drops[("blank", "git_status")] == 1


def test_the_readme_command_passes() -> None:
    command = (EXAMPLE / "README.md").read_text(encoding="utf-8").split("    mcptest ", 1)[1].splitlines()[0]
    ran = run_cli(*command.split())
    assert ran.code == 0, ran.stderr
    assert ran.stdout.splitlines()[-1] == "PASS largest drop 5.9%, --min-drop 5.0%"
