"""The OTLP/HTTP receiver the export tests send to: a real HTTP server on 127.0.0.1 that decodes each POST with
the opentelemetry-proto package, as a collector's OTLP/HTTP receiver does; and Arize Phoenix, a real backend."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, free_port


class Receiver(BaseHTTPRequestHandler):
    """An OTLP/HTTP traces endpoint: decodes each POST with the opentelemetry-proto package."""

    requests: list[Any]
    hang: threading.Event | None = None

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
            ExportTraceServiceRequest,
            ExportTraceServiceResponse,
        )

        body = self.rfile.read(int(self.headers["Content-Length"]))
        if self.hang is not None:
            self.hang.wait(10)
            return
        message = ExportTraceServiceRequest()
        message.ParseFromString(body)
        type(self).requests.append((self.path, self.headers["Content-Type"], message))
        reply = ExportTraceServiceResponse().SerializeToString()
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    def log_message(self, *args: Any) -> None:
        """Quiet."""


@pytest.fixture
def receiver() -> Iterator[tuple[str, type[Receiver]]]:
    handler = type("Receiver", (Receiver,), {"requests": [], "hang": None})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", handler
    finally:
        if handler.hang is not None:
            handler.hang.set()
        server.shutdown()
        server.server_close()


PHOENIX_VENV = ROOT / ".venv-phoenix"
PHOENIX_START_S = 120.0


@dataclass(frozen=True)
class Phoenix:
    """A `phoenix serve` on 127.0.0.1: its base URL, and the Python of its venv (for its client and the agent)."""

    url: str
    python: Path


@pytest.fixture(scope="session")
def phoenix(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Phoenix]:
    """Arize Phoenix from its own venv (`make phoenix`, which `make test` runs), serving on free loopback ports with
    a fresh working directory; waited for (bounded), and stopped with its process group whatever happens."""
    if not (PHOENIX_VENV / ".installed").is_file():
        pytest.skip("no Phoenix venv: `make phoenix` builds it (`make test` does)")
    port, grpc = free_port(), free_port()
    work = tmp_path_factory.mktemp("phoenix")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PHOENIX_", "OTEL_"))}
    env |= {
        "PHOENIX_HOST": "127.0.0.1",
        "PHOENIX_PORT": str(port),
        "PHOENIX_GRPC_PORT": str(grpc),
        "PHOENIX_WORKING_DIR": str(work),
        "PHOENIX_TELEMETRY_ENABLED": "false",
    }
    log = (work / "serve.log").open("wb")
    proc = subprocess.Popen(
        [str(PHOENIX_VENV / "bin" / "phoenix"), "serve"],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + PHOENIX_START_S
        while not _healthy(url):
            if proc.poll() is not None or time.monotonic() > deadline:
                tail = (work / "serve.log").read_text(errors="replace")[-3000:]
                pytest.fail(f"phoenix serve did not come up within {PHOENIX_START_S:g} s:\n{tail}")
            time.sleep(0.2)
        yield Phoenix(url, PHOENIX_VENV / "bin" / "python")
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)
        log.close()


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/healthz", timeout=2) as answer:
            return bool(answer.status == 200)
    except OSError:
        return False
