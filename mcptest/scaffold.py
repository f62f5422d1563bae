"""`mcptest init`'s starter files: a suite with one smoke test per tool, a quality gate, and a CI workflow."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcptest.core.errors import Problem
from mcptest.records.catalog import Catalog, Tool

FORMAT_EXAMPLES = {
    "uri": "https://example.com/",
    "url": "https://example.com/",
    "email": "user@example.com",
    "date": "2026-01-01",
    "date-time": "2026-01-01T00:00:00Z",
    "time": "12:00:00",
    "uuid": "00000000-0000-4000-8000-000000000000",
    "hostname": "example.com",
    "ipv4": "127.0.0.1",
}
"""A value for a string whose validity comes from its `format`: an empty string would not be one."""


@dataclass(frozen=True)
class Starter:
    """The starter suite's YAML, and per tool the arguments it chose (None: none valid could be built)."""

    suite: str
    workflow: str
    args: dict[str, dict[str, Any] | None]
    writers: tuple[str, ...] = ()
    """Tools that may change state, whose smoke tests are written commented out."""


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
    name: str = "server",
    directory: str | Path = ".",
    mcptest_spec: str = "mcptest",
    force: bool = False,
) -> Written:
    """Read the server's catalog and write the starter suite and CI workflow under `directory`, atomically.

    Bad options, or files that exist without `force`, raise UserError; a server that cannot be listed raises
    `mcptest.server.surfaces.Unreachable` (nothing is written then).
    """
    import shlex

    import anyio

    from mcptest.core.atomic import atomic_write_text
    from mcptest.core.errors import usage_error
    from mcptest.server.sources import resolve_sources
    from mcptest.server.surfaces import live_catalog

    if not command and not url:
        raise usage_error("init needs the server to read: --command 'uvx mcp-server-time' or --url URL")
    sources = resolve_sources(None, None, None, command, url, header, timeout)
    root = Path(directory)
    suite_path, workflow_path = root / "mcptest.yml", root / ".github" / "workflows" / "mcptest.yml"
    existing = [str(p) for p in (suite_path, workflow_path) if p.exists()]
    if existing and not force:
        raise usage_error(f"{' and '.join(existing)} exists; pass --force to overwrite")
    _, config = sources.servers[0]
    catalog = anyio.run(live_catalog, name, config, sources.base_dir)
    connection = {"command": shlex.split(command)} if command else {"url": url}
    written = starter(catalog, name, connection, mcptest_spec)
    workflow_path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(suite_path, written.suite)
    atomic_write_text(workflow_path, written.workflow)
    return Written(suite_path, workflow_path, written, catalog.problems)


def arguments(schema: dict[str, Any]) -> dict[str, Any] | None:
    """Arguments for a smoke call: the required properties, each from its `examples`, `default`, `const` or first
    `enum` value, else (a string) the first quoted example its description gives or the layout it names
    (`YYYY-MM-DD`, `HH:MM`, `ISO 8601`), else the smallest value its type and bounds allow; None when the result
    fails the schema."""
    value = _value(schema, 0)
    if not isinstance(value, dict) or not _valid(value, schema):
        return None
    return value


def _value(schema: Any, depth: int) -> Any:
    if not isinstance(schema, dict) or depth > 12:
        return None
    if isinstance(schema.get("examples"), list) and schema["examples"]:
        return schema["examples"][0]
    for key in ("default", "const"):
        if key in schema:
            return schema[key]
    if schema.get("enum"):
        return schema["enum"][0]
    for key in ("anyOf", "oneOf", "allOf"):
        if isinstance(schema.get(key), list) and schema[key]:
            options = [s for s in schema[key] if not (isinstance(s, dict) and s.get("type") == "null")]
            return _value((options or schema[key])[0], depth + 1)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), None)
    if kind == "object" or (kind is None and "properties" in schema):
        props = schema.get("properties") or {}
        return {name: _value(props.get(name, {}), depth + 1) for name in schema.get("required", [])}
    if kind == "array":
        return [_value(schema.get("items", {}), depth + 1) for _ in range(int(schema.get("minItems", 0)))]
    if kind in ("integer", "number"):
        low = schema.get("minimum", schema.get("exclusiveMinimum", 0) + (1 if "exclusiveMinimum" in schema else 0))
        high = schema.get("maximum")
        value = max(low, 0) if high is None or high >= max(low, 0) else low
        return int(value) if kind == "integer" else value
    if kind == "boolean":
        return False
    if kind == "string":
        return _string(schema)
    return None


