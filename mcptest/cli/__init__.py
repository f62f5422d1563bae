"""The `mcptest` command line: a thin adapter over the domain packages.

Each command lives in its own module and imports heavy packages (mcp, anthropic, openai, scipy) only
inside the function that needs them, so `mcptest --help` stays fast.
"""

from __future__ import annotations

import signal
import sys

import typer
from typer.exceptions import TyperException

from mcptest.cli import doctor, mock, report, rules, run, schema, tool_bench, tools, validate
from mcptest.errors import UserError
from mcptest.exit_codes import ExitCode

_INTERRUPTED = 130

app = typer.Typer(
    name="mcptest",
    help="Test MCP servers and the AI agents that use them.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

# The command registry: one plain list, one module per command.
for command in (run, validate, schema, mock, doctor, rules, tools, tool_bench, report):
    command.register(app)


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the app, turning user mistakes into `file:line:col` lines and exit 2."""
    signal.signal(signal.SIGTERM, _terminate)
    try:
        code = app(args=argv, standalone_mode=False)
    except UserError as exc:
        for problem in exc.problems:
            print(str(problem), file=sys.stderr)
        sys.exit(ExitCode.USAGE)
    except (KeyboardInterrupt, typer.Abort):  # click turns Ctrl-C into Abort
        print("mcptest: interrupted", file=sys.stderr)
        sys.exit(_INTERRUPTED)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except TyperException as exc:  # click's usage errors: bad flag, unknown command, missing argument
        exc.show()  # type: ignore[attr-defined]
        sys.exit(ExitCode.USAGE)
    if code == _INTERRUPTED:  # typer returns Ctrl-C as this code when not in standalone mode
        print("mcptest: interrupted", file=sys.stderr)
    sys.exit(int(code) if isinstance(code, int) else ExitCode.OK)


def _terminate(signum: int, frame: object) -> None:
    """SIGTERM takes the Ctrl-C path, so servers are shut down and no child process is orphaned."""
    raise KeyboardInterrupt
