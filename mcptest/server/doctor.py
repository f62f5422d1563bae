"""`mcptest doctor`'s checks as data: suite readable, server starts, handshake, tools/list, tokens, keys.

The live checks go through `mcptest.server.session` (the only module that opens MCP connections); nothing here prints.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mcptest.checks.lint.surface import catalog_tokens
from mcptest.core.figures import plural
from mcptest.records.catalog import Catalog, read_catalog
from mcptest.server.primitive_checks import add_primitive_checks, list_primitives

if TYPE_CHECKING:
    from mcptest.server.session import ServerConfig
    from mcptest.suite.models import Suite

PROVIDER_KEYS = (
    (re.compile(r"^claude-"), "ANTHROPIC_API_KEY"),
    (re.compile(r"^(gpt-|chatgpt-|o\d)"), "OPENAI_API_KEY"),
)
"""Which environment variable a model's provider needs, by model-name prefix."""


class Status(StrEnum):
    """The outcome of one check."""

    PASS = "pass"
    FAIL = "fail"
    SKIP = "skip"


@dataclass
class Check:
    """One line of doctor output: what was checked, how it went, and the figures behind it."""

    name: str
    status: Status
    detail: str
    source: str | None = None
    """The server or catalog file the check is about (None for environment-wide checks)."""
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The check as JSON."""
        out = {"check": self.name, "status": self.status.value, "detail": self.detail, "source": self.source}
        return out | ({"data": self.data} if self.data else {})


@dataclass
class Probe:
    """What doctor learned about one source: its checks and, when it got that far, its catalog."""

    source: str
    checks: list[Check] = field(default_factory=list)
    catalog: Catalog | None = None
    stderr: str = ""

    def add(self, name: str, status: Status, detail: str, **data: Any) -> None:
        """Record a check about this source."""
        self.checks.append(Check(name, status, detail, self.source, data))


def probe_catalog_file(path: str) -> Probe:
    """Read a saved catalog (a bad file raises UserError) and count its surface tokens."""
    probe = Probe(path)
    probe.catalog = read_catalog(path)
    listed = len(probe.catalog.wire()["tools"])
    probe.add("catalog readable", Status.PASS, plural(listed, "tool"), tools=listed)
    add_tool_problems(probe)
    add_token_check(probe)
    catalog = probe.catalog
    lists = {
        "resources": catalog.resources,
        "resourceTemplates": catalog.resource_templates,
        "prompts": catalog.prompts,
    }
    add_primitive_checks(probe, {k: list(v) for k, v in lists.items() if v})
    return probe


async def probe_server(name: str, config: ServerConfig, base_dir: Path | str = ".") -> Probe:
    """Start a server, shake hands and list its tools, one check per step; stops at the first failure."""
    from mcptest.server.session import ServerUnavailable, SessionPool

    probe = Probe(name)
    async with SessionPool({name: config}, base_dir) as pool:
        start = time.perf_counter()
        try:
            session = await pool.get(name)
        except ServerUnavailable as exc:
            probe.add("server starts", Status.FAIL, exc.message)
            probe.stderr = exc.stderr
            return probe
        probe.add("server starts", Status.PASS, f"ready in {_ms(start):.0f} ms", ms=_ms(start))
        _handshake_check(probe, session.info)
        start = time.perf_counter()
        try:
            probe.catalog = await session.catalog()
        except ServerUnavailable as exc:
            probe.add("tools/list", Status.FAIL, exc.message)
            probe.stderr = session.stderr_tail()
            return probe
        ms = _ms(start)
        listed = len(probe.catalog.wire()["tools"])
        probe.add(
            "tools/list", Status.PASS, f"{plural(listed, 'tool')} in {ms:.0f} ms (every page)", tools=listed, ms=ms
        )
        add_tool_problems(probe)
        _task_check(probe, session.info)
        try:
            others = await list_primitives(session)
        except ServerUnavailable as exc:
            probe.add("resources and prompts", Status.FAIL, exc.message)
            others = {}
    add_token_check(probe)
    add_primitive_checks(probe, others)
    return probe


def add_tool_problems(probe: Probe) -> None:
    """One failed check per problem of a listed tool, naming it; the tools that can be read are still linted."""
    catalog = probe.catalog
    if catalog is None:
        return
    for p in catalog.problems:
        probe.add("tool", Status.FAIL, str(p) if p.line else p.message)
    if catalog.left_out:
        kept = len(catalog.tools)
        detail = f"{plural(catalog.left_out, 'tool')} left out (unreadable); {plural(kept, 'tool')} still checked"
        probe.add("tools readable", Status.FAIL, detail, left_out=catalog.left_out, tools=kept)


def add_token_check(probe: Probe) -> None:
    """The catalog's tool-surface token cost (name + description + inputSchema JSON, cl100k_base)."""
    if probe.catalog is not None:
        tokens = catalog_tokens(probe.catalog)
        probe.add("tool-surface tokens", Status.PASS, f"{plural(tokens, 'token')} (cl100k_base)", tokens=tokens)


