"""`mcptest fuzz`'s run: each chosen tool called with inputs from its inputSchema (`fuzz.inputs`), every answer
judged (`fuzz.classify`), a hang confirmed by a second try, and each finding class's first input shrunk to a minimal
one (`fuzz.shrink`, Hypothesis's shrinker) before it is reported with a one-line reproduction.

Nothing here prints; the CLI renders the FuzzReport.
"""

from __future__ import annotations

import json
import os
import shlex
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcptest.fuzz.classify import Answer, Finding
    from mcptest.fuzz.inputs import Schema
    from mcptest.fuzz.report import FuzzReport
    from mcptest.records.catalog import Tool
    from mcptest.records.coverage import Tally
    from mcptest.records.report import TestResult
    from mcptest.server.fuzzing import FuzzTarget
    from mcptest.server.session import ServerConfig
    from mcptest.suite.blocks.fuzz import FuzzBlock
    from mcptest.suite.models import Suite

SHRINK_CALLS = 60
"""At most this many calls shrink one finding (a hang's tries each cost a timeout: at most `HANG_SHRINK_CALLS`)."""
HANG_SHRINK_CALLS = 4


@dataclass
class FuzzOptions:
    """What to fuzz and how hard."""

    tools: Sequence[str] = ()
    cases: int = 100
    seed: int = 0
    max_call_ms: int = 5000
    allow_writes: bool = False
    fail_on: str = "error"
    replay: dict[str, Any] | None = None
    command_line: list[str] = field(default_factory=list)
    """The options that name the server (`--command ...`), for the replay lines."""


def timeout_scale() -> float:
    """How much to stretch per-call timeouts: the one-minute load average per core, at least 1 (a loaded machine
    answers slowly, which is not a hang)."""
    try:
        load = os.getloadavg()[0]
    except OSError:
        return 1.0
    return round(max(1.0, load / (os.cpu_count() or 1)), 2)


def fuzz(
    name: str, config: ServerConfig, base_dir: Path, options: FuzzOptions, tally: Tally | None = None
) -> FuzzReport:
    """Fuzz one server; bad options raise UserError, a server that cannot start raises ServerUnavailable."""
    import anyio

    return anyio.run(fuzz_async, name, config, base_dir, options, tally)


async def fuzz_async(
    name: str, config: ServerConfig, base_dir: Path, options: FuzzOptions, tally: Tally | None = None
) -> FuzzReport:
    """`fuzz`, inside an event loop; every call the server answers with a result (shrinking's included) feeds
    `tally`, when given, under the server's `name`, and so does its tool listing. Without one (`mcptest fuzz`), the
    run counts its calls itself and its report carries the coverage of the server's tools."""
    from mcptest.core.errors import usage_error
    from mcptest.fuzz.report import FuzzReport, ToolFuzz, failed
    from mcptest.records.coverage import Tally
    from mcptest.server.fuzzing import fuzz_target

    own = tally is None
    tally = Tally() if tally is None else tally
    started = time.perf_counter()
    scale = timeout_scale()
    timed = _with_call_timeout(config, options.max_call_ms / 1000 * scale)
    async with fuzz_target(name, timed, base_dir) as target:
        catalog = await target.catalog()
        tally.listed(name, [t.raw for t in catalog.tools])
        by_name = {t.name: t for t in catalog.tools}
        unknown = [t for t in options.tools if t not in by_name]
        if unknown:
            listed = ", ".join(by_name) or "none"
            raise usage_error(
                f"--tool: server '{name}' has no tool {', '.join(map(repr, unknown))} (it lists {listed})"
            )
        if options.replay is not None and len(options.tools) != 1:
            raise usage_error("--replay needs exactly one --tool")
        chosen = [by_name[t] for t in options.tools] if options.tools else list(catalog.tools)
        summaries: list[ToolFuzz] = []
        findings = []
        for tool in chosen:
            run = _ToolRun(target, tool, options, (name, tally))
            if not options.allow_writes and (why := _held_back(tool)):
                summary = ToolFuzz(tool=tool.name, skipped=why)
            elif options.replay is not None:
                summary = await run.replay(options.replay)
            else:
                summary = await run.fuzz()
            summaries.append(summary)
            findings += run.findings
        restarts = target.restarts
    return FuzzReport(
        server=name,
        ok=not failed(findings, options.fail_on),
        fail_on=options.fail_on,
        seed=options.seed,
        cases_per_tool=options.cases,
        max_call_ms=options.max_call_ms,
        timeout_scale=scale,
        restarts=restarts,
        replay=options.replay,
        tools=summaries,
        findings=findings,
        seconds=round(time.perf_counter() - started, 3),
        coverage=tally.measure_listed(name) if own else None,
    )


CANARY = "MCPTEST_FUZZ_CANARY"
"""An environment variable set for a stdio server under fuzzing, holding a random token: an answer that holds the
token shows the server echoing its environment (`env_leak`)."""


