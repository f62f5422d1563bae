"""Recorded agent runs named by a suite: trace files and inline `tool_calls:`, loaded when the suite loads."""

from __future__ import annotations

from pathlib import Path

from mcptest.core.errors import Problem, UserError, where
from mcptest.core.yaml_source import SourceDoc
from mcptest.records.otlp import OtlpImport, is_otlp, load_otlp
from mcptest.records.phoenix import is_phoenix, load_phoenix
from mcptest.records.trace import Trace, load_traces, trace_from_inline
from mcptest.suite.agents import AgentTest, TraceFile
from mcptest.suite.blocks.registry import block_problems, blocks_of
from mcptest.suite.live import live_problems, recorded_problems


def load_recorded_runs(agents: list[AgentTest], doc: SourceDoc) -> list[Problem]:
    """Attach each agent test's recorded runs; every missing or broken trace file is a problem."""
    problems: list[Problem] = []
    base = Path(doc.path).parent
    for i, test in enumerate(agents):
        loc = ("agents", i)
        for message in block_problems(blocks_of(test)):
            problems.append(doc.problem(loc, f"{where(loc)}: {message}"))
        if test.tool_calls is not None:
            tokens = {"total": test.tokens} if test.tokens is not None else None
            test._recorded = [
                trace_from_inline(
                    test.tool_calls,
                    model=test.model,
                    prompt=test.prompt,
                    final_response=test.final_response,
                    tokens=tokens,
                )
            ]
        elif test.traces is not None:
            test._recorded, found = _trace_files(test, doc, base, i)
            problems += found
        else:
            problems += live_problems(test, doc, i)
        if test.recorded:
            problems += recorded_problems(test, doc, i)
    return problems


def _trace_files(test: AgentTest, doc: SourceDoc, base: Path, i: int) -> tuple[list[Trace], list[Problem]]:
    traces: list[Trace] = []
    problems: list[Problem] = []
    for j, entry in enumerate(test.traces or []):
        name, group_by = (entry.file, entry.group_by) if isinstance(entry, TraceFile) else (entry, None)
        loc = ("agents", i, "traces", j)
        if is_phoenix(name):  # a Phoenix project through its REST API: its problems point at this entry
            try:
                imported = load_phoenix(name, group_by)
            except UserError as exc:
                problems += [doc.problem(loc, f"{where(loc)}: {p}") for p in exc.problems]
                continue
            traces += imported.traces
            problems += _imported(test, imported, name, doc, loc)
            continue
        path = base / name
        if not path.is_file():
            problems.append(doc.problem(loc, f"{where(loc)}: no trace file '{name}' (looked for {path})"))
            continue
        try:
            if is_otlp(path):
                imported = load_otlp(path, group_by)
                traces += imported.traces
                problems += _imported(test, imported, name, doc, loc)
            elif group_by is not None:
                problems.append(doc.problem((*loc, "group_by"), f"{where(loc)}: `group_by` is for OTLP files"))
            else:
                traces += load_traces(path)
        except UserError as exc:
            problems += exc.problems
    if not traces and not problems:
        problems.append(doc.problem(("agents", i, "traces"), f"{where(('agents', i, 'traces'))}: no runs recorded"))
    return traces, problems


def _imported(
    test: AgentTest, imported: OtlpImport, name: str, doc: SourceDoc, loc: tuple[str | int, ...]
) -> list[Problem]:
    """The gates an OpenTelemetry import cannot feed, as problems; its skipped spans as a note of the test."""
    if (note := imported.skipped_note(name)) is not None:
        test._notes.append(note)
    return [doc.problem(loc, f"{where(loc)}: {m}") for m in imported.gate_problems(blocks_of(test), name)]
