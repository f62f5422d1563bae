"""`mcptest init`'s starter files: a suite with one smoke test per tool, resource, template and prompt, the client
answers the server's tools ask for, a quality gate, and a CI workflow."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcptest.core.errors import Problem
from mcptest.core.sample_arguments import SAID_EXAMPLE, arguments
from mcptest.core.sample_arguments import valid as _valid  # noqa: F401 (tests/test_init.py reads it here)
from mcptest.core.uri_template import expand, variables
from mcptest.records.catalog import Catalog, Tool


@dataclass(frozen=True)
class Starter:
    """The starter suite's YAML, and per tool the arguments it chose (None: none valid could be built)."""

    suite: str
    workflow: str
    args: dict[str, dict[str, Any] | None]
    writers: tuple[str, ...] = ()
    """Tools that may change state, whose smoke tests are written commented out."""

    @property
    def active(self) -> int:
        """How many tests run as written (the quality gate aside)."""
        return sum(1 for line in self.suite.splitlines() if line.startswith("  - name: ")) - 1

    held: tuple[str, ...] = ()
    """Tests written commented out because the server refused them when init tried them (tools that read only,
    resource reads, prompt renders)."""


@dataclass(frozen=True)
class Written:
    """What `mcptest init` wrote: the suite's path, the workflow's path, and the starter they hold."""

    suite_path: Path
    workflow_path: Path
    starter: Starter
    problems: tuple[Problem, ...] = ()
    """What is wrong with listed tools that break the schema (those that cannot be read get no test)."""


def write_starter(
    command: str | None,
    url: str | None,
    header: list[str] | None = None,
    timeout: float = 30.0,
    *,
    name: str | None = None,
    directory: str | Path = ".",
    mcptest_spec: str | None = None,
    force: bool = False,
) -> Written:
    """Read the server's catalog and write the starter suite and CI workflow under `directory`, atomically.

    The server is named `name`, else after its `serverInfo.name`; the workflow installs `mcptest_spec`, else what
    this mcptest was installed from (`install_spec`). Bad options, or files that exist without `force`, raise
    UserError; a server that cannot be listed raises `mcptest.server.surfaces.Unreachable` (nothing is written).
    """
    import shlex

    import anyio

    from mcptest.core.atomic import atomic_write_text
    from mcptest.core.errors import usage_error
    from mcptest.server.sources import resolve_sources

    if not command and not url:
        raise usage_error("init needs the server to read: --command 'uvx mcp-server-time' or --url URL")
    sources = resolve_sources(None, None, None, command, url, header, timeout)
    root = Path(directory)
    suite_path, workflow_path = root / "mcptest.yml", root / ".github" / "workflows" / "mcptest.yml"
    existing = [str(p) for p in (suite_path, workflow_path) if p.exists()]
    if existing and not force:
        raise usage_error(f"{' and '.join(existing)} exists; pass --force to overwrite")
    _, config = sources.servers[0]
    found = anyio.run(survey, name or "server", config, sources.base_dir, _folder(connection_argv(command)))
    name = name or server_name(found.server_name)
    connection: dict[str, Any] = {"command": shlex.split(command)} if command else {"url": url}
    here = os.path.relpath(Path.cwd(), root.resolve())
    relative = [a for a in connection_argv(command) if not Path(a).is_absolute() and Path(a).exists()]
    if relative and here != ".":  # the suite starts its servers in its own folder: keep `srv/x.py` found
        connection["cwd"] = Path(here).as_posix()
    spec = mcptest_spec or install_spec()
    written = starter(found.catalog, name, connection, spec, refused=found.refused, root=root.resolve())
    workflow_path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(suite_path, written.suite)
    atomic_write_text(workflow_path, written.workflow)
    return Written(suite_path, workflow_path, written, found.catalog.problems)


@dataclass(frozen=True)
class Survey:
    """What init learned from the server: its catalog (every primitive), its `serverInfo.name`, and why it refused
    each resource, template or prompt test init tried (by test name; reading and rendering change nothing)."""

    catalog: Catalog
    server_name: str | None
    refused: dict[str, str]


