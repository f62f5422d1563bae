"""A raw stdio MCP server (standard library only) that misbehaves on command: the tool called names the fault.

`python hostile_stdio.py [--pages MODE]` answers the handshake properly, then each `tools/call` by its tool name:
`echo` answers well; `stray_id` answers under an id never sent; `result_list` / `result_string` send a `result`
that is not an object; `big_int` a 5,000-digit integer; `nan` / `infinity` bare `NaN` / `-Infinity`; `huge` a
text of `mb` megabytes; `items` `count` content items; `stderr_line` one stderr line of `mb` megabytes, then an
error; `stderr_flood` writes `mb` megabytes to stderr in 100 KB lines, then answers an error naming how many bytes
its stderr holds on disk (a regular file's blocks: what mcptest's capture would let grow); `hang` never answers;
`deaf` stops reading stdin and never answers; `progress` sends `steps` progress notifications, napping `ms` between
them; `log` a log message; `sample` a sampling request, then answers.
`--pages cycle` makes `tools/list` hand out cursors a -> b -> a forever, `--pages same` the same cursor each time,
`--pages endless` a new cursor each time. Requests run in threads, so calls overlap under `--workers`.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from typing import Any

WRITE = threading.Lock()
TOOLS = ["echo", "stray_id", "result_list", "result_string", "big_int", "nan", "infinity", "huge", "items"]
TOOLS += ["stderr_line", "stderr_flood", "hang", "deaf", "progress", "log", "sample"]
PAGES = sys.argv[sys.argv.index("--pages") + 1] if "--pages" in sys.argv else "one"
DEAF = threading.Event()
_asked: dict[int, threading.Event] = {}


def send_raw(text: str) -> None:
    with WRITE:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()


def send(message: dict[str, Any]) -> None:
    send_raw(json.dumps(message))


def answer(request_id: Any, result: Any) -> None:
    send({"jsonrpc": "2.0", "id": request_id, "result": result})


def text(value: str) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": value}]}


def tools_page(cursor: str | None) -> dict[str, Any]:
    tools = [{"name": name, "inputSchema": {"type": "object"}} for name in TOOLS]
    following = {"one": None, "cycle": {None: "a", "a": "b", "b": "a"}.get(cursor), "same": "again"}
    if PAGES == "endless":
        return {"tools": tools, "nextCursor": str(int(cursor or 0) + 1)}
    page: dict[str, Any] = {"tools": tools}
    if following[PAGES]:
        page["nextCursor"] = following[PAGES]
    return page


def call(request_id: Any, name: str, args: dict[str, Any], meta: dict[str, Any]) -> None:
    if name == "echo":
        answer(request_id, text(str(args.get("text", "ok"))))
    elif name == "stray_id":
        answer(f"stray-{request_id}", text("answered under the wrong id"))
    elif name == "result_list":
        answer(request_id, [1, 2, 3])
    elif name == "result_string":
        answer(request_id, "done")
    elif name == "big_int":
        digits = "7" * int(args.get("digits", 5000))
        send_raw(f'{{"jsonrpc":"2.0","id":{json.dumps(request_id)},"result":{{"content":[],'
                 f'"structuredContent":{{"n":{digits}}}}}}}')  # fmt: skip
    elif name in ("nan", "infinity"):
        bare = "NaN" if name == "nan" else "-Infinity"
        send_raw(f'{{"jsonrpc":"2.0","id":{json.dumps(request_id)},"result":{{"content":[],'
                 f'"structuredContent":{{"x":{bare}}}}}}}')  # fmt: skip
    elif name == "huge":
        answer(request_id, text("x" * int(float(args.get("mb", 1)) * 1_000_000)))
    elif name == "items":
        item = '{"type":"text","text":"i"}'
        items = ",".join([item] * int(args.get("count", 1000)))
        send_raw(f'{{"jsonrpc":"2.0","id":{json.dumps(request_id)},"result":{{"content":[{items}]}}}}')
    elif name == "stderr_line":
        sys.stderr.write("E" * int(float(args.get("mb", 1)) * 1_000_000) + "\n")
        sys.stderr.write("hostile: the last stderr line\n")
        sys.stderr.flush()
        send({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32603, "message": "wrote a long stderr line"}})
    elif name == "stderr_flood":
        import os
        import stat

        for _ in range(int(float(args.get("mb", 1)) * 10)):
            sys.stderr.write("F" * 99_999 + "\n")
        sys.stderr.write("hostile: the last stderr line\n")
        sys.stderr.flush()
        status = os.fstat(2)
        held = status.st_blocks * 512 if stat.S_ISREG(status.st_mode) else 0
        send({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32603, "message": f"disk {held}"}})
    elif name == "hang":
        return
    elif name == "deaf":
        DEAF.set()
    elif name == "progress":
        token = meta.get("progressToken")
        for step in range(int(args.get("steps", 3))):
            if token is not None:
                params = {"progressToken": token, "progress": step + 1, "total": args.get("steps", 3)}
                send({"jsonrpc": "2.0", "method": "notifications/progress", "params": params})
            time.sleep(int(args.get("ms", 5)) / 1000)
        answer(request_id, text(f"progress {args.get('tag', '')}"))
    elif name == "log":
        params = {"level": "info", "data": f"log {args.get('tag', '')}"}
        send({"jsonrpc": "2.0", "method": "notifications/message", "params": params})
        answer(request_id, text("logged"))
    elif name == "sample":
        asked = 10_000 + request_id if isinstance(request_id, int) else 10_000
        _asked[asked] = threading.Event()
        message = {"role": "user", "content": {"type": "text", "text": f"sample {args.get('tag', '')}"}}
        params = {"messages": [message], "maxTokens": 10}
        send({"jsonrpc": "2.0", "id": asked, "method": "sampling/createMessage", "params": params})
        _asked[asked].wait(10)
        answer(request_id, text("sampled"))
    else:
        send({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32602, "message": f"unknown tool {name}"}})


def handle(message: dict[str, Any]) -> None:
    method, request_id, params = message.get("method"), message.get("id"), message.get("params") or {}
    if method is None and request_id in _asked:  # the client's answer to our sampling request
        _asked[request_id].set()
    elif method == "initialize":
        info = {"name": "hostile-stdio", "version": "1.0"}
        caps = {"tools": {}, "logging": {}}
        answer(request_id, {"protocolVersion": "2025-06-18", "capabilities": caps, "serverInfo": info})
    elif method == "tools/list":
        answer(request_id, tools_page(params.get("cursor")))
    elif method == "tools/call":
        args = (params.get("name"), params.get("arguments") or {}, params.get("_meta") or {})
        threading.Thread(target=call, args=(request_id, *args), daemon=True).start()
    elif method == "ping" or method == "logging/setLevel":
        answer(request_id, {})
    elif request_id is not None:
        send({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32601, "message": f"no method {method}"}})


def main() -> None:
    for line in sys.stdin:
        if line.strip():
            handle(json.loads(line))
        if DEAF.is_set():  # stop reading stdin: the client's writes back up, and nothing answers
            time.sleep(3600)


if __name__ == "__main__":
    main()
