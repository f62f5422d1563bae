"""Auth against a local HTTP MCP server that requires a token, with its own token endpoint, on 127.0.0.1:
a bearer token from the environment, OAuth 2 client credentials (fetched again when refused), secrets masked;
and the legacy SSE transport."""

from __future__ import annotations

import json
import sys
import urllib.request
from pathlib import Path

from mcptest.core.exit_codes import ExitCode
from tests.conftest import free_port, run_cli
from tests.servers.auth_server import CLIENT_ID, CLIENT_SECRET
from tests.surface.servers import everything_http, listening

STATIC = "static-bearer-token-4711"
CALLS = "\n".join(
    f"""  - name: oauth call {i}
    server: oauth
    tool: add
    args: {{ a: {i}, b: 1 }}
    expect:
      - result.content[0].text: {{ exact: "{i + 1}" }}"""
    for i in range(1, 8)
)


def suite(write, port: int) -> Path:
    return write(
        "suite.yml",
        f"""
servers:
  bearer:
    url: http://127.0.0.1:{port}/mcp
    auth: {{ bearer_env: HOSTED_TOKEN }}
  oauth:
    url: http://127.0.0.1:{port}/mcp
    auth:
      oauth:
        client_credentials:
          token_url: http://127.0.0.1:{port}/token
          client_id: {CLIENT_ID}
          client_secret_env: CLIENT_SECRET
          scope: mcp
tools:
  - name: bearer call
    server: bearer
    tool: echo
    args: {{ text: "the token is {STATIC}" }}
{CALLS}
""",
    )


def test_bearer_and_client_credentials_reach_a_server_that_requires_a_token(write) -> None:
    port = free_port()
    env = {"MCPTEST_STATIC_TOKEN": STATIC}
    with listening([sys.executable, "-m", "tests.servers.auth_server", str(port)], "running on", env):
        ran = run_cli(
            "run",
            str(suite(write, port)),
            "--reporter",
            "json",
            env={"HOSTED_TOKEN": STATIC, "CLIENT_SECRET": CLIENT_SECRET},
            timeout=120,
        )
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/stats", timeout=10) as answer:
            stats = json.load(answer)
    report = json.loads(ran.stdout)
    assert ran.code == ExitCode.OK, ran.stdout + ran.stderr
    assert report["summary"]["passed"] == 8
    # 7 calls at 3 POSTs per token: each refused token was replaced by a fresh one from the token endpoint
    assert stats["issued"] >= 3
    assert "Bearer token-1" in stats["refused"]
    assert STATIC not in ran.stdout + ran.stderr
    assert CLIENT_SECRET not in ran.stdout + ran.stderr


def test_a_refused_token_fails_the_tests_with_the_reason_and_no_secret(write) -> None:
    port = free_port()
    with listening([sys.executable, "-m", "tests.servers.auth_server", str(port)], "running on"):
        ran = run_cli(
            "run",
            str(suite(write, port)),
            "--reporter",
            "json",
            env={"HOSTED_TOKEN": "wrong-token-value", "CLIENT_SECRET": "wrong-client-secret"},
            timeout=120,
        )
    errors = {r["server"]: r["error"] for r in json.loads(ran.stdout)["results"]}
    assert ran.code == ExitCode.FAILED
    assert errors["oauth"] == (
        f"server 'oauth': cannot reach http://127.0.0.1:{port}/mcp: "
        'Token exchange failed (401): {"error":"invalid_client"}'
    )
    assert errors["bearer"].startswith(f"server 'bearer': cannot reach http://127.0.0.1:{port}/mcp: ")
    assert "wrong-token-value" not in ran.stdout + ran.stderr
    assert "wrong-client-secret" not in ran.stdout + ran.stderr


def test_a_legacy_sse_server_is_reached_with_transport_sse(write) -> None:
    with everything_http("sse") as url:
        path = write(
            "suite.yml",
            f"""
servers:
  legacy:
    url: {url}
    transport: sse
prompts:
  - name: the args prompt over sse
    server: legacy
    prompt: args-prompt
    args: {{ city: Paris }}
    expect:
      - result.messages[0].content.text: {{ exact: "What's weather in Paris?" }}
""",
        )
        ran = run_cli("run", str(path), timeout=120)
    assert ran.code == ExitCode.OK, ran.stdout + ran.stderr
