"""Compare: cases matched by identity, deltas, and the verdict rule of `mcptest.report.compare`."""

from __future__ import annotations

import jsonschema

from mcptest.records.report import GateReport
from mcptest.report.compare import compare
from mcptest.report.delta import CaseKind, Comparison, Verdict
from mcptest.schemas import SCHEMAS
from tests.report.build import F, P, agent_runs, fixed_report, report, result, selection_gate


def only(c: Comparison, verdict: Verdict) -> list[str]:
    return [d.label for d in c.cases if d.verdict == verdict]


def changed(c: Comparison) -> dict[str, Verdict]:
    return {d.label: d.verdict for d in c.cases if d.verdict != Verdict.UNCHANGED}


def test_identical_reports_have_no_deltas_and_no_regression() -> None:
    c = compare(fixed_report(), fixed_report())
    assert changed(c) == {}
    assert not c.regressed
    assert all(f.delta == 0 for d in c.cases for f in d.figures)
    assert c.totals[Verdict.UNCHANGED] == len(c.cases) == 9 + 1 + 1  # rows, the runs group, the gate


def test_the_delta_document_satisfies_its_committed_schema() -> None:
    c = compare(report([result("a"), result("gone")]), fixed_report())
    jsonschema.validate(c.model_dump(mode="json"), SCHEMAS["compare.v1.json"]())


def test_a_test_that_flips_to_failed_is_a_regression_and_back_an_improvement() -> None:
    down = compare(report([result("a", P)]), report([result("a", F)]))
    up = compare(report([result("a", F)]), report([result("a", P)]))
    assert (changed(down), down.regressed, down.cases[0].note) == ({"a": Verdict.REGRESSION}, True, "")
    assert (changed(up), up.regressed) == ({"a": Verdict.IMPROVEMENT}, False)


def test_a_floor_flip_on_a_significant_fall_is_a_regression() -> None:
    c = compare(report([], [selection_gate("w", None, 10, 10)]), report([], [selection_gate("w", None, 2, 10)]))
    gate = c.cases[0]
    assert (gate.kind, gate.verdict, c.regressed) == (CaseKind.GATE, Verdict.REGRESSION, True)
    assert [(r.target, r.significant) for r in gate.rates] == [
        ("tool_selection.selection_rate", True),
        ("tool_selection.pass_k", True),
    ]
    assert gate.rates[0].note == "significant (p = 0.000714, 10/10 → 2/10)"


def test_a_floor_flip_on_noise_says_how_many_runs_would_tell() -> None:
    c = compare(report([], [selection_gate("w", None, 9, 10)]), report([], [selection_gate("w", None, 7, 10)]))
    gate = c.cases[0]
    assert (gate.baseline_status, gate.current_status, gate.verdict, c.regressed) == (P, F, Verdict.NOISE, False)
    assert gate.rates[0].runs_needed == 72
    assert gate.note.startswith(
        "the flip rests on noise: tool_selection.selection_rate, tool_selection.pass_k fell: "
        "not significant at this N (p = 0.58, 9/10 → 7/10); about 72 runs would be needed"
    )


def test_a_significant_fall_above_the_floor_is_still_a_regression() -> None:
    before, after = selection_gate("w", None, 20, 20, floor=0.3), selection_gate("w", None, 8, 20, floor=0.3)
    c = compare(report([], [before]), report([], [after]))
    assert (after.status, c.cases[0].verdict) == (P, Verdict.REGRESSION)


def test_a_significant_rise_is_an_improvement_and_a_small_one_noise() -> None:
    big = compare(report([], [selection_gate("w", None, 2, 20)]), report([], [selection_gate("w", None, 18, 20)]))
    small = compare(report([], [selection_gate("w", None, 16, 20)]), report([], [selection_gate("w", None, 17, 20)]))
    assert big.cases[0].verdict == Verdict.IMPROVEMENT
    assert (small.cases[0].verdict, small.cases[0].rates[0].significant) == (Verdict.NOISE, False)


def test_a_flip_with_no_rate_behind_it_is_a_regression() -> None:
    before = selection_gate("w", None, 10, 10)
    after = before.model_copy(update={"status": F, "detail": {"breaches": ["FLOOR w: 1 of 10 runs exceeded"]}})
    c = compare(report([], [before]), report([], [after]))
    assert (c.cases[0].verdict, c.cases[0].rates) == (Verdict.REGRESSION, [])


def test_new_and_removed_tests_are_flagged_but_not_regressions() -> None:
    c = compare(report([result("kept"), result("gone")]), report([result("kept"), result("added", F)]))
    assert [(d.label, d.verdict) for d in c.cases] == [
        ("kept", Verdict.UNCHANGED),
        ("added", Verdict.NEW),
        ("gone", Verdict.REMOVED),
    ]
    assert (c.cases[1].baseline_status, c.cases[2].current_status, c.regressed) == (None, None, False)


