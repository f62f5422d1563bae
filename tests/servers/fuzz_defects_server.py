"""A raw stdio MCP server with planted defects for `mcptest fuzz` to find, each on one class of input.

- `get_record` {id: integer 1..100}: a string id kills the process (crash); an id below 1 answers with a Python
  traceback (stack_trace); an id above 100 is accepted as a success (invalid_accepted); every other invalid input
  is rejected properly.
- `search_notes` {query: string, limit?: integer 1..50}: an empty query never answers (hang).
- `get_summary` {detailed?: boolean} with an outputSchema: `detailed: true` returns structuredContent off it.
- `get_status` {verbose?: boolean}: `verbose: true` dumps the process environment (env_leak).
- `find_orders` {filter: {status: "open"|"closed", limit?: integer 1..10}}: only the top level is validated (filter
  must be an object), so an invalid value inside `filter` is accepted as a success (invalid_accepted): only inputs
  broken below the top level show it.
- `delete_record` (destructiveHint): held back unless `--allow-writes`; correct otherwise.

It validates arguments with jsonschema like a careful server, so nothing but the planted defects shows.
"""

from __future__ import annotations

import json
import os
import sys
import time

import jsonschema

RECORD = {
    "type": "object",
    "properties": {"id": {"type": "integer", "minimum": 1, "maximum": 100, "description": "The record's id."}},
    "required": ["id"],
    "additionalProperties": False,
}
SEARCH = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "maxLength": 200, "description": "Words to find."},
        "limit": {"type": "integer", "minimum": 1, "maximum": 50, "description": "At most this many notes."},
    },
    "required": ["query"],
}
ORDERS = {
    "type": "object",
    "properties": {
        "filter": {
            "type": "object",
            "properties": {
                "status": {"enum": ["open", "closed"]},
                "limit": {"type": "integer", "minimum": 1, "maximum": 10},
            },
            "required": ["status"],
            "additionalProperties": False,
        }
    },
    "required": ["filter"],
    "additionalProperties": False,
}
ORDERS_TOP = ORDERS | {"properties": {"filter": {"type": "object"}}}
"""What the server checks: the top level only (the planted nested-validation defect)."""
SUMMARY = {"type": "object", "properties": {"detailed": {"type": "boolean"}}}
SUMMARY_OUT = {
    "type": "object",
    "properties": {"count": {"type": "integer"}, "latest": {"type": "string"}},
    "required": ["count"],
}
TOOLS = [
    {
        "name": "get_record",
        "description": "Read one record by id.",
        "inputSchema": RECORD,
        "annotations": {"readOnlyHint": True},
    },
    {
        "name": "search_notes",
        "description": "Search the notes for words.",
        "inputSchema": SEARCH,
        "annotations": {"readOnlyHint": True},
    },
    {
        "name": "get_summary",
        "description": "How many records there are.",
        "inputSchema": SUMMARY,
        "outputSchema": SUMMARY_OUT,
        "annotations": {"readOnlyHint": True},
    },
    {
        "name": "get_status",
        "description": "Whether the store is up.",
        "inputSchema": SUMMARY | {"properties": {"verbose": {"type": "boolean"}}},
        "annotations": {"readOnlyHint": True},
    },
    {
        "name": "find_orders",
        "description": "Find orders by status.",
        "inputSchema": ORDERS,
        "annotations": {"readOnlyHint": True},
    },
    {
        "name": "delete_record",
        "description": "Delete one record by id.",
        "inputSchema": RECORD,
        "annotations": {"destructiveHint": True},
    },
]
TRACEBACK = """Traceback (most recent call last):
  File "/srv/records/store.py", line 41, in fetch
    return rows[record_id - 1]
IndexError: list index out of range"""


def text(value: str, error: bool = False) -> dict:
    return {"content": [{"type": "text", "text": value}], "isError": error}


def invalid(schema: dict, args: object) -> str | None:
    error = next(iter(jsonschema.Draft202012Validator(schema).iter_errors(args)), None)
    return None if error is None else error.message


def call(name: str, args: dict) -> dict:
    """The result of one tools/call, defects included."""
    if name in ("get_record", "delete_record"):
        record_id = args.get("id")
        if name == "get_record" and isinstance(record_id, str):
            print(f"fatal: cannot parse id {record_id!r}", file=sys.stderr, flush=True)
            os._exit(3)  # planted: a crash
        problem = invalid(RECORD, args)
        if name == "get_record" and isinstance(record_id, int) and not isinstance(record_id, bool):
            if record_id > 100:
                return text(f"record {record_id}: (empty)")  # planted: an invalid input accepted
            if record_id < 1:
                return text(TRACEBACK, error=True)  # planted: a leaked traceback
        if problem:
            return text(f"invalid arguments: {problem}", error=True)
        return text(f"record {record_id}: {'deleted' if name == 'delete_record' else 'hello'}")
    if name == "search_notes":
        if args.get("query") == "":
            time.sleep(3600)  # planted: a hang
        problem = invalid(SEARCH, args)
        return text(f"invalid arguments: {problem}", error=True) if problem else text("no notes match")
    if name == "find_orders":
        if problem := invalid(ORDERS_TOP, args):
            return text(f"invalid arguments: {problem}", error=True)
        return text("0 orders")  # planted: nothing inside `filter` is checked
    if name == "get_summary":
        if problem := invalid(SUMMARY, args):
            return text(f"invalid arguments: {problem}", error=True)
        data = {"count": "many"} if args.get("detailed") else {"count": 3}  # planted: off the outputSchema
        return {"content": [{"type": "text", "text": json.dumps(data)}], "structuredContent": data}
    if name == "get_status":
        if problem := invalid(SUMMARY | {"properties": {"verbose": {"type": "boolean"}}}, args):
            return text(f"invalid arguments: {problem}", error=True)
        return text(json.dumps(dict(os.environ)) if args.get("verbose") else "up")  # planted: the environment echoed
    return text(f"unknown tool {name}", error=True)


def answer(request: dict) -> dict:
    """The result for one request."""
    method, params = request.get("method"), request.get("params") or {}
    if method == "initialize":
        return {
            "protocolVersion": params.get("protocolVersion", "2025-06-18"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "fuzz-defects", "version": "1.0.0"},
        }
    if method == "tools/list":
        return {"tools": TOOLS}
    if method == "tools/call":
        return call(str(params.get("name")), params.get("arguments") or {})
    return {}


def main() -> None:
    """Answer requests, one JSON-RPC message a line, until stdin closes."""
    for line in sys.stdin:
        message = json.loads(line)
        if "id" in message and "method" in message:
            print(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": answer(message)}), flush=True)


if __name__ == "__main__":
    main()
