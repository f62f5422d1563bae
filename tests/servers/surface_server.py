"""An SDK server that uses every primitive and callback: resources, templates, prompts, logs, progress, sampling,
elicitation and roots. Used over stdio and Streamable HTTP."""

from __future__ import annotations

import sys
import warnings
from typing import Annotated

from mcp import types
from mcp.server.elicitation import AcceptedElicitation, ElicitationResult
from mcp.server.mcpserver import Context, Elicit, ListRoots, MCPServer, Resolve, Sample
from pydantic import BaseModel

warnings.simplefilter("ignore")  # ctx.log is deprecated in 2026-07-28 and still what older clients get


class Person(BaseModel):
    name: str


def _ask_summary(text: str) -> Sample:
    content = types.TextContent(type="text", text=f"summarize: {text}")
    return Sample([types.SamplingMessage(role="user", content=content)], max_tokens=50)


def _ask_name() -> Elicit[Person]:
    return Elicit("What is your name?", Person)


def _ask_roots() -> ListRoots:
    return ListRoots()


def build() -> MCPServer:
    """The surface server."""
    server = MCPServer("surface-server", version="1.2.3")

    @server.resource("notes://readme", name="readme", mime_type="text/markdown")
    def readme() -> str:
        """The project's readme."""
        return "# Surface\n\nInstall with pip."

    @server.resource("notes://{owner}/{id}", name="note", mime_type="text/plain")
    def note(owner: str, id: str) -> str:
        """One note of an owner."""
        return f"note {id} of {owner}"

    @server.prompt()
    def code_review(language: str) -> str:
        """Ask for a review of code in a language."""
        return f"Please review this {language} code."

    @server.tool()
    async def chatty(steps: int, ctx: Context) -> str:
        """Logs one line per step and reports progress."""
        for i in range(1, steps + 1):
            await ctx.log("info", f"step {i}")
            await ctx.report_progress(i, steps, f"step {i} of {steps}")
        return f"did {steps} steps"

    @server.tool()
    async def summarize(text: str, sampled: Annotated[types.CreateMessageResult, Resolve(_ask_summary)]) -> str:
        """Asks the client's model for a summary (sampling)."""
        content = sampled.content
        return f"summary: {content.text if isinstance(content, types.TextContent) else content}"

    @server.tool()
    async def who(answer: Annotated[ElicitationResult[Person], Resolve(_ask_name)]) -> str:
        """Asks the user for their name (elicitation)."""
        return f"{answer.action}: {answer.data.name if isinstance(answer, AcceptedElicitation) else '-'}"

    @server.tool()
    async def roots(listed: Annotated[types.ListRootsResult, Resolve(_ask_roots)]) -> str:
        """Lists the client's roots."""
        return " ".join(str(r.uri) for r in listed.roots)

    return server


if __name__ == "__main__":
    transport = sys.argv[1] if len(sys.argv) > 1 else "stdio"
    if transport == "stdio":
        build().run()
    else:
        build().run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
