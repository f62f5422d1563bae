"""Name-free discovery (`discovery:`): the author's promise that the prompt names no tool and no server, checked."""

from __future__ import annotations

import re
from collections.abc import Sequence

from mcptest.gates.outcome import GateContext, GateOutcome, default, failure_lines, judged, runs, status
from mcptest.records.trace import Trace
from mcptest.suite.blocks.discovery import DiscoveryConfig
from mcptest.suite.blocks.gate import FunctionClass

BLOCK = "discovery"
DEFAULT_GATE = (default("discovery.named_in_prompt", "<=", 0),)


def known_names(traces: Sequence[Trace], classes: Sequence[FunctionClass]) -> dict[str, str]:
    """Every tool and server name the scenario knows of (recorded catalogs and class members) -> `tool`/`server`."""
    names: dict[str, str] = {}
    for t in traces:
        for tool in t.real_catalog:
            names.setdefault(tool.name, "tool")
            if tool.server:
                names.setdefault(tool.server, "server")
    for c in classes:
        for member in c.members:
            server, _, bare = member.rpartition(".")
            names.setdefault(bare, "tool")
            if server:
                names.setdefault(server, "server")
    return names


def named_in(prompt: str, names: dict[str, str]) -> list[str]:
    """The names the prompt mentions as whole words, ignoring case, in the order they first appear."""
    found = []
    for name in names:
        m = re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", prompt, re.IGNORECASE)
        if name and m:
            found.append((m.start(), name))
    return [name for _, name in sorted(found)]


def evaluate(traces: Sequence[Trace], config: DiscoveryConfig, context: GateContext) -> GateOutcome:
    """Check a name-free scenario's promise (spec 000, "Name-free discovery"; MCP-Atlas 2602.00933).

    `name_free: true` declares that the prompt names no tool and no server; the tool path is then judged by the
    equal_function_sets classes (gate `tool_selection.recall` there). mcptest also checks the promise:
    `discovery.named_in_prompt` counts the tool and server names (from the recorded catalogs and the class
    members) that the prompt contains as whole words, ignoring case. Default gate when `name_free: true` and the
    prompt is known: `discovery.named_in_prompt <= 0`. `name_free: true` without an `equal_function_sets:` block
    is a breach: there is nothing to judge the path against. Target `discovery.name_free` is 1 or 0.
    """
    prompt = context.prompt or next((t.prompt for t in runs(traces) if t.prompt), None)
    classes = list(context.classes or [])
    names = known_names(traces, classes)
    targets: dict[str, int] = {"discovery.name_free": int(config.name_free)}
    undefined = {}
    named: list[str] = []
    if prompt is None:
        undefined["discovery.named_in_prompt"] = "the prompt is not known (not in the suite nor in the traces)"
    else:
        named = named_in(prompt, names)
        targets["discovery.named_in_prompt"] = len(named)
    applies = config.name_free and prompt is not None
    breaches = []
    if config.name_free and context.classes is None:
        breaches.append("name_free: true needs an equal_function_sets: block to judge the tool path against")
    outcome = judged(
        BLOCK,
        dict(targets),
        config,
        DEFAULT_GATE if applies else (),
        undefined=undefined,
        breaches=breaches,
        detail={"name_free": config.name_free, "named_in_prompt": {n: names[n] for n in named}},
    )
    outcome.lines = [summary_line(outcome, context.label), *(f"  {b}" for b in breaches), *failure_lines(outcome)]
    return outcome


def summary_line(outcome: GateOutcome, label: str) -> str:
    """`name-free discovery [FAIL] label: the prompt names search (tool), catalog (server)`."""
    named = outcome.detail["named_in_prompt"]
    if not outcome.detail["name_free"]:
        what = "not declared name-free"
    elif "discovery.named_in_prompt" not in outcome.targets:
        what = "prompt unknown, promise not checked"
    elif named:
        what = "the prompt names " + ", ".join(f"{n} ({kind})" for n, kind in named.items())
    else:
        what = "the prompt names no tool and no server"
    return f"name-free discovery {status(outcome)} {label}: {what}"
