"""A fork server for the tests' `python -m mcptest` runs.

Most of a test's CLI run is Python importing mcp, pydantic's models, rich and typer, a second or more of CPU each
time, and the suite runs the CLI hundreds of times on two cores. So each pytest worker starts one clean Python
that imports those once and then forks a child per command. The child is still a process of its own, started from
that pristine state as `python -m mcptest ARGS` would be: its own working folder, environment, argv, stdin from
/dev/null, stdout and stderr to files, its exit code (or the signal that ended it), its own interpreter shutdown.

What it cannot copy falls back to a real subprocess: an environment that changes how Python starts (`PYTHON*`
variables), a second run at the same moment from another thread, or a fork server that failed to start.
`MCPTEST_TESTS_FORK=0` turns it off for a whole run.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

PRELOAD = (
    "mcptest.cli",
    "mcptest.cli.run",
    "mcptest.run.runner",
    "mcptest.suite.loader",
    "mcp.client.session",
    "mcp.client.stdio",
    "mcp.client.streamable_http",
    "anyio",
    "rich.console",
)
"""What nearly every command imports; anything else a command needs it imports itself, as from a fresh start."""


# --- the fork server's side -----------------------------------------------------------------------------------------


def _send(sock: socket.socket, message: dict[str, Any]) -> None:
    sock.sendall(json.dumps(message).encode() + b"\n")


def _child(request: dict[str, Any], sock: socket.socket) -> None:
    """Become `python -m mcptest ARGS` in the request's folder and environment; never returns."""
    code = 1
    try:
        os.close(sock.fileno())  # the server's channel is not the child's (the server's reader keeps the socket open)
        os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
        os.dup2(os.open(request["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), 1)
        os.dup2(os.open(request["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), 2)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        import random

        random.seed()  # a fresh process seeds from the OS; a fork would repeat the server's sequence
        sys.path[0] = os.getcwd()  # what `-m` puts first
        sys.argv = [str(Path(importlib.import_module("mcptest").__file__).parent / "__main__.py"), *request["args"]]
        code = _run_main()
    finally:
        os._exit(code)


def _run_main() -> int:
    """Run mcptest's __main__ and shut down as the interpreter would after it: wait for threads, atexit, flush."""
    import atexit
    import runpy
    import traceback

    code = 0
    try:
        runpy.run_module("mcptest", run_name="__main__", alter_sys=True)
    except SystemExit as exc:
        if exc.code is None:
            code = 0
        elif isinstance(exc.code, int):
            code = exc.code
        else:
            print(exc.code, file=sys.stderr)
            code = 1
    except BaseException:  # noqa: BLE001 - what the interpreter prints for an uncaught exception
        traceback.print_exc()
        code = 1
    threading._shutdown()  # type: ignore[attr-defined]  # the interpreter's wait for non-daemon threads
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed stream, as at the interpreter's own exit
            stream.flush()
    return code


def serve(fd: int) -> None:
    """The fork server: preload, say whether forking is safe, then fork one child per request line."""
    sock = socket.socket(fileno=fd)
    try:
        for name in PRELOAD:
            importlib.import_module(name)
        safe = threading.active_count() == 1  # forking copies only this thread; another could hold a lock
    except Exception as exc:  # noqa: BLE001 - told to the client, which then runs real subprocesses
        _send(sock, {"ready": False, "why": repr(exc)})
        return
    _send(sock, {"ready": safe, "why": "" if safe else "a preloaded module started a thread"})
    sys.stdout.flush()
    sys.stderr.flush()
    for line in sock.makefile("r"):
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            _child(request, sock)
        _send(sock, {"pid": pid})
        _, status = os.waitpid(pid, 0)
        _send(sock, {"code": os.waitstatus_to_exitcode(status)})


# --- the tests' side ------------------------------------------------------------------------------------------------


class ForkServer:
    """One per pytest worker, started on first use; `run` returns None when a real subprocess must be used."""

    def __init__(self, python: str, root: Path, env: dict[str, str]) -> None:
        self.python, self.root, self.env = python, root, env
        self.lock = threading.Lock()
        self.proc: subprocess.Popen[bytes] | None = None
        self.sock: socket.socket | None = None
        self.reader: Any = None
        self.usable = os.environ.get("MCPTEST_TESTS_FORK", "1") != "0" and hasattr(os, "fork")

    def _start(self) -> bool:
        ours, theirs = socket.socketpair()
        self.proc = subprocess.Popen(
            [self.python, "-m", "tests.forkserver", str(theirs.fileno())],
            pass_fds=(theirs.fileno(),), cwd=self.root, env=self.env,
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        theirs.close()
        self.sock, self.reader = ours, ours.makefile("r")
        ours.settimeout(120)
        try:
            hello = json.loads(self.reader.readline() or "{}")
        except (OSError, ValueError):
            hello = {}
        ours.settimeout(None)
        return bool(hello.get("ready"))

    def close(self) -> None:
        """End the fork server: it leaves when its channel closes (as it does when this process ends)."""
        if self.proc is not None:
            self.reader.close()
            assert self.sock is not None
            self.sock.close()
            self.proc.wait(timeout=30)
            self.proc = None

    def run(self, args: list[str], cwd: Path | str, env: dict[str, str], timeout: float) -> tuple[int, str, str] | None:
        starts_alike = {k: v for k, v in env.items() if k.startswith("PYTHON")} == {
            k: v for k, v in self.env.items() if k.startswith("PYTHON")
        }
        if not self.usable or not starts_alike or not self.lock.acquire(blocking=False):
            return None
        try:
            if self.proc is None and not self._start():
                self.usable = False
                return None
            return self._run(args, cwd, env, timeout)
        finally:
            self.lock.release()

    def _run(self, args: list[str], cwd: Path | str, env: dict[str, str], timeout: float) -> tuple[int, str, str]:
        assert self.sock is not None
        with tempfile.TemporaryDirectory(prefix="mcptest-fork-") as scratch:
            out, err = Path(scratch) / "stdout", Path(scratch) / "stderr"
            where = str(Path(cwd).resolve())
            request = {"args": args, "cwd": where, "env": env, "stdout": str(out), "stderr": str(err)}
            _send(self.sock, request)
            pid = json.loads(self.reader.readline())["pid"]
            self.sock.settimeout(timeout)
            try:
                code = json.loads(self.reader.readline())["code"]
            except TimeoutError:
                os.kill(pid, 9)  # what subprocess.run does at its timeout
                self.sock.settimeout(None)
                json.loads(self.reader.readline())
                raise subprocess.TimeoutExpired(
                    [self.python, "-m", "mcptest", *args], timeout, _text(out), _text(err)
                ) from None
            finally:
                self.sock.settimeout(None)
            return code, _text(out), _text(err)


def _text(path: Path) -> str:
    """The file as `subprocess.run(text=True)` reads a pipe: the locale's encoding, universal newlines."""
    import locale

    data = path.read_bytes() if path.exists() else b""
    return data.decode(locale.getpreferredencoding(False)).replace("\r\n", "\n").replace("\r", "\n")


if __name__ == "__main__":
    serve(int(sys.argv[1]))