def connection_argv(command: str | None) -> list[str]:
    """The server's argv (empty for a URL)."""
    import shlex

    return shlex.split(command) if command else []


def _folder(argv: list[str]) -> str | None:
    """The first folder the server was started on (server-filesystem's allowed directory), for path arguments."""
    return next((a for a in argv[1:] if Path(a).is_absolute() and Path(a).is_dir()), None)


async def survey(name: str, config: Any, base_dir: Path, folder: str | None = None) -> Survey:
    """List everything the server offers and try each test a starter would run (the tools it would call, which
    read only, and every resource read and prompt render); a server that cannot be listed raises `Unreachable`."""
    from mcp import types

    from mcptest.records.catalog import read_wire
    from mcptest.server.capture import capture
    from mcptest.server.primitives import prompt_request, read_request
    from mcptest.server.session import ServerUnavailable, SessionPool
    from mcptest.server.surfaces import Unreachable

    async with SessionPool({name: config}, base_dir) as pool:
        try:
            session = await pool.get(name)
            snapshot, _ = await capture(session)
        except ServerUnavailable as exc:
            raise Unreachable(name, exc.message.removeprefix(f"server '{name}': "), exc.stderr) from None
        catalog = read_wire(snapshot.model_dump(mode="json", exclude_none=True), f"server '{name}'")
        refused = {}
        for tool in catalog.tools:
            if held_back(tool) or client_asks(tool):  # never called at init; answered by `client:` when run
                continue
            outcome = await session.call_tool(tool.name, arguments(tool.input_schema, folder) or {})
            if outcome.error or (outcome.result or {}).get("isError"):
                refused[f"{tool.name} answers"] = outcome.error or _error_text(outcome.result or {})
        for test in primitive_tests(catalog, name):
            if "prompt" in test:
                request = prompt_request(test["prompt"], {k: str(v) for k, v in test.get("args", {}).items()})
                outcome = await session.call(request, types.GetPromptResult)
            else:
                request = read_request(test.get("uri") or expand(test["template"], test["args"]))
                outcome = await session.call(request, types.ReadResourceResult)
            if outcome.error:
                refused[test["name"]] = outcome.error.removeprefix(f"server '{name}': ")
    return Survey(catalog, snapshot.server.name, refused)


def _error_text(result: dict[str, Any]) -> str:
    texts = [str(c.get("text")) for c in result.get("content") or [] if isinstance(c, dict) and c.get("text")]
    return "the tool answered isError: true" + (f": {texts[0]}" if texts else "")


def server_name(listed: str | None) -> str:
    """The suite's name for a server: its `serverInfo.name` lower-cased, every other character a `-`."""
    return re.sub(r"-+", "-", re.sub(r"[^a-z0-9]", "-", (listed or "").lower())).strip("-") or "server"


def install_spec() -> str | None:
    """What pip would install this very mcptest from, as its install recorded it (PEP 610 `direct_url.json`): a
    git URL at its commit, a wheel or archive URL, or a local path; None when that cannot be told."""
    from importlib.metadata import distributions

    # every copy of the metadata on the path, not the first: in a source checkout on PYTHONPATH the build's
    # `mcptest.egg-info` comes first and records no install; the installed copy beside it does
    recorded = next((text for d in distributions(name="mcptest") if (text := d.read_text("direct_url.json"))), None)
    if not recorded:
        return None
    info = json.loads(recorded)
    url = str(info.get("url", ""))
    vcs = info.get("vcs_info")
    if isinstance(vcs, dict) and vcs.get("vcs") == "git":
        return f"git+{url}@{vcs.get('commit_id') or vcs.get('requested_revision') or 'HEAD'}"
    if url.startswith("file://"):
        from urllib.parse import unquote, urlparse

        return unquote(urlparse(url).path)
    return url or None


