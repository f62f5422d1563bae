"""Recorded agent runs named by a suite: trace files and inline `tool_calls:`, loaded when the suite loads."""

from __future__ import annotations

from pathlib import Path

from mcptest.core.errors import Problem, UserError
from mcptest.core.validation import where
from mcptest.core.yaml_source import SourceDoc
from mcptest.records.otlp import is_otlp, load_otlp
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
        path = base / name
        if not path.is_file():
            problems.append(doc.problem(loc, f"{where(loc)}: no trace file '{name}' (looked for {path})"))
            continue
        try:
            if is_otlp(path):
                imported = load_otlp(path, group_by)
                traces += imported.traces
                gates = blocks_of(test)
                problems += [doc.problem(loc, f"{where(loc)}: {m}") for m in imported.gate_problems(gates, name)]
                if (note := imported.skipped_note(name)) is not None:
                    test._notes.append(note)
            elif group_by is not None:
                problems.append(doc.problem((*loc, "group_by"), f"{where(loc)}: `group_by` is for OTLP files"))
            else:
                traces += load_traces(path)
        except UserError as exc:
            problems += exc.problems
    if not traces and not problems:
        problems.append(doc.problem(("agents", i, "traces"), f"{where(('agents', i, 'traces'))}: no runs recorded"))
    return traces, problems
