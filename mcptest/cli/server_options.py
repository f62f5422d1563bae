"""The options that name one server, shared by every command that connects to one (doctor, tools)."""

from __future__ import annotations

from typing import Annotated

import typer

SuiteArg = Annotated[str | None, typer.Argument(help="A suite file (default: mcptest.yaml or mcptest.yml).")]
ServerOpt = Annotated[str | None, typer.Option("--server", help="The suite's server to use.")]
CommandOpt = Annotated[str | None, typer.Option("--command", help='A stdio server, e.g. "uvx mcp-server-time".')]
UrlOpt = Annotated[str | None, typer.Option("--url", help="A Streamable HTTP server.")]
HeaderOpt = Annotated[list[str] | None, typer.Option("--header", help="NAME:VALUE for --url (repeatable).")]
TimeoutOpt = Annotated[float, typer.Option("--timeout", help="Seconds for start-up and each request.")]
