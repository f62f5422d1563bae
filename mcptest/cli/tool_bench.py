"""`mcptest tool-bench run`: does a description change move tool selection? Mutate, re-select, measure."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from mcptest.core.exit_codes import ExitCode
from mcptest.core.figures import plural
from mcptest.core.printable import printable

if TYPE_CHECKING:
    from rich.console import Console

    from mcptest.bench.report import Accuracy, BenchReport


def register(app: typer.Typer) -> None:
    """Add `tool-bench run` to the app."""
    bench = typer.Typer(help="Benchmark how tool descriptions drive tool selection.", no_args_is_help=True)
    bench.command("run")(run)
    app.add_typer(bench, name="tool-bench")


def run(
    spec: Annotated[str, typer.Argument(help="The tool-bench spec (YAML).")],
    min_drop: Annotated[
        float | None,
        typer.Option("--min-drop", help="Exit 1 unless some mutation drops accuracy by at least this fraction."),
    ] = None,
    json_output: Annotated[bool, typer.Option("--json", help="Print the whole report as JSON.")] = False,
    selector: Annotated[
        str,
        typer.Option(
            "--selector",
            help="lexical, embedding or model:<id> (a real model's picks, replayed from "
            "<spec folder>/cassettes/tool-bench/<spec>/<model>.json).",
        ),
    ] = "lexical",
    record: Annotated[
        bool,
        typer.Option(
            "--record",
            help="With model:<id>: ask the model for every pick the cassette lacks (key from "
            "ANTHROPIC_API_KEY / OPENAI_API_KEY) and rewrite the cassette.",
        ),
    ] = False,
    provider: Annotated[
        str | None,
        typer.Option("--provider", help="anthropic or openai, for a model id with no known prefix."),
    ] = None,
    base_url: Annotated[
        str | None,
        typer.Option(
            "--base-url",
            help="An OpenAI-compatible server (Ollama, vLLM); default: OPENAI_BASE_URL / ANTHROPIC_BASE_URL.",
        ),
    ] = None,
    no_color: Annotated[bool, typer.Option("--no-color", help="No ANSI colour.")] = False,
) -> int:
    """Score the catalog's tool selection, apply each mutation alone, and report the drops.

    Without --record, model:<id> only replays its cassette (no key, no network); a missing pick exits 2 with the
    command that records it.
    """
    from mcptest.bench.loading import load_spec
    from mcptest.bench.options import LIVE_PROVIDERS, ModelOptions, PicksFailed
    from mcptest.bench.run import run_bench
    from mcptest.bench.selectors import model_id, resolve
    from mcptest.core.errors import did_you_mean, usage_error

    if min_drop is not None and not 0 <= min_drop <= 1:
        raise usage_error(f"--min-drop: a fraction between 0 and 1, got {min_drop}")
    given = [flag for flag, on in (("--record", record), ("--provider", provider), ("--base-url", base_url)) if on]
    if model_id(selector) is None and given:
        raise usage_error(f"{given[0]}: only for --selector model:<id>")
    if provider is not None and provider not in LIVE_PROVIDERS:
        hint = did_you_mean(provider, list(LIVE_PROVIDERS))
        raise usage_error(f"--provider: unknown provider {provider!r}{hint}; choose {' or '.join(LIVE_PROVIDERS)}")
    bench = load_spec(spec)
    try:
        chosen, notes = resolve(selector, bench, ModelOptions(record=record, provider=provider, base_url=base_url))
    except PicksFailed as exc:
        print(printable(str(exc)), file=sys.stderr)
        return ExitCode.FAILED
    for note in notes:
        print(printable(note), file=sys.stderr)
    report = run_bench(bench, chosen, min_drop)
    if json_output:
        sys.stdout.write(report.model_dump_json(indent=2) + "\n")
    else:
        _print(report, no_color)
    return ExitCode.FAILED if report.passed is False else ExitCode.OK


def _print(report: BenchReport, no_color: bool) -> None:
    from rich.console import Console

    from mcptest.cli.common import use_color
    from mcptest.core.printable import markup_safe as escape

    color = use_color(no_color, sys.stdout)
    console = Console(file=sys.stdout, color_system="auto" if color else None, highlight=False, soft_wrap=True)
    c = report.catalog
    console.print(f"[bold]tool-bench[/] {escape(report.spec)}  selector {report.selector}")
    console.print(
        f"catalog: {plural(c.tools, 'tool')}, TDQS mean {c.tdqs_mean:.3f} min {c.tdqs_min:.3f}, "
        f"{plural(c.smell_total, 'smell')}{_smells(c.smells)}, {c.whitespace_tokens} words (whitespace estimate), "
        f"{c.cl100k_tokens} cl100k_base tokens"
    )
    console.print(f"baseline: {_accuracy(report.baseline)}")
    for i, intent in enumerate(report.intents):
        if not intent.correct:
            picked = intent.picked or "nothing"
            tie = f" (tied with {intent.tied - 1} more)" if intent.tied > 1 else ""
            console.print(
                f"  [yellow]miss[/] #{i} {escape(intent.query)!r}: picked {escape(picked)}{tie}, "
                f"gold {escape(', '.join(intent.gold))}"
            )
    _print_mutations(console, report)


def _print_mutations(console: Console, report: BenchReport) -> None:
    from mcptest.core.printable import markup_safe as escape

    if not report.mutations:
        console.print("no mutations")
    for m in report.mutations:
        label = m.kind if m.kind in ("blank", "genericize") else f"{m.kind}({m.chars if m.word is None else m.word})"
        mark = "[red]significant[/]" if m.significant else "[dim]not significant[/]"
        console.print(
            f"{escape(label)} {escape(m.tool)}: {_accuracy(m.accuracy)}, drop {m.drop:+.1%} "
            f"({len(m.lost)} lost, {len(m.gained)} gained, p={m.p_value:.3g}, {mark}); "
            f"TDQS {m.tdqs_before:.3f} -> {m.tdqs_after:.3f}{_smells(m.smells_introduced, 'new smells: ')}; "
            f"{m.tokens_removed} tokens removed"
        )
    if report.min_drop is not None:
        largest = "none" if report.max_drop is None else f"{report.max_drop:.1%}"
        verdict = "[green]PASS[/]" if report.passed else "[red]FAIL[/]"
        console.print(f"{verdict} largest drop {largest}, --min-drop {report.min_drop:.1%}")


def _accuracy(a: Accuracy) -> str:
    return f"{a.correct}/{a.total} correct ({a.accuracy:.1%}, 95% CI {a.wilson_low:.1%}–{a.wilson_high:.1%})"


def _smells(smells: dict[str, int], lead: str = "") -> str:
    found = ", ".join(f"{k} {v}" for k, v in smells.items() if v)
    return f" ({lead}{found})" if found else ""