def test_cases_are_matched_by_file_model_and_run_not_by_position() -> None:
    before = report([result("a", file="one.yml"), *agent_runs("w", "m1", "PP")])
    after = report([*agent_runs("w", "m2", "PP"), result("a", file="two.yml")])
    c = compare(before, after)
    assert [(d.file, d.label, d.verdict) for d in c.cases] == [
        ("suites/weather.yml", "w [m2] #1", Verdict.NEW),
        ("suites/weather.yml", "w [m2] #2", Verdict.NEW),
        ("two.yml", "a", Verdict.NEW),
        ("suites/weather.yml", "w [m2] (runs)", Verdict.NEW),
        ("one.yml", "a", Verdict.REMOVED),
        ("suites/weather.yml", "w [m1] #1", Verdict.REMOVED),
        ("suites/weather.yml", "w [m1] #2", Verdict.REMOVED),
        ("suites/weather.yml", "w [m1] (runs)", Verdict.REMOVED),
    ]
    assert (c.models_added, c.models_removed) == (["m2"], ["m1"])


def test_one_run_that_flips_is_judged_with_its_siblings() -> None:
    c = compare(report(agent_runs("w", "m", "P" * 10)), report(agent_runs("w", "m", "PPPPPPPPFP")))
    assert changed(c) == {"w [m] #9": Verdict.CHANGED, "w [m] (runs)": Verdict.NOISE}
    runs = next(d for d in c.cases if d.kind == CaseKind.RUNS)
    assert [(f.name, f.baseline, f.current) for f in runs.figures] == [
        ("passed", 10, 9), ("runs", 10, 10), ("pass_rate", 100, 90),
    ]  # fmt: skip
    assert not c.regressed


def test_many_runs_that_fail_together_are_a_regression() -> None:
    c = compare(report(agent_runs("w", "m", "P" * 10)), report(agent_runs("w", "m", "FFFFFFFFPP")))
    assert changed(c)["w [m] (runs)"] == Verdict.REGRESSION
    assert c.regressed


def test_moved_figures_without_a_status_change_are_changed_and_wall_time_is_not() -> None:
    slower = compare(report([result("a", duration_ms=10.0)]), report([result("a", duration_ms=99.0)]))
    costlier = compare(
        report([result("a", targets={"cost_usd": 0.01})]), report([result("a", targets={"cost_usd": 0.02})])
    )
    assert slower.cases[0].verdict == Verdict.UNCHANGED
    assert [(f.name, f.delta) for f in slower.cases[0].figures] == [("duration_ms", 89.0)]
    assert (costlier.cases[0].verdict, costlier.cases[0].figures[1].delta) == (Verdict.CHANGED, 0.01)


def test_a_changed_suite_is_flagged() -> None:
    c = compare(report([result("a")]), report([result("a")], suite="suites/other.yml"))
    assert (c.suite_changed, c.baseline.suite, c.current.suite) == (True, "suites/weather.yml", "suites/other.yml")


def test_pass_k_counts_come_from_its_percent_and_distractors_from_successes() -> None:
    def distractors(successes: int) -> GateReport:
        targets = {"distractors.accuracy": 10 * successes, "distractors.successes": successes, "distractors.runs": 10}
        return GateReport(test="d", block="distractors", file="s.yml", line=1, status=P, runs=10, targets=targets)

    c = compare(report([], [distractors(10)]), report([], [distractors(3)]))
    assert [(r.target, r.baseline_passes, r.current_passes) for r in c.cases[0].rates] == [
        ("distractors.accuracy", 10, 3)
    ]
    pass_k = compare(report([], [selection_gate("w", None, 8, 9)]), report([], [selection_gate("w", None, 4, 9)]))
    assert ("tool_selection.pass_k", 8, 4) in [
        (r.target, r.baseline_passes, r.current_passes) for r in pass_k.cases[0].rates
    ]


def test_a_gate_may_state_its_pass_counts_in_detail() -> None:
    def gate(passes: int) -> GateReport:
        return GateReport(
            test="g", block="custom", file="s.yml", line=1, status=P, runs=30,
            targets={"custom.rate": passes / 30}, detail={"passes": {"custom.rate": passes}},
        )  # fmt: skip

    c = compare(report([], [gate(29)]), report([], [gate(12)]))
    assert (c.cases[0].rates[0].target, c.cases[0].verdict) == ("custom.rate", Verdict.REGRESSION)


def test_two_tests_with_one_identity_both_stay_visible() -> None:
    c = compare(report([result("a"), result("a")]), report([result("a"), result("a", F)]))
    assert [(d.test, d.verdict) for d in c.cases] == [("a", Verdict.UNCHANGED), ("a (again)", Verdict.REGRESSION)]


def test_a_pass_count_is_recovered_from_a_percent_exactly_when_only_one_count_gives_it() -> None:
    from mcptest.core.stats import percent
    from mcptest.report.cases import _from_percent

    for n in range(1, 160):
        for k in range(n + 1):
            givers = [j for j in range(n + 1) if percent(j, n) == percent(k, n)]
            assert _from_percent(percent(k, n), n) == (givers[0] if len(givers) == 1 else None), (k, n)
