"""`mcptest report`: re-render a saved JSON report, or compare it with a baseline."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from mcptest.core.exit_codes import ExitCode

if TYPE_CHECKING:
    from mcptest.records.report import Report


def register(app: typer.Typer) -> None:
    """Add `report` to the app."""
    app.command("report")(report)


def report(
    run_json: Annotated[
        list[str],
        typer.Argument(help="A report saved by `mcptest run --reporter json`; or `merge SHARD.json...`."),
    ],
    format: Annotated[
        str,
        typer.Option("--format", "-f", help="pretty, json, junit, md, sarif, html, agent, codequality or pr-comment."),
    ] = "pretty",
    output: Annotated[str | None, typer.Option("--output", "-o", help="Write here (default: stdout).")] = None,
    compare: Annotated[
        str | None,
        typer.Option("--compare", help="A baseline JSON report, or from the run history: last, last-green, main."),
    ] = None,
    json_output: Annotated[bool, typer.Option("--json", help="With --compare: the delta as JSON.")] = False,
    advisory: Annotated[bool, typer.Option("--advisory", help="Exit 0 even on a regression.")] = False,
    no_color: Annotated[bool, typer.Option("--no-color", help="No ANSI colour.")] = False,
    coverage: Annotated[
        bool,
        typer.Option(
            "--coverage",
            help="Only the run's coverage of each server's catalog, every untested item (pretty, json, md).",
        ),
    ] = False,
    history: Annotated[
        str | None,
        typer.Option(
            "--history",
            help="merge: store the merged run in this history; html: draw this history (default: the suite's).",
        ),
    ] = None,
    no_history: Annotated[
        bool, typer.Option("--no-history", help="merge: do not store the merged run; html: draw no history.")
    ] = False,
    link: Annotated[
        str | None,
        typer.Option("--link", help="pr-comment: the run's URL (default: from GITHUB_* or CI_JOB_URL when set)."),
    ] = None,
) -> int:
    """Re-render a JSON report; with --compare, show its delta and exit 1 on any regression.

    `mcptest report merge shard-*.json -o run.json` merges the reports of `mcptest run --shard K/N` into one."""
    from mcptest.cli.common import check_output, emit, keep_until_exit, loading, use_color
    from mcptest.core.errors import usage_error
    from mcptest.report.formats import REPORTERS, render_compared
    from mcptest.report.load import load_report

    if run_json[0] == "merge":
        return _merge(run_json[1:], format, output, compare, json_output, None if no_history else history or "")
    if len(run_json) > 1:
        raise usage_error(f"report takes one report (got {len(run_json)}); to merge shards: mcptest report merge ...")
    path = run_json[0]
    if format == "pr-comment":
        return _pr_comment(path, compare, output, link, history)
    if format not in REPORTERS:
        raise usage_error(f"--format: unknown format '{format}'; formats are {', '.join(REPORTERS)}")
    if json_output and not compare:
        raise usage_error("--json prints the comparison and needs --compare; use --format json to re-render")
    check_output(output)
    color = use_color(no_color) and not output
    if coverage:
        return _coverage(path, format, output, compare)
    if not compare:
        with loading():
            current = load_report(path)
        if format == "html" and not no_history:  # the page draws the suite's history, when it has one
            from mcptest.core.printable import printable
            from mcptest.report.formats import html_with_history

            page, warning = html_with_history(current, _history_of(current, history))
            if warning is not None:
                print(printable(warning), file=sys.stderr)
            emit(page, output, f"the {format} report")
            return ExitCode.OK
        emit(REPORTERS[format](current, color), output, f"the {format} report")
        return ExitCode.OK
    from mcptest.report.compare import compare as compare_reports
    from mcptest.report.compare import shared_cases
    from mcptest.report.delta_text import summary
    from mcptest.report.history_baseline import BASELINES, baseline_from_history, label_failures

    with loading():  # two reports and their delta: ~half the time at 50,000 results was the cyclic GC walking them
        current = load_report(path)
        if compare in BASELINES and not Path(compare).exists():  # from the run history, each failure labelled
            baseline, flaky = baseline_from_history(current, compare, _store_url(current, history))
            comparison = label_failures(compare_reports(baseline, current), flaky)
        else:
            baseline = load_report(compare, "baseline")
            comparison = compare_reports(baseline, current)
    if comparison.cases and not shared_cases(comparison):
        raise usage_error(
            f"{path} and {compare} share no case (suites {current.suite} and {baseline.suite}): "
            "nothing to compare; compare two runs of the same suite"
        )
    keep_until_exit(current, baseline, comparison)
    emit(render_compared(current, comparison, "json-delta" if json_output else format, color), output)
    if json_output or output or format != "pretty":
        print(f"mcptest {summary(comparison)}", file=sys.stderr)
    return ExitCode.FAILED if comparison.regressed and not advisory else ExitCode.OK


def _coverage(path: str, format: str, output: str | None, compare: str | None) -> int:
    """`--coverage`: the saved run's coverage section alone."""
    from mcptest.cli.common import emit, loading
    from mcptest.core.errors import usage_error
    from mcptest.report.coverage import COVERAGE_FORMATS, render_coverage
    from mcptest.report.load import load_report

    if compare:
        raise usage_error("--coverage shows one run's coverage; compare runs without it")
    if format not in COVERAGE_FORMATS:
        raise usage_error(f"--coverage: format '{format}' not offered; formats are {', '.join(COVERAGE_FORMATS)}")
    with loading():
        current = load_report(path)
    if current.coverage is None:
        raise usage_error(f"{path} holds no coverage: its run called no server (or an older mcptest wrote it)")
    gates = [g for g in current.gates if g.block == "coverage"]
    emit(render_coverage(current.coverage, format, gates), output, "the coverage")
    return ExitCode.OK