def starter(
    catalog: Catalog,
    server: str,
    connection: dict[str, Any],
    mcptest_spec: str | None = "mcptest",
    *,
    refused: dict[str, str] | None = None,
    root: Path | None = None,
) -> Starter:
    """The starter suite for `catalog` served as `server` (`connection`: its `command:` or `url:` entry); `refused`
    holds why the server refused a resource or prompt test init tried (it is written commented out), `root` is
    the folder offered as the client's root when a tool asks for roots."""
    folder = _folder(list(connection.get("command") or []))
    chosen = {tool.name: arguments(tool.input_schema, folder) for tool in catalog.tools}
    asks = {tool.name: client_asks(tool) for tool in catalog.tools}
    url = connection.get("url")
    if url:  # CI passes the URL in (the workflow's input), with today's as the default
        connection = {**connection, "url": f"${{MCP_SERVER_URL:-{url}}}"}
    lines = [
        "# A starter suite written by `mcptest init`: a smoke test per tool, resource, template and prompt, and a",
        "# description-quality gate. Run it with `mcptest run mcptest.yml`; replace the arguments and checks with",
        "# real ones. A smoke test without `expect:` fails when the call errors or the tool answers `isError: true`.",
        "# Tests of tools that may change state are commented out: uncomment each (delete the `#` that starts each",
        "# of its lines) once its arguments are safe to run.",
        "servers:",
        f"  {server}:",
        *(f"    {key}: {_flow(value)}" for key, value in connection.items()),
        *_client_block(set().union(*asks.values()), root or Path.cwd()),
        "",
        "tools:",
    ]
    writers = tuple(t.name for t in catalog.tools if held_back(t))
    held: list[str] = []
    for tool in catalog.tools:
        test = _smoke_test(tool, server, chosen[tool.name])
        why = (refused or {}).get(f"{tool.name} answers")
        if tool.name in writers:  # a starter must not move, delete or commit anything of the user's on first run
            note = f"  # {tool.name} may change state (not annotated readOnlyHint: true, no read verb in its name):"
            test = [note, "  # uncomment this test once its arguments point at test data", *_commented(test)]
        elif why is not None:
            held.append(f"{tool.name} answers")
            test = _refused(why, test)
        elif asks[tool.name]:
            asked = " and ".join(sorted(asks[tool.name]))
            test = [f"  # {tool.name} asks the client for {asked}: the server's `client:` block answers", *test]
        lines += test
    for kind, tests in _by_kind(primitive_tests(catalog, server)):
        lines += ["", f"{kind}:"]
        for entry in tests:
            body = _primitive_lines(entry)
            why = (refused or {}).get(entry["name"])
            if why is not None:
                held.append(entry["name"])
                body = _refused(why, body)
            lines += body
    lines += ["", "tool_quality:", f"  - name: {_flow(f'{server} tool descriptions')}", f"    server: {server}"]
    lines += _quality_ratchet(catalog)
    return Starter("\n".join(lines), workflow(mcptest_spec, url), chosen, writers, tuple(held))


_ASKS = {
    "sampling": re.compile(r"(?i)\bsampling\b|\bsample[-_ ]?llm\b|createMessage"),
    "elicitation": re.compile(r"(?i)elicit"),
    "roots": re.compile(r"(?i)\broots\b|\broots?[-_ ]?list|list[-_ ]?roots"),
}
"""What a tool's name or description says it asks the client for during a call."""


def client_asks(tool: Tool) -> set[str]:
    """The client answers a tool's call needs, as its name or description tells (`sampling`, `elicitation`,
    `roots`)."""
    text = f"{tool.name} {tool.description}"
    return {ask for ask, said in _ASKS.items() if said.search(text)}


def held_back(tool: Tool) -> bool:
    """Whether a tool's smoke test is written commented out: it may change state, and it is not a tool whose work
    is asking the client (which the `client:` block answers)."""
    return not _reads_only(tool) and not _only_asks(tool, client_asks(tool))


def _refused(why: str, lines: list[str]) -> list[str]:
    note = f"  # init tried this and the server refused: {_one_line(why)}"
    return [note, "  # fill in arguments that work, then uncomment it", *_commented(lines)]


