"""Resource and prompt names are checked against every page of the server's lists, like a user's typo would be."""

from __future__ import annotations

import anyio

from mcptest.run.runner import run_suite
from mcptest.server.session import InProcessServer
from mcptest.suite.loader import load_suite
from tests.servers.paged_primitives import build

SUITE = """
servers:
  paged:
    command: [unused, the test serves it in memory]
resources:
  - name: a resource on the last page
    server: paged
    uri: paged://r/24
    expect:
      - result.contents[0].text: { exact: read paged://r/24 }
  - name: a template on the last page
    server: paged
    template: "paged://t24/{id}"
    args: { id: 3 }
    expect:
      - result.contents[0].uri: { exact: paged://t24/3 }
  - name: a concrete uri of a template on the last page
    server: paged
    uri: paged://t23/9
  - name: a resource that is not listed
    server: paged
    uri: paged://r/25
prompts:
  - name: a prompt on the last page
    server: paged
    prompt: p24
    args: { n: 7 }
    expect:
      - result.messages[0].content.text: { exact: "prompt p24 {'n': '7'}" }
  - name: a prompt that is not listed
    server: paged
    prompt: p250
"""


def test_names_are_found_on_any_page_and_an_unknown_one_fails_naming_the_closest(write) -> None:
    suite = load_suite(write("suite.yml", SUITE))
    result = anyio.run(lambda: run_suite(suite, servers={"paged": InProcessServer(build())}))
    outcome = {r.name: (r.status.value, r.error) for r in result.report.results}
    assert outcome == {
        "a resource on the last page": ("passed", None),
        "a template on the last page": ("passed", None),
        "a concrete uri of a template on the last page": ("passed", None),
        "a resource that is not listed": (
            "failed",
            "server 'paged': the server lists no resource 'paged://r/25' and no template matches it "
            "(did you mean 'paged://r/5'?)",
        ),
        "a prompt on the last page": ("passed", None),
        "a prompt that is not listed": (
            "failed",
            "server 'paged': the server lists no prompt 'p250' (did you mean 'p20'?)",
        ),
    }
