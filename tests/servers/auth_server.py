"""An MCP server over Streamable HTTP that requires a bearer token, with its own OAuth 2 token endpoint.

`/token` grants client_credentials (HTTP basic client auth); each token it issues is good for 3 MCP POSTs
(`MCPTEST_USES_PER_TOKEN` to change it), so a run of more calls must fetch a new one. `MCPTEST_STATIC_TOKEN` (if set)
is accepted forever. `/stats` tells how many tokens were issued and which Authorization headers were refused.
`MCPTEST_PRM=1` serves its Protected Resource Metadata (RFC 9728) at `/.well-known/oauth-protected-resource/mcp` and
names it in each 401's WWW-Authenticate.
"""

from __future__ import annotations

import base64
import os
import sys
from typing import Any

import uvicorn
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from tests.servers.demo_server import build

CLIENT_ID, CLIENT_SECRET = "mcptest-client", "s3cret-client-secret"
USES_PER_TOKEN = int(os.environ.get("MCPTEST_USES_PER_TOKEN", "3"))
issued: dict[str, int] = {}
refused: list[str] = []


async def token(request: Request) -> Response:
    form = await request.form()
    basic = request.headers.get("authorization", "")
    expected = "Basic " + base64.b64encode(f"{CLIENT_ID}:{CLIENT_SECRET}".encode()).decode()
    if form.get("grant_type") != "client_credentials" or basic != expected:
        return JSONResponse({"error": "invalid_client"}, status_code=401)
    value = f"token-{len(issued) + 1}"
    issued[value] = USES_PER_TOKEN
    return JSONResponse({"access_token": value, "token_type": "Bearer", "expires_in": 3600, "scope": form.get("scope")})


def authorized(request: Request) -> bool:
    header = request.headers.get("authorization", "")
    value = header.removeprefix("Bearer ")
    static = os.environ.get("MCPTEST_STATIC_TOKEN")
    if static and value == static:
        return True
    if request.method == "POST" and issued.get(value, 0) > 0:
        issued[value] -= 1
        return True
    if request.method != "POST" and value in issued:
        return True
    refused.append(header)
    return False


def app_with_auth() -> Any:
    mcp_app = build().streamable_http_app()
    prm = os.environ.get("MCPTEST_PRM") == "1"

    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await mcp_app(scope, receive, send)
        request = Request(scope, receive)
        if scope["path"] == "/token":
            response = await token(request)
        elif scope["path"] == "/stats":
            response = JSONResponse({"issued": len(issued), "refused": refused})
        elif scope["path"] == "/.well-known/oauth-protected-resource/mcp" and prm:
            origin = f"http://{request.headers.get('host')}"
            response = JSONResponse({"resource": f"{origin}/mcp", "authorization_servers": [origin]})
        elif scope["path"] != "/mcp":
            response = Response(status_code=404)
        elif not authorized(request):
            challenge = 'Bearer error="invalid_token"'
            if prm:
                challenge += f', resource_metadata="http://{request.headers.get("host")}/.well-known/oauth-protected-resource/mcp"'
            response = Response(status_code=401, headers={"WWW-Authenticate": challenge})
        else:
            return await mcp_app(scope, receive, send)
        await response(scope, receive, send)

    return app


if __name__ == "__main__":
    uvicorn.run(app_with_auth(), host="127.0.0.1", port=int(sys.argv[1]), log_level="info")
