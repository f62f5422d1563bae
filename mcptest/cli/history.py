"""`mcptest history`: what the run history says about a suite, a test, or its flaky tests."""

from __future__ import annotations

import os
import sys
from datetime import UTC, datetime
from typing import Annotated

import typer

from mcptest.core.exit_codes import ExitCode

USAGE = (
    "mcptest history [SUITE] | history test NAME [--suite SUITE] | history flaky [--suite SUITE] [--suggest] | "
    "history load [--suite SUITE]"
)


def register(app: typer.Typer) -> None:
    """Add `history` to the app."""
    app.command("history")(history)


def history(
    args: Annotated[
        list[str] | None, typer.Argument(help="[SUITE], `test NAME`, `flaky` or `load`.", show_default=False)
    ] = None,
    suite: Annotated[
        str | None, typer.Option("--suite", help="The suite (default: mcptest.yaml or mcptest.yml).")
    ] = None,
    store: Annotated[
        str | None, typer.Option("--history", help="The store (default: MCPTEST_HISTORY, else the suite's own file).")
    ] = None,
    json_output: Annotated[bool, typer.Option("--json", help="Print JSON (schema/history-*.v1.json).")] = False,
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, help="Runs listed, or a test's runs judged.")] = 20,
    window: Annotated[int, typer.Option("--window", min=2, help="flaky: each test's last N runs.")] = 20,
    min_runs: Annotated[int, typer.Option("--min-runs", min=2, help="flaky: fewer runs are never flaky.")] = 5,
    threshold: Annotated[float, typer.Option("--threshold", min=0, max=1, help="flaky: flip rate above this.")] = 0.1,
    suggest: Annotated[bool, typer.Option("--suggest", help="flaky: print the `quarantine:` YAML to add.")] = False,
) -> int:
    """The suite's last runs; `test NAME`: its timeline, pass and flip rates; `flaky`: the tests that flip; `load`:
    its last loads (`mcptest load`), each operation's p95 and calls/s per commit."""
    from mcptest.cli.common import loading
    from mcptest.core.errors import usage_error

    words = list(args or [])
    what = words[0] if words and words[0] in ("test", "flaky", "load") else "runs"
    if what == "test" and len(words) != 2:
        raise usage_error(f"history test takes one test name (got {len(words) - 1}); usage: {USAGE}")
    if what in ("flaky", "load") and len(words) != 1:
        raise usage_error(f"history {what} takes no argument (got {' '.join(words[1:])}); usage: {USAGE}")
    if what == "runs" and len(words) > 1:
        raise usage_error(f"history takes one suite (got {len(words)}); usage: {USAGE}")
    if suggest and what != "flaky":
        raise usage_error("--suggest goes with `history flaky`")
    with loading():
        from mcptest.history import queries, render
        from mcptest.history.context import suite_identity
        from mcptest.history.location import default_url, history_url, missing_file
        from mcptest.history.recording import LOAD_SUFFIX
        from mcptest.history.store import HistoryError, open_store
        from mcptest.suite.loader import find_suite

        suite_file = find_suite(words[0] if what == "runs" and words else suite)
        # MCPTEST_HISTORY=off stops runs recording; what was recorded beside the suite can still be read
        url = history_url(suite_file, store, environ=os.environ) or default_url(suite_file)
        if (missing := missing_file(url)) is not None:  # reading creates nothing beside the suite
            print(f"no history yet: {missing} does not exist (each run of the suite records into it)")
            return ExitCode.OK
        try:
            opened = open_store(url)
        except HistoryError as exc:
            raise usage_error(str(exc)) from None
    name = suite_identity(suite_file)
    with opened:
        if what == "test":
            found = queries.history_of_test(opened, name, words[1], limit)
            text = found.model_dump_json(indent=2) + "\n" if json_output else render.text_of_test(found)
        elif what == "load":
            loads = queries.load_history(opened, name + LOAD_SUFFIX, limit)
            text = loads.model_dump_json(indent=2) + "\n" if json_output else render.load_text(loads)
        elif what == "flaky":
            flaky = queries.flaky(opened, name, window, min_runs, threshold)
            if suggest:
                text = render.suggestion(flaky, datetime.now(UTC).date())
            else:
                text = flaky.model_dump_json(indent=2) + "\n" if json_output else render.flaky_text(flaky)
        else:
            runs = queries.run_list(opened, name, limit)
            text = runs.model_dump_json(indent=2) + "\n" if json_output else render.runs_text(runs)
            others = opened.suites() if not json_output else []
            if not json_output and name + LOAD_SUFFIX in others:  # the suite's last loads, beside its runs
                text += "\n" + render.load_text(queries.load_history(opened, name + LOAD_SUFFIX, min(limit, 5)))
            elif not runs.runs and others:
                print(f"mcptest: the store holds runs of {', '.join(others[:5])}", file=sys.stderr)
    sys.stdout.write(text)
    return ExitCode.OK