def _with_call_timeout(config: ServerConfig, seconds: float) -> ServerConfig:
    """The config with the fuzz run's per-call timeout, and the canary in a stdio server's environment."""
    import secrets

    from mcptest.server.session import InProcessServer
    from mcptest.suite.models import StdioServer

    if isinstance(config, InProcessServer):
        return replace(config, call_timeout_s=seconds)
    update: dict[str, Any] = {"call_timeout_s": seconds}
    if isinstance(config, StdioServer):
        update["env"] = {**config.env, CANARY: f"mcptest-canary-{secrets.token_hex(8)}"}
    return config.model_copy(update=update)


def _held_back(tool: Tool) -> str | None:
    from mcptest.checks.lint.server_managed import cannot_change_state

    if cannot_change_state(tool):
        return None
    return "it may change state (not annotated readOnlyHint: true, no read verb in its name): pass --allow-writes"


class _ToolRun:
    """One tool's fuzzing: its cases, the counts, and each finding class's first input, shrunk."""

    def __init__(self, target: FuzzTarget, tool: Tool, options: FuzzOptions, counted: tuple[str, Tally]) -> None:
        from mcptest.fuzz.inputs import Schema
        from mcptest.fuzz.report import ToolFuzz

        self.target = target
        self.tool = tool
        self.options = options
        self.schema: Schema = Schema(tool.input_schema)
        self.output = tool.output_schema if isinstance(tool.output_schema, dict) else None
        self.env = target.env_values()
        self.summary = ToolFuzz(tool=tool.name)
        self.findings: list[Any] = []
        self.hang_confirmed = False
        self.counted = counted
        """The server's name and the coverage tally every answered call feeds (the run's, in a `mcptest run`)."""

    async def call(self, args: dict[str, Any]) -> Answer:
        """One call of the tool; a result (isError or not) counts toward coverage."""
        answer = await self.target.call(self.tool.name, args)
        if answer.kind == "result":
            server, tally = self.counted
            tally.tool_call(server, self.tool.name, args, is_error=bool((answer.result or {}).get("isError")))
        return answer

    async def judge(self, args: dict[str, Any]) -> tuple[Answer, list[Finding]]:
        """Call with `args` and classify the answer; a hang counts only when a second try hangs too."""
        from mcptest.fuzz.classify import classify

        answer = await self.call(args)
        if answer.kind == "timeout" and not self.hang_confirmed:
            again = await self.call(args)
            if again.kind != "timeout":
                answer = again
            else:
                self.hang_confirmed = True  # later hangs of this tool are counted without a second wait
        return answer, classify(args, self.schema, answer, self.output, self.env)

    async def fuzz(self) -> Any:
        """Every case of the tool's budget; then each finding class's first input shrunk and reported."""
        from mcptest.fuzz.inputs import cases

        started = time.perf_counter()
        first: dict[str, tuple[Any, Finding, Answer]] = {}
        counts: dict[str, int] = {}
        for case in cases(self.tool.input_schema, self.options.cases, self.options.seed, self.tool.name, self.schema):
            answer, seen = await self.judge(case.args)
            self.summary.cases += 1
            if case.valid:
                self.summary.valid_cases += 1
            else:
                self.summary.invalid_cases += 1
            for finding in seen:
                counts[finding.kind] = counts.get(finding.kind, 0) + 1
                first.setdefault(finding.kind, (case, finding, answer))
        from mcptest.fuzz.classify import SEVERITY

        self.summary.counts = {k: counts[k] for k in SEVERITY if k in counts}
        for kind in self.summary.counts:
            case, finding, answer = first[kind]
            await self.report(case.args, case.how, finding, answer)
        self.summary.seconds = round(time.perf_counter() - started, 3)
        return self.summary

    async def replay(self, args: dict[str, Any]) -> Any:
        """One call with the given input, every finding it shows reported as is."""
        from mcptest.fuzz.report import FuzzFinding
        from mcptest.fuzz.shrink import size

        started = time.perf_counter()
        answer, seen = await self.judge(args)
        valid = self.schema.valid(args)
        self.summary.cases = 1
        self.summary.valid_cases, self.summary.invalid_cases = int(valid), int(not valid)
        self.summary.counts = {f.kind: 1 for f in seen}
        for finding in seen:
            self.findings.append(
                FuzzFinding(
                    tool=self.tool.name,
                    kind=finding.kind,
                    severity=finding.severity,
                    detail=finding.detail,
                    input=args,
                    input_valid=valid,
                    how="replayed",
                    first_input_size=size(args),
                    shrink_calls=0,
                    stderr=answer.stderr if finding.kind in ("crash", "hang") else "",
                    replay=self.replay_line(args),
                )
            )
        self.summary.seconds = round(time.perf_counter() - started, 3)
        return self.summary

    async def report(self, args: dict[str, Any], how: str, finding: Finding, answer: Answer) -> None:
        """Shrink the input while the same class shows (Hypothesis's shrinker, in a worker thread that makes each
        call back in this event loop), then record the finding."""
        import anyio

        from mcptest.fuzz.report import FuzzFinding
        from mcptest.fuzz.shrink import key, shrink, size

        seen_on: dict[str, tuple[Answer, Finding]] = {key(args): (answer, finding)}

        def holds(candidate: Any) -> bool:
            got, seen = anyio.from_thread.run(self._probe, candidate, finding.kind)
            match = next((f for f in seen if f.kind == finding.kind), None)
            if match is not None:
                seen_on[key(candidate)] = (got, match)
            return match is not None

        budget = HANG_SHRINK_CALLS if finding.kind == "hang" else SHRINK_CALLS
        best, calls = await anyio.to_thread.run_sync(lambda: shrink(args, holds, calls=budget, seen=True))
        best_answer, best_finding = seen_on.get(key(best), (answer, finding))
        self.findings.append(
            FuzzFinding(
                tool=self.tool.name,
                kind=finding.kind,
                severity=finding.severity,
                detail=best_finding.detail,
                input=best,
                input_valid=self.schema.valid(best),
                how=how,
                first_input_size=size(args),
                shrink_calls=calls,
                stderr=best_answer.stderr if finding.kind in ("crash", "hang") else "",
                replay=self.replay_line(best),
            )
        )

    async def _probe(self, args: dict[str, Any], kind: str) -> tuple[Answer, list[Finding]]:
        """One shrinking try: a hang is not retried here (the reported input was confirmed already)."""
        from mcptest.fuzz.classify import classify

        if kind == "hang":
            answer = await self.call(args)
            return answer, classify(args, self.schema, answer, self.output, self.env)
        return await self.judge(args)

    def replay_line(self, args: dict[str, Any]) -> str:
        """The command line that makes this call again."""
        words = ["mcptest", "fuzz", *self.options.command_line, "--tool", self.tool.name]
        if self.options.allow_writes:
            words.append("--allow-writes")
        if self.options.max_call_ms != 5000:
            words += ["--max-call-ms", str(self.options.max_call_ms)]
        words += ["--replay", json.dumps(args, ensure_ascii=False, separators=(",", ":"))]
        return shlex.join(words)


