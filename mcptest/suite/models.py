"""The suite file format (version 1) as pydantic models; `schema/v1.json` is generated from these."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Discriminator, Field, PrivateAttr, Tag, field_validator, model_validator

from mcptest.providers.prices import Price
from mcptest.suite.agents import AgentTest
from mcptest.suite.blocks.conformance import ConformanceBlock
from mcptest.suite.blocks.coverage import CoverageGate
from mcptest.suite.blocks.expect import Expect, HasExpect
from mcptest.suite.blocks.fuzz import FuzzBlock
from mcptest.suite.blocks.latency import LATENCY_DOC, Latency
from mcptest.suite.blocks.quarantine import QuarantineEntry
from mcptest.suite.blocks.security import SecurityBlock
from mcptest.suite.blocks.tool_quality import ToolQualityBlock
from mcptest.suite.client_config import Auth, ClientAnswers
from mcptest.suite.primitives import PromptTest, ResourceTest
from mcptest.suite.strict import Strict

SUITE_FORMAT_VERSION = 1
SCHEMA_URL = "https://raw.githubusercontent.com/mcptest/mcptest/main/schema/v1.json"


class EnvRef(Strict):
    """A value read from an environment variable at load time: `{ env: VAR }`."""

    env: str = Field(description="The name of the environment variable.")


class _ServerBase(Strict):
    connect_timeout_s: float = Field(30.0, gt=0, description="Seconds to start the server and finish the handshake.")
    call_timeout_s: float = Field(30.0, gt=0, description="Seconds one request may take before the test fails.")
    client: ClientAnswers = Field(
        default_factory=ClientAnswers, description="How mcptest answers the server's requests (roots, sampling, ...)."
    )


class StdioServer(_ServerBase):
    """A server launched as a subprocess, spoken to over its stdin/stdout."""

    command: list[str] = Field(min_length=1, description='The argv to launch, e.g. `["npx", "-y", "pkg"]`.')
    env: dict[str, str | EnvRef] = Field(default_factory=dict, description="Extra environment for the server.")
    cwd: str | None = Field(None, description="Working directory (relative paths are from the suite's folder).")

    @field_validator("command", mode="before")
    @classmethod
    def _argv(cls, value: Any) -> Any:
        if isinstance(value, str):
            raise ValueError(f'command must be a list of arguments, e.g. {value.split()!r} rather than "{value}"')
        return value


class HttpServer(_ServerBase):
    """A server reached over Streamable HTTP."""

    url: str = Field(pattern=r"^https?://", description="The MCP endpoint, e.g. `http://127.0.0.1:8000/mcp`.")
    headers: dict[str, str | EnvRef] = Field(
        default_factory=dict, description="HTTP headers; a value is literal or `{ env: VAR }`."
    )
    auth: Auth | None = Field(None, description="`{ bearer_env: VAR }` or `{ oauth: { client_credentials: ... } }`.")
    transport: Literal["streamable-http", "sse"] = Field(
        "streamable-http", description="`streamable-http`, or `sse` for legacy servers."
    )


def _server_kind(value: Any) -> str | None:
    if isinstance(value, dict):
        return "http" if "url" in value and "command" not in value else "stdio"
    return None


Server = Annotated[
    Annotated[StdioServer, Tag("stdio")] | Annotated[HttpServer, Tag("http")],
    Discriminator(
        _server_kind,
        custom_error_type="server_kind",
        custom_error_message="a server is a mapping with `command:` (stdio) or `url:` (Streamable HTTP)",
    ),
]


class ToolTest(Strict, HasExpect):
    """Call one tool once and assert on the result."""

    name: str = Field(min_length=1, description="Unique within the suite.")
    server: str = Field(description="A key of `servers:`.")
    tool: str = Field(min_length=1, description="The tool to call.")
    args: dict[str, Any] = Field(default_factory=dict, description="The tool's arguments.")
    task: bool | None = Field(
        None,
        description="Call the tool as a task (MCP 2025-11-25): `true` for a task-optional tool, `false` to call a "
        "task-required one plainly. Unset: as the tool's `execution.taskSupport` requires.",
    )
    tags: list[str] = Field(default_factory=list, description="For `--tag` / `--skip-tag`.")
    latency: Latency | None = Field(None, description=LATENCY_DOC)
    weight: int = Field(
        1, ge=1, le=1000, description="`mcptest load`: how often users pick this test, relative to others."
    )
    expect: Expect | None = Field(
        None, description="A list of assertions, or `{ assertions: [...], max_duration_ms: N }`."
    )
    _line: int = PrivateAttr(0)


_LIST_SECTIONS = (
    "tools", "resources", "prompts", "agents", "tool_quality", "security", "fuzz", "conformance", "secrets",
    "quarantine",
)  # fmt: skip
"""Top-level lists that may be written empty (`tools:` with every entry commented out)."""


def _suite_schema_extra(schema: dict[str, Any]) -> None:
    schema["patternProperties"] = {"^x-": {}}
    for key in _LIST_SECTIONS:
        if key in schema.get("properties", {}):
            prop = schema["properties"][key]
            listed = {k: v for k, v in prop.items() if k not in ("description", "title")}
            kept = {k: v for k, v in prop.items() if k in ("description", "title")}
            schema["properties"][key] = {**kept, "anyOf": [listed, {"type": "null"}]}


class Suite(Strict):
    """An mcptest suite file. Top-level keys starting with `x-` are extensions, ignored (a place for YAML anchors)."""

    model_config = ConfigDict(json_schema_extra=lambda schema: _suite_schema_extra(schema))

    @model_validator(mode="before")
    @classmethod
    def _ignore_extensions(cls, data: Any) -> Any:
        # the compose-file convention: `x-defaults: &defaults {...}` holds what tests share through `<<: *defaults`;
        # a list section whose every entry is commented out (`tools:` over comments) is YAML null: none, not an error
        if isinstance(data, dict):
            return {
                k: v
                for k, v in data.items()
                if not (isinstance(k, str) and k.startswith("x-")) and not (k in _LIST_SECTIONS and v is None)
            }
        return data

    version: Literal[1] = Field(1, description="The suite format version.")
    servers: dict[str, Server] = Field(default_factory=dict, description="Named MCP servers the tests talk to.")
    tools: list[ToolTest] = Field(default_factory=list, description="Tool tests: call a tool, assert on the result.")
    resources: list[ResourceTest] = Field(
        default_factory=list, description="Resource tests: read a resource (URI or template), assert on its contents."
    )
    prompts: list[PromptTest] = Field(
        default_factory=list, description="Prompt tests: render a prompt with arguments, assert on its messages."
    )
    agents: list[AgentTest] = Field(
        default_factory=list, description="Agent tests: a model using the servers' tools, or recorded runs of one."
    )
    tool_quality: list[ToolQualityBlock] = Field(
        default_factory=list, description="Score a server's tool descriptions (TDQS, lint, smells) and gate on them."
    )
    security: list[SecurityBlock] = Field(
        default_factory=list,
        description="Scan servers' catalogs with the SEC rules (poisoning, secrets, ...) and gate.",
    )
    coverage: list[CoverageGate] = Field(
        default_factory=list,
        description="Gates on what the run reached of each server's catalog: `- {server: NAME, expect: [...]}`.",
    )
    fuzz: list[FuzzBlock] = Field(
        default_factory=list,
        description="Fuzz a server's tools with inputs from their inputSchemas (crashes, hangs, leaks, validation) "
        "and gate.",
    )
    conformance: list[ConformanceBlock] = Field(
        default_factory=list,
        description="Check that a server speaks MCP correctly (the `mcptest conformance` checks); failed checks are "
        "the row's failures.",
    )
    prices: dict[str, Price] = Field(
        default_factory=dict, description="Dollars per million tokens by model id, over the built-in price table."
    )
    secret_vars: list[str] = Field(
        default_factory=list,
        alias="secrets",
        description="Environment variables whose values are secrets (masked in reports and cassettes) although "
        "their names do not say so; names with KEY, TOKEN, SECRET, PASSWORD, AUTH, CREDENTIAL... are always secret.",
    )
    quarantine: list[QuarantineEntry] = Field(
        default_factory=list,
        description="Tests that run and are reported but stay out of the exit code until a date: "
        "`- {test: NAME, reason: ..., until: YYYY-MM-DD}`.",
    )
    history: bool = Field(
        True,
        description="Store every run of this suite in its history (default `.mcptest/history.db` beside the suite); "
        "`false` turns it off, as `--no-history` does.",
    )
    _file: str = PrivateAttr("")
    _secrets: set[str] = PrivateAttr(default_factory=set)

    def test_names(self) -> list[str]:
        """Every test's name, each section in file order (what `quarantine:` entries may name)."""
        sections = (
            self.tools, self.resources, self.prompts, self.agents, self.tool_quality, self.security, self.fuzz,
            self.conformance,
        )  # fmt: skip
        return [t.name for section in sections for t in section]

    @property
    def file(self) -> str:
        """The path the suite was loaded from."""
        return self._file

    @property
    def secrets(self) -> set[str]:
        """Values taken from the environment that must never reach a report or a log."""
        return self._secrets