_SAID_EXAMPLE = re.compile(
    r"""\b(?:e\.g\.|eg\.|for example|for instance|such as|example)[,:]?\s*\(?\s*[`'"]([^`'"\n]{1,80})[`'"]""",
    re.IGNORECASE,
)
"""An example a description gives in quotes: `IANA timezone name (e.g., 'America/New_York')`."""


DESCRIBED_FORMATS = (
    ("YYYY-MM-DDTHH:MM:SS", "2026-01-01T12:00:00"),
    ("YYYY-MM-DD", "2026-01-01"),
    ("HH:MM:SS", "12:00:00"),
    ("HH:MM", "12:00"),
    ("ISO 8601", "2026-01-01T12:00:00Z"),
    ("ISO-8601", "2026-01-01T12:00:00Z"),
)
"""A value for a string whose description names its layout instead of giving an example."""


def _string(schema: dict[str, Any]) -> str:
    description = str(schema.get("description", ""))
    bare = {k: v for k, v in schema.items() if k != "description"}
    said = _SAID_EXAMPLE.search(description)
    candidates = [said.group(1)] if said else []
    candidates += [value for layout, value in DESCRIBED_FORMATS if layout.lower() in description.lower()]
    for candidate in candidates:  # what the server's author says works beats a made-up word it may reject
        if _valid(candidate, bare):
            return candidate
    text = FORMAT_EXAMPLES.get(str(schema.get("format", "")), "example")
    low, high = int(schema.get("minLength", 0)), schema.get("maxLength")
    text = text.ljust(low, "x")
    return text[: int(high)] if isinstance(high, int) else text


def _valid(value: Any, schema: dict[str, Any]) -> bool:
    import jsonschema

    try:
        validator = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
        return validator(schema, format_checker=validator.FORMAT_CHECKER).is_valid(value)
    except (jsonschema.SchemaError, jsonschema.exceptions.RefResolutionError, RecursionError):
        return False


def starter(catalog: Catalog, server: str, connection: dict[str, Any], mcptest_spec: str = "mcptest") -> Starter:
    """The starter suite for `catalog` served as `server` (`connection`: its `command:` or `url:` entry)."""
    chosen = {tool.name: arguments(tool.input_schema) for tool in catalog.tools}
    lines = [
        "# A starter suite written by `mcptest init`: one smoke test per tool and a description-quality gate.",
        "# Run it with `mcptest run mcptest.yml`; replace each smoke test's arguments and checks with real ones.",
        "# A smoke test without `expect:` fails when the call errors or the tool answers `isError: true`.",
        "# Tests of tools that may change state are commented out: uncomment each once its args are safe to run.",
        "servers:",
        f"  {server}:",
        *(f"    {key}: {_flow(value)}" for key, value in connection.items()),
        "",
        "tools:",
    ]
    writers = tuple(t.name for t in catalog.tools if not _reads_only(t))
    for tool in catalog.tools:
        test = _smoke_test(tool, server, chosen[tool.name])
        if tool.name in writers:  # a starter must not move, delete or commit anything of the user's on first run
            note = f"  # {tool.name} may change state (not annotated readOnlyHint: true, no read verb in its name):"
            uncomment = "  # uncomment this test once its arguments point at test data"
            test = [note, uncomment, *(f"# {line}" for line in test)]
        lines += test
    lines += ["", "tool_quality:", f"  - name: {_flow(f'{server} tool descriptions')}", f"    server: {server}"]
    lines += _quality_ratchet(catalog)
    return Starter("\n".join(lines), workflow(mcptest_spec), chosen, writers)


def _reads_only(tool: Tool) -> bool:
    from mcptest.checks.lint.server_managed import reads_only

    hints = tool.annotations or {}
    return reads_only(tool) and hints.get("destructiveHint") is not True and hints.get("readOnlyHint") is not False


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


def workflow(mcptest_spec: str) -> str:
    """A GitHub Actions workflow that installs mcptest and runs the suite on every push and pull request."""
    return f"""# Written by `mcptest init`: run the MCP suite in CI.
name: mcptest
on: [push, pull_request]
jobs:
  mcptest:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
        with:
          python-version: "3.12"
      # mcptest from its repository (or a pinned version): `mcptest init --mcptest-spec` chose this line
      - run: python -m pip install {json.dumps(mcptest_spec)}
      - run: mcptest run mcptest.yml --reporter junit --output mcptest-junit.xml
      - if: always()
        uses: actions/upload-artifact@v4
        with:
          name: mcptest-report
          path: mcptest-junit.xml
"""