def suite_check(suite: Suite) -> Check:
    """The suite loaded (loading raises UserError otherwise): how many servers and tests it has."""
    tests = sum(
        len(v)
        for v in (getattr(suite, k, None) for k in ("tools", "resources", "prompts", "agents", "tool_quality"))
        if v
    )
    detail = f"{suite.file}: {plural(len(suite.servers), 'server')}, {plural(tests, 'test')}"
    return Check("suite readable", Status.PASS, detail, suite.file)


def provider_key_check(models: Iterable[str], environ: Mapping[str, str] = os.environ) -> Check:
    """Whether the API key each agent model's provider needs is set (values are never shown)."""
    needed = sorted({var for m in models for pattern, var in PROVIDER_KEYS if pattern.match(m)})
    if not needed:
        return Check("provider keys", Status.SKIP, "no live agent run needs a key (cassettes replay without one)")
    missing = [var for var in needed if not environ.get(var)]
    if missing:
        return Check("provider keys", Status.FAIL, f"not set: {', '.join(missing)}", data={"missing": missing})
    return Check("provider keys", Status.PASS, f"set: {', '.join(needed)}")


def _handshake_check(probe: Probe, info: Any) -> None:
    caps = sorted(info.capabilities) if info else []
    server = f"{info.name or '(unnamed)'} {info.version or '(no version)'}" if info else "(no server info)"
    detail = f"protocol {info.protocol_version if info else '?'}, {server}, capabilities: {', '.join(caps) or 'none'}"
    status = Status.PASS if info and "tools" in caps else Status.FAIL
    if status is Status.FAIL:
        detail += " (no `tools` capability)"
    data = (
        {
            "protocol_version": info.protocol_version,
            "server_name": info.name,
            "server_version": info.version,
            "capabilities": caps,
        }
        if info
        else {}
    )
    probe.add("handshake", status, detail, **data)


def _task_check(probe: Probe, info: Any) -> None:
    """A line when tools may run as tasks: which, and whether the server declares the capability they need."""
    from mcptest.server.tasks import runs_tool_tasks, task_support

    assert probe.catalog is not None
    support = {t.name: task_support(t.raw) for t in probe.catalog.tools}
    required = [n for n, s in support.items() if s == "required"]
    optional = [n for n, s in support.items() if s == "optional"]
    if not required and not optional:
        return
    named = [f"task-required: {', '.join(required)}"] if required else []
    named += [f"task-optional: {', '.join(optional)}"] if optional else []
    declared = info is not None and runs_tool_tasks(info.capabilities)
    detail = "; ".join(named) + ("" if declared else "; but no tasks.requests.tools.call capability")
    status = Status.PASS if declared or not required else Status.FAIL
    probe.add("tasks", status, detail, required=required, optional=optional, declared=declared)


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 1)
