"""The spec's own example: one tool, one intent, one `blank` mutation."""

from __future__ import annotations

import json
from pathlib import Path

from mcptest.bench import load_spec, run_bench
from mcptest.bench.lexical import LexicalSelector
from tests.bench.conftest import SPEC_EXAMPLE
from tests.conftest import run_cli


def test_blanking_the_only_description_takes_selection_from_all_to_nothing(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yml"
    spec.write_text(SPEC_EXAMPLE, encoding="utf-8")

    report = run_bench(load_spec(spec), LexicalSelector())

    assert report.baseline.correct == 1 and report.baseline.total == 1
    assert [i.picked for i in report.intents] == ["lookup_a"]
    (blank,) = report.mutations
    assert (blank.tool, blank.kind, blank.accuracy.correct, blank.drop) == ("lookup_a", "blank", 0, 1.0)
    assert blank.lost == [0] and blank.gained == []
    assert blank.p_value == 1.0 and not blank.significant  # one flipped intent is no evidence
    assert blank.smells_introduced == {"underspecified": 1}
    assert blank.rules_introduced == ["DESC-001"]
    assert blank.tokens_removed == 12  # cl100k_base tokens of the description
    assert blank.whitespace_tokens_removed == 10
    assert report.max_drop == 1.0


def test_the_example_through_the_cli_prints_the_whole_picture(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yml"
    spec.write_text(SPEC_EXAMPLE, encoding="utf-8")

    ran = run_cli("tool-bench", "run", str(spec))

    assert ran.code == 0, ran.stderr
    assert ran.stdout.splitlines() == [
        f"tool-bench {spec}  selector lexical",
        "catalog: 1 tool, TDQS mean 0.833 min 0.833, 1 smell (missing_annotations 1), "
        "13 words (whitespace estimate), 19 cl100k_base tokens",
        "baseline: 1/1 correct (100.0%, 95% CI 20.7%–100.0%)",
        "blank lookup_a: 0/1 correct (0.0%, 95% CI 0.0%–79.3%), drop +100.0% (1 lost, 0 gained, p=1, "
        "not significant); TDQS 0.833 -> 0.333 (new smells: underspecified 1); 12 tokens removed",
    ]


def test_json_output_carries_the_same_figures(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yml"
    spec.write_text(SPEC_EXAMPLE, encoding="utf-8")

    ran = run_cli("tool-bench", "run", str(spec), "--json")

    out = json.loads(ran.stdout)
    assert out["format_version"] == "1"
    assert out["baseline"]["accuracy"] == 1.0
    assert out["mutations"][0]["drop"] == 1.0
    assert out["catalog"]["cl100k_tokens"] == 19
