"""The `mcptest` command line: a thin adapter over the domain packages.

May import: every layer (it is an interface: it parses options, calls one function below, renders).

Each command lives in its own module and imports heavy packages (mcp, anthropic, openai, scipy) only
inside the function that needs them, so `mcptest --help` stays fast.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import os
import signal
import sys

import typer
from typer.exceptions import TyperException

from mcptest import __version__
from mcptest.core.errors import UserError
from mcptest.core.exit_codes import ExitCode
from mcptest.core.printable import printable

# The command registry: one module per command, named for it (`tool_bench` holds `tool-bench`).
COMMANDS = (
    "run", "validate", "schema", "mock", "doctor", "rules", "tools", "catalog", "tool_bench", "report", "init", "diff",
    "pin", "security", "history", "fuzz", "badge", "conformance", "load", "serve",
)  # fmt: skip


def build_app(args: list[str]) -> typer.Typer:
    """The `mcptest` app for these arguments: when they start with a command's name, that command alone.

    An invocation that names its command imports and builds that one: importing the other command modules and
    inspecting their signatures would cost ~50 ms of every start. `--help`, a bare `mcptest` and unknown commands
    (whose error lists the others) get them all.
    """
    app = typer.Typer(
        name="mcptest",
        help=f"mcptest {__version__}: test MCP servers and the AI agents that use them.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    named = args[0].replace("-", "_") if args else None
    modules = [named] if named in COMMANDS else COMMANDS
    for module in modules:
        importlib.import_module(f"mcptest.cli.{module}").register(app)
    if len(modules) == 1:
        app.callback()(_group)  # with a callback typer keeps one command a subcommand: `mcptest NAME ...`
    return app


def _group() -> None:
    """Test MCP servers and the AI agents that use them."""


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the app, turning user mistakes into `file:line:col` lines and exit 2."""
    signal.signal(signal.SIGTERM, _terminate)
    args = sys.argv[1:] if argv is None else argv
    if args[:1] in (["--version"], ["-V"]):
        print(f"mcptest {__version__}")
        sys.exit(ExitCode.OK)
    try:
        from mcptest.server.limits import limits

        limits()  # a bound set to nonsense is the user's mistake, said before any server starts
        code = build_app(args)(args=args, standalone_mode=False)
    except UserError as exc:
        for problem in exc.problems:
            print(printable(str(problem)), file=sys.stderr)
        sys.exit(ExitCode.USAGE)
    except (KeyboardInterrupt, typer.Abort):  # click turns Ctrl-C into Abort
        print("mcptest: interrupted", file=sys.stderr)
        sys.exit(ExitCode.INTERRUPTED)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except TyperException as exc:  # click's usage errors: bad flag, unknown command, missing argument
        exc.show()  # type: ignore[attr-defined]
        sys.exit(ExitCode.USAGE)
    if code == ExitCode.INTERRUPTED:  # typer returns Ctrl-C as this code when not in standalone mode
        print("mcptest: interrupted", file=sys.stderr)
    sys.exit(int(code) if isinstance(code, int) else ExitCode.OK)


def entry() -> None:
    """The `mcptest` executable: `main`, then exit without tearing the interpreter down.

    Every command has closed its sessions and written its files (atomically) by the time `main` exits, so
    what is left is Python freeing some 400 modules one object at a time: ~60 ms, a fifth of `mcptest
    validate`. `_leave` is registered first so it runs last, after threads are joined and every other atexit
    handler has run; it only flushes stdio and ends the process with main's exit code. Tests call `main`.
    """
    # Before the first model is built, pydantic looks for plugins (observability hooks) by reading the entry points
    # of every installed package (~15 ms). mcptest's own models are not what they are for; a user's setting wins.
    # Servers do not inherit it: a stdio server gets only the SDK's default variables and the suite's `env:`.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    from mcptest.cli import common

    common.FAST_EXIT = True
    code: list[int] = []
    atexit.register(_leave, code)
    try:
        main()
    except SystemExit as exc:
        if exc.code is None or isinstance(exc.code, int):
            code.append(exc.code or 0)
        raise


def _leave(code: list[int]) -> None:
    if not code:  # main ended with a traceback or a message: let Python report it as usual
        return
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe: nothing more can be said
            stream.flush()
    os._exit(code[0])


def _terminate(signum: int, frame: object) -> None:
    """SIGTERM takes the Ctrl-C path, so servers are shut down and no child process is orphaned.

    Inside `anyio.run` the Ctrl-C handler is asyncio's, which cancels the run's task: sessions close, finished
    results are reported. Elsewhere it is Python's, which raises KeyboardInterrupt.
    """
    handler = signal.getsignal(signal.SIGINT)
    if callable(handler) and handler is not _terminate:
        handler(signal.SIGINT, frame)  # type: ignore[arg-type]
    else:
        raise KeyboardInterrupt
