"""`mcptest rules [CODE]`: list the lint rules, or print one rule's documentation."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from mcptest.core.exit_codes import ExitCode


def register(app: typer.Typer) -> None:
    """Add `rules` to the app."""
    app.command("rules")(rules)


def rules(
    code: Annotated[str | None, typer.Argument(help="A rule code, e.g. DESC-009 or SEC-001.")] = None,
    json_output: Annotated[bool, typer.Option("--json", help="Print JSON on stdout.")] = False,
    no_color: Annotated[bool, typer.Option("--no-color", help="No ANSI colour.")] = False,
) -> int:
    """List the DESC and SCH lint rules and the SEC security rules, or print one rule's documentation."""
    from rich.console import Console
    from rich.markup import escape

    from mcptest.checks.lint import RULES, get_rule
    from mcptest.checks.lint.smells import smell_of
    from mcptest.checks.security.registry import SEC_RULES, get_sec_rule
    from mcptest.cli.common import use_color

    if code:
        chosen = [get_sec_rule(code) if code.strip().upper().startswith("SEC") else get_rule(code)]
    else:
        chosen = [*RULES, *SEC_RULES]
    if json_output:
        rows = [
            {
                "code": r.code,
                "name": r.name,
                "severity": r.severity.value,
                "smell": smell_of(r.code),
                "tier": "pedantic" if r.pedantic else "default",
                "summary": r.summary,
                "docs": r.docs,
            }
            for r in chosen
        ]
        sys.stdout.write(json.dumps(rows if code is None else rows[0], indent=2) + "\n")
        return ExitCode.OK
    color = use_color(no_color, sys.stdout)
    console = Console(file=sys.stdout, color_system="auto" if color else None, highlight=False, soft_wrap=True)
    if code is None:
        for r in chosen:
            tier = "pedantic" if r.pedantic else ""
            console.print(f"[bold]{r.code:<9}[/]{r.severity.value:<9}{tier:<9}{r.name:<34}{escape(r.summary)}")
        console.print(
            "\n[dim]mcptest rules CODE prints a rule's documentation. Pedantic rules are off by default: "
            "doctor --strict, or --select with the exact code, turns them on.[/]"
        )
        return ExitCode.OK
    rule = chosen[0]
    smell = smell_of(rule.code)
    tier = f", pedantic: off by default, on with --strict or --select {rule.code}" if rule.pedantic else ""
    console.print(
        f"[bold]{rule.code}[/] {rule.name} ({rule.severity.value}{f', smell: {smell}' if smell else ''}{tier})\n"
    )
    console.print(escape(rule.docs))
    return ExitCode.OK
