"""A raw Streamable HTTP MCP server (standard library only) that misbehaves on command: the tool called names the fault.

`python hostile_http.py PORT [--session-id MODE]` serves `/mcp` on 127.0.0.1 with plain JSON answers. Tools:
`echo` answers well; `status500` answers HTTP 500 with a text body; `gzip_bomb` a gzip body that inflates to `mb`
megabytes; `cutoff` promises a body it cuts short, then closes the connection; `stray_id` answers under an id never
sent; `nan` holds a bare NaN; `hang` never answers. `--session-id nonascii` hands out a session id that is not
ASCII; `--session-id long` one of 10 KB. Prints `ready` on stdout once listening.
"""

from __future__ import annotations

import json
import sys
import threading
import time
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

TOOLS = ["echo", "status500", "gzip_bomb", "cutoff", "stray_id", "nan", "hang"]
MODE = sys.argv[sys.argv.index("--session-id") + 1] if "--session-id" in sys.argv else "ascii"
SESSION = {"ascii": "session-1", "nonascii": "séance-☃", "long": "s" * 10_000}[MODE]


def bomb(mb: int, cache: dict[int, bytes] = {}) -> bytes:  # noqa: B006 (the cache)
    """A gzip body of `mb` megabytes of spaces (about 1,000 times smaller), built once per size."""
    if mb not in cache:
        packer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
        block = b" " * 1_000_000
        cache[mb] = b"".join(packer.compress(block) for _ in range(mb)) + packer.flush()
    return cache[mb]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        self.send_response(405)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_DELETE(self) -> None:
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self) -> None:
        message = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        method, request_id = message.get("method"), message.get("id")
        if request_id is None:
            self.reply(202, b"")
        elif method == "initialize":
            caps = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}}
            self.answer(request_id, {**caps, "serverInfo": {"name": "hostile-http", "version": "1"}}, session=True)
        elif method == "tools/list":
            self.answer(request_id, {"tools": [{"name": n, "inputSchema": {"type": "object"}} for n in TOOLS]})
        elif method == "tools/call":
            self.call(request_id, message["params"]["name"], message["params"].get("arguments") or {})
        elif method == "ping":
            self.answer(request_id, {})
        else:
            error = {"code": -32601, "message": f"no method {method}"}
            self.reply(200, json.dumps({"jsonrpc": "2.0", "id": request_id, "error": error}).encode())

    def call(self, request_id: Any, name: str, args: dict[str, Any]) -> None:
        if name == "echo":
            self.answer(request_id, {"content": [{"type": "text", "text": str(args.get("text", "ok"))}]})
        elif name == "status500":
            self.reply(500, b"Internal Server Error: the database is on fire\n" * 3, "text/plain")
        elif name == "gzip_bomb":
            self.reply(200, bomb(int(float(args.get("mb", 100)))), encoding="gzip")
        elif name == "cutoff":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "5000")
            self.end_headers()
            self.wfile.write(b'{"jsonrpc":"2.0","id":')
            self.wfile.flush()
            self.close_connection = True
        elif name == "stray_id":
            self.answer(f"stray-{request_id}", {"content": []})
        elif name == "nan":
            result = '{"content":[],"structuredContent":{"x":NaN}}'
            self.reply(200, f'{{"jsonrpc":"2.0","id":{json.dumps(request_id)},"result":{result}}}'.encode())
        elif name == "hang":
            time.sleep(3600)

    def answer(self, request_id: Any, result: Any, session: bool = False) -> None:
        body = json.dumps({"jsonrpc": "2.0", "id": request_id, "result": result}).encode()
        self.reply(200, body, session=session)

    def reply(self, status: int, body: bytes, kind: str = "application/json", *, encoding: str = "",
              session: bool = False) -> None:  # fmt: skip
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        if encoding:
            self.send_header("Content-Encoding", encoding)
        if session:  # latin-1 on the wire, as http.server writes headers: a non-ASCII id arrives as such bytes
            self.send_header("Mcp-Session-Id", SESSION.encode("utf-8").decode("latin-1"))
        self.end_headers()
        try:
            self.wfile.write(body)
        except OSError:  # the client stopped reading (a bounded body): nothing to tell
            self.close_connection = True


def main() -> None:
    server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print("ready", flush=True)
    try:
        sys.stdin.read()  # serve until stdin closes (the test that started it ends)
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()
