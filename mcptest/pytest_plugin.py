"""The pytest plugin (entry point `pytest11`): suites as test items, and fixtures for tests written in Python.

`pytest` collects `mcptest.yml`, `mcptest.yaml` and `mcptest*.yml` / `mcptest*.yaml` files (and any YAML file named
on the command line) as suites: one item per tool, resource and prompt test, `tool_quality:` and `security:` block,
and agent test (an agent test's runs and gates are one item, since its gates fold over every run). Items run
through mcptest's runner, each over the worker's one session per server, so under pytest-xdist every worker keeps
its own sessions. A failing item's report is mcptest's own failure text. Tags become markers (`-m smoke`), `-k`
selects by name, and `--mcptest-record` records agent runs live (as `mcptest run --record`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from anyio.from_thread import BlockingPortal

    from mcptest.python_api import Server
    from mcptest.records.coverage import Coverage
    from mcptest.records.report import Report
    from mcptest.run.runner import RunResult
    from mcptest.server.session import SessionPool
    from mcptest.suite.models import Suite

SUITE_NAME = re.compile(r"mcptest[^/]*\.ya?ml$")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("mcptest")
    group.addoption("--mcptest-record", action="store_true", help="Run agent tests live and (re)write their cassettes.")


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_WORKER] = _Worker(config.getoption("--mcptest-record", False))
    config.stash[_COVERAGE] = _Coverage()
    config.pluginmanager.register(config.stash[_COVERAGE], "mcptest-coverage")


def pytest_unconfigure(config: pytest.Config) -> None:
    worker = config.stash.get(_WORKER, None)
    if worker is not None:
        worker.close()


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> SuiteFile | None:
    named = {Path(a.split("::")[0]).resolve() for a in parent.config.args}
    if SUITE_NAME.search(file_path.name) or (file_path.suffix in (".yml", ".yaml") and file_path.resolve() in named):
        return SuiteFile.from_parent(parent, path=file_path)
    return None


class SuiteFile(pytest.File):
    """A suite file: loaded once, an item per test."""

    def collect(self) -> Iterator[SuiteItem]:
        from mcptest.core.errors import UserError

        try:
            suite = self.config.stash[_WORKER].suite(self.path)
        except UserError as exc:
            raise self.CollectError("\n".join(str(p) for p in exc.problems)) from None
        from mcptest.run.kinds import report_fields
        from mcptest.run.runner import select
        from mcptest.run.selection import Selection

        tests: list[tuple[str, Any]] = [(report_fields(t, suite.file)["kind"], t) for t in select(suite, Selection())]
        tests += [("agent", a) for a in suite.agents]
        for kind, test in tests:
            item = SuiteItem.from_parent(self, name=test.name, kind=kind, line=test._line)
            for tag in test.tags:
                self.config.addinivalue_line("markers", f"{tag}: an mcptest tag")
                item.add_marker(tag)
            yield item


class SuiteItem(pytest.Item):
    """One test of a suite, run through mcptest's runner."""

    def __init__(self, *, kind: str, line: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.kind, self.line = kind, line
        self.coverage: Coverage | None = None
        """What this item's run reached of the suite's servers (`run_one`), once it ran."""

    def runtest(self) -> None:
        from mcptest.records.report import Status

        report = self.config.stash[_WORKER].run_one(self.path, self.name, self.kind)
        self.coverage = report.coverage
        rows = [r for r in report.results if r.kind == self.kind]
        if not rows:
            raise MCPTestFailure(report, f"mcptest ran nothing for {self.kind} test {self.name!r}")
        if any(r.status == Status.FAILED for r in rows) or any(g.status == Status.FAILED for g in report.gates):
            raise MCPTestFailure(report)
        if all(r.status == Status.SKIPPED for r in rows):
            pytest.skip(next((r.error for r in rows if r.error), "skipped by mcptest"))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, MCPTestFailure):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.line - 1, f"mcptest {self.kind}: {self.name}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A suite item's coverage rides on its call report (as JSON: pytest-xdist sends a report's extra attributes from
    the worker that ran it to the process that prints the summary)."""
    outcome = yield
    if call.when == "call" and isinstance(item, SuiteItem) and item.coverage is not None:
        report = outcome.get_result()
        report.mcptest_suite = str(item.path)
        report.mcptest_coverage = item.coverage.model_dump_json()


class _Coverage:
    """The session's coverage, per suite file: the union of what its items that ran reached (as `report merge`
    unites shards), printed after the tests like `mcptest run`'s coverage lines."""

    def __init__(self) -> None:
        self.sections: dict[str, list[Coverage]] = {}

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        coverage = getattr(report, "mcptest_coverage", None)
        if isinstance(coverage, str):
            from mcptest.records.coverage import Coverage

            self.sections.setdefault(str(report.mcptest_suite), []).append(Coverage.model_validate_json(coverage))

    def merged(self) -> dict[str, Coverage]:
        """Each suite file's coverage over the items that ran."""
        from mcptest.records.coverage import merge_coverage

        out = {suite: merge_coverage(sections) for suite, sections in sorted(self.sections.items())}
        return {suite: coverage for suite, coverage in out.items() if coverage is not None}

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        from mcptest.report.coverage import console_lines

        merged = self.merged()
        if not merged:
            return
        terminalreporter.write_sep("-", "mcptest coverage (only the suite tests that ran count)")
        root = terminalreporter.config.rootpath
        for suite, coverage in merged.items():
            path = Path(suite)
            terminalreporter.write_line(f"{path.relative_to(root) if path.is_relative_to(root) else path}:")
            for line in console_lines(coverage):
                terminalreporter.write_line(f"  {line}")


