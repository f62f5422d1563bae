"""The OTLP/HTTP receiver the export tests send to: a real HTTP server on 127.0.0.1 that decodes each POST with
the opentelemetry-proto package, as a collector's OTLP/HTTP receiver does."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest


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
