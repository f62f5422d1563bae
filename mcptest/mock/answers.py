"""How the mock answers tools/call, prompts/get and resources/read: pure functions over a MockSpec, wire JSON out."""

from __future__ import annotations

import json
from typing import Any

from mcptest.core.schema_checks import compile_validator
from mcptest.mock.arguments import argument_errors
from mcptest.mock.interpolate import render, render_text
from mcptest.mock.placeholder import example
from mcptest.mock.spec import MockSpec, MockTool


class NotFound(LookupError):
    """A request named a tool, prompt or resource the mock does not serve."""


class BadArguments(ValueError):
    """A prompts/get request is missing a required argument."""


class Answers:
    """The mock's answers, with one compiled argument validator per tool."""

    def __init__(self, spec: MockSpec) -> None:
        self.spec = spec
        self.tools = {tool.name: tool for tool in spec.tools or []}
        self.validators = {tool.name: compile_validator(tool.input_schema) for tool in spec.tools or []}
        self.prompts = {prompt.listing["name"]: prompt for prompt in spec.prompts or []}
        self.resources = {resource.uri: resource for resource in spec.resources or []}

    def call_tool(
        self, name: str, arguments: dict[str, Any] | None, asked: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """A CallToolResult: input-validation errors, the rendered canned response, or an echo."""
        tool = self.tools.get(name)
        if tool is None:
            raise NotFound(f"Unknown tool: {name}")
        args = arguments or {}
        errors = argument_errors(self.validators[name], args)
        if errors:
            return {"content": [{"type": "text", "text": "\n".join(errors)}], "isError": True}
        if tool.response is None:
            return echo(tool, args, asked)
        result: dict[str, Any] = render(tool.response, args, asked)
        return result

    def get_prompt(self, name: str, arguments: dict[str, str] | None) -> dict[str, Any]:
        """A GetPromptResult: the prompt text, rendered, as one user message."""
        prompt = self.prompts.get(name)
        if prompt is None:
            raise NotFound(f"Unknown prompt: {name}")
        args = arguments or {}
        declared = prompt.listing.get("arguments", [])
        missing = [a["name"] for a in declared if a.get("required") and a["name"] not in args]
        if missing:
            raise BadArguments(f"Missing required arguments for prompt {name}: {', '.join(missing)}")
        message = {"role": "user", "content": {"type": "text", "text": render_text(prompt.text, dict(args))}}
        return {"description": prompt.listing.get("description"), "messages": [message]}

    def read_resource(self, uri: str) -> dict[str, Any]:
        """A ReadResourceResult holding the resource's inline text."""
        resource = self.resources.get(uri)
        if resource is None:
            return self._templated(uri)
        contents = {"uri": uri, "text": resource.text}
        if "mimeType" in resource.listing:
            contents["mimeType"] = resource.listing["mimeType"]
        return {"contents": [contents]}

    def _templated(self, uri: str) -> dict[str, Any]:
        from mcptest.core.uri_template import matches

        templates = [t for t in self.spec.resource_templates or [] if matches(str(t.get("uriTemplate")), uri)]
        if not templates:
            raise NotFound(f"Unknown resource: {uri}")
        contents = {"uri": uri, "text": f"mcptest mock: {uri} (from the template {templates[0]['uriTemplate']})"}
        if "mimeType" in templates[0]:
            contents["mimeType"] = templates[0]["mimeType"]
        return {"contents": [contents]}


def echo(tool: MockTool, args: dict[str, Any], asked: dict[str, Any] | None = None) -> dict[str, Any]:
    """The answer of a tool without a canned response: which tool, which arguments (plus a schema-shaped stub)."""
    text = f"mcptest mock: called {tool.name} with {json.dumps(args, sort_keys=True, ensure_ascii=False)}"
    if asked:
        text += f"; the client answered {json.dumps(asked, sort_keys=True, ensure_ascii=False)}"
    result: dict[str, Any] = {"content": [{"type": "text", "text": text}], "isError": False}
    stub = example(tool.output_schema) if tool.output_schema is not None else None
    if isinstance(stub, dict):
        result["structuredContent"] = stub
    return result
