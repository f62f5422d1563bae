"""Bad resource, prompt, client-answer and auth input: one line per problem at its line:col, exit 2."""

from __future__ import annotations

from mcptest.core.exit_codes import ExitCode
from tests.conftest import run_cli

SUITE = """
servers:
  local:
    command: [mcptest, mock]
    auth: { bearer_env: TOKEN }
    client:
      elicitation: { action: acept }
resources:
  - name: no address
    server: local
  - name: both
    server: local
    uri: notes://a
    template: "notes://{id}"
    args: { id: 1 }
  - name: missing arg
    server: local
    template: "notes://{owner}/{id}"
    args: { owner: ada }
  - name: no args at all
    server: local
    template: "notes://{owner}"
  - name: args beside a uri
    server: local
    uri: notes://a
    args: { id: 1 }
prompts:
  - name: no prompt
    server: local
"""


def test_each_mistake_is_one_line_at_its_place(write) -> None:
    suite = write("suite.yml", SUITE)
    ran = run_cli("validate", str(suite))
    assert ran.code == ExitCode.USAGE
    assert ran.stderr.splitlines() == [
        f"{suite}:4:5: servers.local.auth: auth is for HTTP servers (`url:`); "
        "give a stdio server its secrets through `env:`",
        f"{suite}:6:30: servers.local.client.elicitation.action: unknown elicitation action 'acept' "
        "(did you mean 'accept'?); it is one of accept, decline, cancel",
        f"{suite}:8:5: resources[0]: a resource test names exactly one of `uri:` or `template:` (with args); "
        "got neither `uri:` nor `template:`",
        f"{suite}:10:5: resources[1]: a resource test names exactly one of `uri:` or `template:` (with args); "
        "got both `uri:` and `template:`",
        f"{suite}:18:11: resources[2].args: template 'notes://{{owner}}/{{id}}' needs id: add it under `args:`",
        f"{suite}:19:5: resources[3].args: template 'notes://{{owner}}' needs owner: add it under `args:`",
        f"{suite}:25:11: resources[4].args: args fill a `template:`; a concrete `uri:` takes none "
        "(drop args, or use template)",
        f"{suite}:27:5: prompts[0]: missing required key 'prompt'",
    ]


def test_an_unset_bearer_variable_is_named_where_it_is_used(write) -> None:
    suite = write(
        "suite.yml",
        """
servers:
  hosted:
    url: http://127.0.0.1:9/mcp
    auth: { bearer_env: MCPTEST_SURELY_UNSET_TOKEN }
""",
    )
    ran = run_cli("validate", str(suite))
    assert ran.code == ExitCode.USAGE
    assert ran.stderr.splitlines() == [
        f"{suite}:4:25: servers.hosted.auth.bearer_env: environment variable MCPTEST_SURELY_UNSET_TOKEN is not set"
    ]