def _pr_comment(path: str, compare: str | None, output: str | None, link: str | None, history: str | None) -> int:
    """One PR comment for the run (against its baseline with --compare); exit 0: the comment reports, never gates."""
    import os

    from mcptest.cli.common import check_output, emit, loading
    from mcptest.report.load import load_report
    from mcptest.report.pr_comment import render_pr_comment

    check_output(output)
    with loading():
        current = load_report(path)
        comparison = None
        if compare:
            from mcptest.report.compare import compare as compare_reports
            from mcptest.report.history_baseline import BASELINES, baseline_from_history, label_failures

            if compare in BASELINES and not Path(compare).exists():
                baseline, flaky = baseline_from_history(current, compare, _store_url(current, history))
                comparison = label_failures(compare_reports(baseline, current), flaky)
            else:
                comparison = compare_reports(load_report(compare, "baseline"), current)
    emit(render_pr_comment(current, comparison, link or run_link(os.environ)), output, "the PR comment")
    return ExitCode.OK


def run_link(environ: Mapping[str, str]) -> str | None:
    """The CI run's page: GitHub Actions' run URL, or GitLab's job URL; None elsewhere."""
    server, repo, run_id = (environ.get(k) for k in ("GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_RUN_ID"))
    if server and repo and run_id:
        return f"{server}/{repo}/actions/runs/{run_id}"
    return environ.get("CI_JOB_URL") or None


def _store_url(current: Report, flag: str | None) -> str:
    """The history a report's baseline is read from: `--history`, else MCPTEST_HISTORY, else beside its suite."""
    import os

    from mcptest.history.location import default_url, history_url

    return history_url(current.suite, flag, environ=os.environ) or default_url(current.suite)


def _history_of(current: Report, flag: str | None) -> str | None:
    """The history an HTML report draws: `--history`, else MCPTEST_HISTORY (`off`: none), else beside its suite."""
    import os

    from mcptest.history.location import history_url

    return history_url(current.suite, flag, environ=os.environ)


def _merge(
    paths: list[str], format: str, output: str | None, compare: str | None, json_output: bool, history: str | None
) -> int:
    """Merge shard reports; unless `history` is None, store the whole run ("" means the suite's default store)."""
    from mcptest.cli.common import emit, loading
    from mcptest.core.errors import usage_error
    from mcptest.report.formats import REPORTERS
    from mcptest.report.load import load_report
    from mcptest.report.merge import merge_reports

    if compare or json_output:
        raise usage_error("report merge writes the merged report; compare it afterwards with mcptest report --compare")
    if format not in REPORTERS:
        raise usage_error(f"--format: unknown format '{format}'; formats are {', '.join(REPORTERS)}")
    if not paths:
        raise usage_error("report merge needs the shard reports: mcptest report merge shard-*.json -o run.json")
    from mcptest.load.merge import is_load_report

    if is_load_report(paths[0]):
        return _merge_loads(paths, output)
    with loading():
        shards = [(p, load_report(p)) for p in paths]
        merged = merge_reports(shards)
    emit(REPORTERS["json" if format == "pretty" and output else format](merged, False), output)
    print(f"mcptest: merged {len(paths)} reports: {merged.summary.total} results, {len(merged.gates)} gates",
          file=sys.stderr)  # fmt: skip
    if history is not None:
        _remember_merge(merged, [r.started_at for _, r in shards], history)
    return ExitCode.OK if merged.ok else ExitCode.FAILED


def _merge_loads(paths: list[str], output: str | None) -> int:
    """Merge `mcptest load --shard K/N` reports: the JSON report to `output` (or stdout), the table to stderr."""
    from mcptest.cli.common import emit
    from mcptest.cli.load import render
    from mcptest.load.merge import merge_loads, read_load_report

    merged = merge_loads([(p, read_load_report(p)) for p in paths])
    emit(merged.model_dump_json(indent=2) + "\n", output, "the merged load report")
    print(render(merged), file=sys.stderr)
    return ExitCode.OK if not sum(merged.overall.errors.values()) else ExitCode.FAILED


def _remember_merge(merged: Report, shard_starts: list[str], flag: str) -> None:
    """Store the merged run; the shards' own stored runs are marked as part of it, so no test counts twice."""
    import os

    from mcptest.core.printable import printable
    from mcptest.history.location import history_url
    from mcptest.history.recording import record_run

    url = history_url(merged.suite, flag or None, environ=os.environ)
    if url is not None and (warning := record_run(merged, url, environ=os.environ, source="merge",
                                                  merged=shard_starts)):  # fmt: skip
        print(printable(warning), file=sys.stderr)
