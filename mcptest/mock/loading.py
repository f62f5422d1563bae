"""Load a manifest: YAML → pydantic models → semantic checks → the wire-form MockSpec."""

from __future__ import annotations

from typing import Any

from pydantic.alias_generators import to_camel

from mcptest.core import yaml_source
from mcptest.core.errors import Problem, UserError, where
from mcptest.core.schema_checks import schema_problem
from mcptest.core.validation import validate
from mcptest.core.yaml_source import Loc, SourceDoc
from mcptest.mock import manifest as m
from mcptest.mock.spec import MockPrompt, MockResource, MockSpec, MockTool


def load_manifest(path: str) -> MockSpec:
    """Read a manifest file, or raise a UserError listing every problem at its `file:line:col`."""
    doc = yaml_source.load(path)
    if not isinstance(doc.data, dict):
        raise UserError([doc.problem((), "a manifest is a mapping with a 'mock_server:' key")])
    server = validate(m.Manifest, doc).mock_server
    problems = _check(server, doc)
    if problems:
        raise UserError(sorted(problems))
    return _to_spec(server, path)


def _check(server: m.MockServer, doc: SourceDoc) -> list[Problem]:
    problems: list[Problem] = []
    base: Loc = ("mock_server",)
    for kind, items, key in (
        ("tool", server.tools, "name"),
        ("resource", server.resources, "uri"),
        ("prompt", server.prompts, "name"),
    ):
        problems += _duplicates(doc, (*base, f"{kind}s"), [getattr(item, key) for item in items], kind, key)
    for i, tool in enumerate(server.tools):
        loc = (*base, "tools", i)
        problems += _schema(doc, (*loc, "input_schema"), tool.input_schema, require_object=True)
        if tool.output_schema is not None:
            problems += _schema(doc, (*loc, "output_schema"), tool.output_schema, require_object=True)
        if tool.asks is not None and tool.execution is not None and tool.execution.task_support != "forbidden":
            at = (*loc, "asks")
            why = "a tool served as a task cannot ask the client (the mock runs tasks without a way back to it)"
            problems.append(doc.problem(at, f"{where(at)}: {why}; drop `asks:` or `execution:`", at_key=True))
    return problems


def _duplicates(doc: SourceDoc, loc: Loc, values: list[str], kind: str, key: str) -> list[Problem]:
    seen: dict[str, int] = {}
    problems = []
    for i, value in enumerate(values):
        if value in seen:
            first = doc.value_pos((*loc, seen[value], key))[0]
            msg = f"{where((*loc, i, key))}: duplicate {kind} {key} '{value}' (first defined on line {first})"
            problems.append(doc.problem((*loc, i, key), msg))
        seen.setdefault(value, i)
    return problems


def _schema(doc: SourceDoc, loc: Loc, schema: dict[str, Any], *, require_object: bool) -> list[Problem]:
    found = schema_problem(schema)
    if found is not None:
        at, message = found
        return [doc.problem((*loc, *at), f"{where((*loc, *at))}: not a valid JSON Schema: {message}")]
    if require_object and schema.get("type") != "object":
        kind = "an input" if loc[-1] == "input_schema" else "an output"
        return [doc.problem(loc, f"{where(loc)}: {kind} schema must be an object schema ('type: object')")]
    return []


def _to_spec(server: m.MockServer, path: str) -> MockSpec:
    tools = [_tool(t) for t in server.tools] if server.declares("tools") else None
    resources = [_resource(r) for r in server.resources] if server.declares("resources") else None
    prompts = [_prompt(p) for p in server.prompts] if server.declares("prompts") else None
    return MockSpec(server.name, server.version, server.instructions, tools, resources, prompts, source=path)


def _wire(model: Any, *exclude: str) -> dict[str, Any]:
    """A manifest model as MCP wire JSON: camelCase keys, nothing unset."""
    return _camel(model.model_dump(exclude_none=True, exclude=set(exclude)))


def _camel(value: Any) -> Any:
    if isinstance(value, dict):
        # structured_content is the user's own data: its keys stay as written.
        return {to_camel(k): v if k == "structured_content" else _camel(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_camel(v) for v in value]
    return value


def _tool(tool: m.Tool) -> MockTool:
    listing = _wire(tool, "response", "input_schema", "output_schema", "asks")
    listing["inputSchema"] = tool.input_schema
    if tool.output_schema is not None:
        listing["outputSchema"] = tool.output_schema
    response = None if tool.response is None else _wire(tool.response)
    asks = None if tool.asks is None else tool.asks.model_dump(by_alias=True, exclude_none=True)
    return MockTool(listing, response, asks)


def _resource(resource: m.Resource) -> MockResource:
    return MockResource(_wire(resource, "text"), resource.text)


def _prompt(prompt: m.Prompt) -> MockPrompt:
    return MockPrompt(_wire(prompt, "text"), prompt.text)
