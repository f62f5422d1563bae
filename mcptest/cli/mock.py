"""`mcptest mock`: serve a mock MCP server over stdio."""

import typer


def register(app: typer.Typer) -> None:
    """Add this command to the app."""

    @app.command("mock")
    def mock(
        tools_from: str = typer.Option(
            None, "--tools-from", metavar="PATH", help="A .yaml/.yml manifest or a .json tools/list snapshot."
        ),
        preset: str = typer.Option(None, "--preset", metavar="NAME", help="A bundled manifest, e.g. 'weather'."),
        fault: str = typer.Option(
            "none",
            "--fault",
            metavar="KIND",
            help="Misbehave on tools/call: none, hang, slow:<ms>, error, recover-after:<n>, crash-after:<n>.",
        ),
    ) -> None:
        """Serve tools, resources and prompts over stdio (JSON-RPC on stdout, logs on stderr) until stdin closes."""
        import os
        import sys

        from mcptest.mock import serve

        serve(tools_from, preset, fault)
        # The server is a leaf process: skipping the interpreter's teardown of the SDK saves 0.2-0.4 s per shutdown.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)