def _only_asks(tool: Tool, asks: set[str]) -> bool:
    """A tool held back only for its name or a `readOnlyHint: false` runs when what it does is ask the client (the
    starter's `client:` answers it); one annotated `destructiveHint: true` stays held back."""
    if (tool.raw.get("execution") or {}).get("taskSupport") == "required":
        return False  # run only as a task: held back like any tool that may change state
    return bool(asks) and (tool.annotations or {}).get("destructiveHint") is not True


def _client_block(asks: set[str], root: Path) -> list[str]:
    if not asks:
        return []
    out = [
        "    client:                                   # what mcptest answers when the server asks (docs/servers.md)"
    ]
    if "sampling" in asks:
        out += [
            "      sampling:",
            '        - text: "A reply from the mcptest client."   # add `when:` rules to answer by prompt',
        ]
    if "elicitation" in asks:
        out.append(
            "      elicitation: { action: decline }          # or { action: accept, content: {...} } fitting the form"
        )
    if "roots" in asks:
        out.append(f"      roots: [{_flow(root.as_uri())}]")
    return out


def primitive_tests(catalog: Catalog, server: str) -> list[dict[str, Any]]:
    """A smoke test per resource (its URI), resource template (its variables filled) and prompt (its required
    arguments filled), as suite entries."""
    out: list[dict[str, Any]] = []
    for resource in catalog.resources:
        out.append({"name": f"resource {resource['uri']} reads", "server": server, "uri": resource["uri"]})
    for template in catalog.resource_templates:
        pattern = str(template["uriTemplate"])
        args = {var: 1 for var in variables(pattern)}
        out.append({"name": f"template {pattern} reads", "server": server, "template": pattern, "args": args})
    for prompt in catalog.prompts:
        needed = [a for a in prompt.get("arguments") or [] if isinstance(a, dict) and a.get("required")]
        test: dict[str, Any] = {"name": f"prompt {prompt['name']} renders", "server": server, "prompt": prompt["name"]}
        if needed:
            test["args"] = {str(a.get("name")): _prompt_value(a) for a in needed}
        out.append(test)
    return out


def _prompt_value(argument: dict[str, Any]) -> str:
    """A value for a prompt argument: the example its description gives, else `1` (ids and counts take it)."""
    said = SAID_EXAMPLE.search(str(argument.get("description") or ""))
    return said.group(1) if said else "1"


def _by_kind(tests: list[dict[str, Any]]) -> list[tuple[str, list[dict[str, Any]]]]:
    kinds = (("resources", lambda t: "prompt" not in t), ("prompts", lambda t: "prompt" in t))
    return [(kind, chosen) for kind, keep in kinds if (chosen := [t for t in tests if keep(t)])]


def _primitive_lines(test: dict[str, Any]) -> list[str]:
    lines = [f"  - name: {_flow(test['name'])}"]
    lines += [f"    {key}: {_flow(value)}" for key, value in test.items() if key != "name"]
    return lines


def _commented(lines: list[str]) -> list[str]:
    """Lines commented out so that deleting the leading `#` of each gives them back exactly."""
    return [f"#{line}" for line in lines]


def _one_line(text: str, limit: int = 160) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _reads_only(tool: Tool) -> bool:
    from mcptest.checks.lint.server_managed import cannot_change_state

    return cannot_change_state(tool)


def _quality_ratchet(catalog: Catalog) -> list[str]:
    """The quality gate as a ratchet: today's figures are the floors, so the starter passes and any slide fails.
    The defaults (`min_score >= 0.5`, `mean_score >= 0.7`, no critical finding) are named as the goal."""
    import math

    from mcptest.checks.lint import assess
    from mcptest.run.tool_quality import quality_targets

    now = quality_targets(assess(catalog))
    floors = [
        ("min_score", ">=", math.floor(float(now["min_score"]) * 100) / 100),
        ("mean_score", ">=", math.floor(float(now["mean_score"]) * 100) / 100),
        ("critical_count", "<=", int(now["critical_count"])),
    ]
    out = [
        "    # today's figures as floors; tighten them as you fix findings (`mcptest doctor --lint-descriptions`)",
        "    # until the default gate holds: min_score >= 0.5, mean_score >= 0.7, critical_count <= 0",
        "    expect:",
    ]
    for target, op, value in floors:
        out += [f"      - target: {target}", f'        matcher: {{ "{op}": {value} }}']
    return [*out, ""]