async def run_fuzz_block(
    block: FuzzBlock, fields: dict[str, Any], suite: Suite, tally: Tally | None = None
) -> tuple[TestResult, bool]:
    """A suite's `fuzz:` block: its server started on its own (a crash harms no other test), fuzzed, the block's
    assertions checked over the counts; a failure names each finding with its minimal input and replay line. Its
    calls feed the run's coverage `tally`, when given."""
    from mcptest.core.errors import UserError
    from mcptest.expect.assertions import check, resolve
    from mcptest.records.report import Status, TestResult
    from mcptest.run.rows import elapsed_ms, failed_row
    from mcptest.server.session import ServerUnavailable

    start = time.perf_counter()
    options = FuzzOptions(
        tools=block.tools,
        cases=block.cases,
        seed=block.seed,
        max_call_ms=block.max_call_ms,
        allow_writes=block.allow_writes,
        command_line=[suite.file, "--server", block.server],
    )
    try:
        report = await fuzz_async(block.server, suite.servers[block.server], Path(suite.file).parent, options, tally)
    except ServerUnavailable as exc:
        return failed_row(fields, start, exc.message, exc.stderr), "no handshake within" in exc.message
    except UserError as exc:
        return failed_row(fields, start, "; ".join(p.message for p in exc.problems), ""), False
    targets = fuzz_targets(report)
    failures = check(block.assertions, lambda path: resolve(targets, path))
    if failures and report.findings:  # say which findings, not only how many
        found = "; ".join(
            f"{f.severity} {f.kind} on {f.tool} {json.dumps(f.input)} (`{f.replay}`)" for f in report.findings
        )
        failures[0] = failures[0].model_copy(update={"message": f"{failures[0].message}: {found}"})
    figures = {k: v for k, v in targets.items() if isinstance(v, int)}
    status = Status.FAILED if failures else Status.PASSED
    return TestResult(**fields, status=status, duration_ms=elapsed_ms(start), failures=failures, targets=figures), False


def fuzz_targets(report: FuzzReport) -> dict[str, Any]:
    """What a `fuzz:` block's assertions read: findings per severity, calls made, and calls per finding class."""
    counts = report.counts()
    from mcptest.fuzz.classify import SEVERITY

    classes = dict.fromkeys(SEVERITY, 0)
    for tool in report.tools:
        for kind, n in tool.counts.items():
            classes[kind] = classes.get(kind, 0) + n
    return {
        "error_count": counts["error"],
        "warning_count": counts["warning"],
        "info_count": counts["info"],
        "finding_count": len(report.findings),
        "cases": sum(t.cases for t in report.tools),
        "classes": classes,
    }