class MCPTestFailure(Exception):
    """A failed mcptest test; its text is mcptest's own report of it."""

    def __init__(self, report: Report, message: str | None = None) -> None:
        from mcptest.report.console import render_pretty

        super().__init__(message or render_pretty(report, framed=False).rstrip())


class _Worker:
    """What one pytest process keeps: loaded suites, a portal running one event loop, one session pool per suite."""

    def __init__(self, record: bool) -> None:
        self._record = record
        self._suites: dict[Path, Suite] = {}
        self._pools: dict[Path, SessionPool] = {}
        self._stack = ExitStack()
        self._portal: BlockingPortal | None = None

    def suite(self, path: Path) -> Suite:
        from mcptest.suite.loader import load_suite

        key = path.resolve()
        if key not in self._suites:
            self._suites[key] = load_suite(path)
        return self._suites[key]

    def run_one(self, path: Path, name: str, kind: str) -> Report:
        from mcptest.agent.plan import AgentOptions, RecordMode
        from mcptest.run.runner import run_suite
        from mcptest.run.selection import Selection

        suite, portal = self.suite(path), self._loop()
        options = AgentOptions(record_mode=RecordMode.ALL if self._record else RecordMode.NONE)
        selection = Selection(filter=f"re:^{re.escape(name)}$")
        pool = self._pool(path.resolve(), suite)
        result: RunResult = portal.call(lambda: run_suite(suite, selection, agents_options=options, pool=pool))
        for note in result.notes:
            print(note)
        return result.report

    def python_server(
        self,
        name: str,
        suite_path: Path | None,
        command: str | None,
        url: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> Server:
        from mcptest.python_api import Server, server_config

        config, base = server_config(name, suite_path, command, self.suite, url, headers)
        return Server(name, config, base, self._loop(), self._stack)

    def _loop(self) -> BlockingPortal:
        from anyio.from_thread import start_blocking_portal

        if self._portal is None:
            self._portal = self._stack.enter_context(start_blocking_portal())
        return self._portal

    def _pool(self, key: Path, suite: Suite) -> SessionPool:
        from mcptest.server.session import SessionPool

        if key not in self._pools:
            pool = SessionPool(dict(suite.servers), base_dir=Path(suite.file).parent)
            assert self._portal is not None
            self._pools[key] = self._stack.enter_context(self._portal.wrap_async_context_manager(pool))
        return self._pools[key]

    def close(self) -> None:
        self._stack.close()


_WORKER = pytest.StashKey[_Worker]()
_COVERAGE = pytest.StashKey[_Coverage]()


@pytest.fixture(scope="session")
def mcp_server(pytestconfig: pytest.Config) -> Any:
    """`mcp_server("weather")`: a connected server from `./mcptest.yml` (or `suite=`), `mcp_server(command=...)` or
    `mcp_server(url=..., headers={...})`; one session per server and worker, closed at the end of the session. See
    docs/python-api.md."""
    worker = pytestconfig.stash[_WORKER]
    opened: dict[tuple[Any, ...], Server] = {}

    def connect(
        name: str = "server",
        *,
        suite: str | Path | None = None,
        command: str | None = None,
        url: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> Server:
        key = (name, str(suite) if suite else None, command, url, tuple(sorted((headers or {}).items())))
        if key not in opened:
            opened[key] = worker.python_server(name, Path(suite) if suite else None, command, url, headers)
        return opened[key]

    return connect