def _smoke_test(tool: Tool, server: str, args: dict[str, Any] | None) -> list[str]:
    from mcptest.server.tasks import task_support

    out = [f"  - name: {_flow(f'{tool.name} answers')}", f"    server: {server}", f"    tool: {_flow(tool.name)}"]
    if args is None:
        out.append("    # no valid arguments could be built from the inputSchema: fill them in")
        out.append("    args: {}")
    elif args:
        out.append(f"    args: {_flow(args)}")
    # no `isError: false` assertion: servers leave `isError` out of a good result, and a test without assertions
    # already fails on an error result
    if task_support(tool.raw) == "required":
        out.append(
            "    # runs as a task (execution.taskSupport: required): created, followed to its end, result fetched"
        )
        out += ["    expect:", "      - target: task.status", "        matcher: { exact: completed }"]
    return out


def _flow(value: Any) -> str:
    """YAML flow text for a value: JSON is YAML, and a plain scalar where that reads the same."""
    plain = isinstance(value, str) and re.fullmatch(r"[A-Za-z_][\w .-]*", value) and value.strip() == value
    if plain and value.lower() not in ("true", "false", "null", "yes", "no", "on", "off", "y", "n", "~"):
        return str(value)
    return json.dumps(value, ensure_ascii=False)


def workflow(mcptest_spec: str | None, url: str | None = None) -> str:
    """A GitHub Actions workflow that installs mcptest and runs the suite on every push and pull request; for a
    `url` server, the URL is an input (today's as its default) and a step waits for it to answer first."""
    if mcptest_spec:
        install = [
            "      # mcptest as this one was installed (`mcptest init --mcptest-spec` chooses another)",
            f"      - run: python -m pip install {json.dumps(mcptest_spec)}",
        ]
    else:
        install = [
            "      # mcptest is not on PyPI and init could not tell how this one was installed: say how (a git URL, a",
            "      # wheel), or run `mcptest init --mcptest-spec SPEC` again",
            '      - run: echo "edit .github/workflows/mcptest.yml: how should CI install mcptest?" && exit 1',
        ]
    trigger = "on: [push, pull_request]"
    env: list[str] = []
    wait: list[str] = []
    if url:
        trigger = "\n".join([
            "on:",
            "  push:",
            "  pull_request:",
            "  workflow_dispatch:",
            "    inputs:",
            "      server_url:",
            "        description: The MCP server's URL",
            f"        default: {json.dumps(url)}",
        ])  # fmt: skip
        env = ["    env:", f"      MCP_SERVER_URL: ${{{{ inputs.server_url || {_gha_string(url)} }}}}"]
        wait = [
            "      # start the server under test here (a service container, or a step that runs it in the background)",
            "      - name: wait for the MCP server",
            "        run: |",
            '          for i in $(seq 60); do curl -s -o /dev/null "$MCP_SERVER_URL" && exit 0; sleep 1; done',
            '          echo "no MCP server answered at $MCP_SERVER_URL within 60 s"; exit 1',
        ]
    return "\n".join([
        "# Written by `mcptest init`: run the MCP suite in CI.",
        "name: mcptest",
        trigger,
        "jobs:",
        "  mcptest:",
        "    runs-on: ubuntu-latest",
        *env,
        "    steps:",
        "      - uses: actions/checkout@v4",
        "      - uses: actions/setup-python@v5",
        "        with:",
        '          python-version: "3.12"',
        *install,
        *wait,
        "      - run: mcptest run mcptest.yml --reporter junit --output mcptest-junit.xml",
        "      - if: always()",
        "        uses: actions/upload-artifact@v4",
        "        with:",
        "          name: mcptest-report",
        "          path: mcptest-junit.xml",
        "",
    ])  # fmt: skip


def _gha_string(text: str) -> str:
    """A string literal in a GitHub Actions expression (single quotes, doubled inside)."""
    return "'" + text.replace("'", "''") + "'"
