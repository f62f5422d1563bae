"""CI output beside a command's own: annotations at each failure's place, and the GitHub job summary."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from mcptest.records.report import Report
    from mcptest.report.annotations import Annotation

AnnotationsOpt = Annotated[
    str,
    typer.Option(
        "--annotations",
        help="CI annotations at each failure's line: auto (github under GITHUB_ACTIONS=true), off, github, gitlab.",
    ),
]


def chosen_mode(flag: str) -> str:
    """The annotation mode for this process (a usage error, exit 2, for an unknown one)."""
    from mcptest.report.annotations import annotation_mode

    return annotation_mode(flag, os.environ)


def annotate(annotations: Sequence[Annotation], mode: str) -> None:
    """`github`: the workflow commands on stderr (the runner reads both streams; stdout may carry a report);
    `gitlab`: the Code Quality report written to gl-code-quality-report.json."""
    from mcptest.report.annotations import CODEQUALITY_FILE, codequality, github_commands

    if mode == "github":
        for line in github_commands(annotations):
            print(line, file=sys.stderr)
    elif mode == "gitlab":
        from mcptest.cli.common import emit

        emit(codequality(annotations), CODEQUALITY_FILE, "the GitLab Code Quality report")


def annotate_run(report: Report, mode: str) -> None:
    """A run's failures as annotations, and its Markdown summary appended to `$GITHUB_STEP_SUMMARY` when set."""
    if mode == "off":
        return
    from mcptest.report.annotations import run_annotations

    annotate(run_annotations(report), mode)
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary:
        from mcptest.report.formats import REPORTERS

        try:  # GitHub's file to append to, as every step does: not a report of ours to replace atomically
            with open(summary, "a", encoding="utf-8") as f:
                f.write(REPORTERS["md"](report, False))
        except OSError as exc:
            print(f"mcptest: warning: GITHUB_STEP_SUMMARY {summary}: {exc.strerror}", file=sys.stderr)
