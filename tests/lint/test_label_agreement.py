"""The second, blind labels of tests/lint/real/labels_second/ are well-formed label files, and
benchmarks/label_agreement.py counts the agreement of two label sets right."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.lint.benchmark_module import load
from tests.lint.test_real_precision import test_every_label_says_why_and_names_a_real_catalog as check_label_file

ROOT = Path(__file__).resolve().parents[2]
REAL = ROOT / "tests" / "lint" / "real"
SECOND = REAL / "labels_second"


def _agreement():
    return load("label_agreement")


@pytest.mark.parametrize("path", sorted(SECOND.glob("*.json")), ids=lambda p: p.stem)
def test_every_second_label_file_is_a_label_file_of_a_labelled_catalog_and_its_group(path: Path) -> None:
    check_label_file(path)  # the checks every file in labels/ passes: a real catalog, a reason and a verdict per row
    second = json.loads(path.read_text(encoding="utf-8"))
    first = json.loads((REAL / "labels" / path.name).read_text(encoding="utf-8"))
    split = json.loads((REAL / "split.json").read_text(encoding="utf-8"))
    assert second["catalog"] == first["catalog"] and second["half"] == first["half"]
    assert path.stem in split[second["half"]]
    assert second["unlisted"] == "FP" and "misses" not in second and "extra" not in second
    keys = [(row["tool"], row["rule"], row["pointer"]) for row in second["findings"]]
    assert len(keys) == len(set(keys))
    tools = {tool["name"] for tool in json.loads((ROOT / second["catalog"]).read_text(encoding="utf-8"))["tools"]}
    assert {tool for tool, _, _ in keys} <= tools


def test_the_second_labels_cover_held_out_15() -> None:
    split = json.loads((REAL / "split.json").read_text(encoding="utf-8"))
    assert _agreement().catalogs() == sorted(split["held_out_15"])


def test_the_comparison_counts_shared_and_lone_labels_both_ways() -> None:
    bench = _agreement()
    a = {("t", "DESC-012", "/annotations"), ("t", "SCH-002", "/inputSchema"), ("u", "DESC-010", "/description")}
    b = {("t", "DESC-012", "/annotations"), ("t", "SCH-002", "/inputSchema"), ("u", "SCH-004", "/inputSchema/x")}
    b |= {("u", "DESC-010", "/inputSchema/y")}  # the same tool and rule as A's, at another pointer
    agreement = bench.compare(a, b)
    assert (len(agreement.both), len(agreement.only_a), len(agreement.only_b)) == (2, 1, 2)
    assert agreement.precision_b == 2 / 4 and agreement.recall_b == 2 / 3
    assert agreement.precision_a == 2 / 3 and agreement.recall_a == 2 / 4
    assert agreement.place_only == {("u", "DESC-010")}
    assert agreement.by_rule() == {
        "DESC-010": (0, 1, 1, 1),
        "DESC-012": (1, 0, 0, 0),
        "SCH-002": (1, 0, 0, 0),
        "SCH-004": (0, 0, 1, 0),
    }
    judged = agreement.without(bench.mechanical)  # no annotations object and an open root need no judgment
    assert (len(judged.a), len(judged.b), len(judged.both)) == (1, 2, 0)


def test_the_overall_comparison_keeps_equal_tool_names_of_two_catalogs_apart() -> None:
    bench = _agreement()
    key = ("search", "SCH-004", "/inputSchema/properties/query")
    per_catalog = {"one": bench.compare({key}, set()), "two": bench.compare(set(), {key})}
    total = bench.overall(per_catalog)
    assert (len(total.a), len(total.b), len(total.both)) == (1, 1, 0)


def test_empty_sets_agree_fully() -> None:
    agreement = _agreement().compare(set(), set())
    assert agreement.precision_b == agreement.recall_b == 1.0
