"""Coverage: the pure counting (`records/coverage.py`) and, end to end, what `mcptest run` reaches of two real
servers (the mock as a subprocess, an SDK server with resources, templates and prompts), its `coverage:` gates,
`report --coverage` and `report merge` of shards."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import jsonschema
import pytest

from mcptest.core.exit_codes import ExitCode
from mcptest.records.coverage import Coverage, Tally, measure, merge_coverage
from mcptest.records.trace import ToolCall, Trace
from mcptest.schemas import report_schema
from tests.conftest import ROOT, run_cli

MANIFEST = ROOT / "examples" / "quickstart" / "weather.yml"

TOOLS = [
    {
        "name": "convert",
        "inputSchema": {
            "type": "object",
            "properties": {
                "value": {"type": "number"},
                "to": {"enum": ["celsius", "fahrenheit", "kelvin"]},
                "precision": {"type": "integer", "enum": [0, 1, 2]},
                "units": {"type": "array", "items": {"enum": ["a", "b"]}},
            },
            "required": ["value", "to"],
        },
    },
    {"name": "ping", "inputSchema": {"type": "object", "properties": {}}},
    {"name": "lookup", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}},
]


def test_figures_count_over_the_whole_catalog_with_exact_counts_and_half_up_percents() -> None:
    tally = Tally()
    tally.tool_call("s", "convert", {"value": 1, "to": "kelvin", "precision": 1.0, "units": ["b"]}, is_error=False)
    tally.tool_call("s", "convert", {"value": "x", "to": "rankine"}, is_error=True)
    tally.tool_call("s", "gone", {}, is_error=False)
    cov = measure("s", tally, tools=TOOLS)
    f = cov.figures
    assert (f["tools"].covered, f["tools"].total, f["tools"].percent) == (1, 3, 33)
    assert (f["arguments"].covered, f["arguments"].total, f["arguments"].percent) == (4, 5, 80)
    assert (f["required_arguments"].covered, f["required_arguments"].total) == (2, 2)
    # 8 enum values in the catalog: kelvin, 1 (sent as 1.0: the same JSON number) and "b" reached: 3/8 = 37.5 -> 38
    assert (f["enums"].covered, f["enums"].total, f["enums"].percent) == (3, 8, 38)
    assert (f["tools_succeeding"].covered, f["tools_failing"].covered) == (1, 1)
    assert f["resources"].percent is None and f["resources"].total == 0
    assert cov.unlisted == ["gone"]
    missing = cov.missing()
    assert missing["tools"] == ["ping", "lookup"]
    assert missing["arguments"] == ["lookup.q"]
    assert 'convert.to="celsius"' in missing["enums"] and "convert.precision=1" not in missing["enums"]
    assert cov.targets()["coverage.enums"] == 38


def test_agent_runs_count_only_the_calls_the_server_accepted() -> None:
    calls = [
        ToolCall(server="s", name="lookup", args={"q": "x"}),
        ToolCall(server="s", name="ping", args={}, is_error=True),
        ToolCall(server="s", name="convert", args="{not json", unparseable_arguments=True),
        ToolCall(server=None, name="convert", args={"value": 1}),
    ]
    tally = Tally()
    tally.trace(Trace(tool_calls=calls))
    cov = measure("s", tally, tools=TOOLS)
    assert [n for n, t in cov.tools.items() if t.called] == ["lookup"]
    assert cov.figures["arguments"].covered == 1


def test_resources_templates_and_prompts_with_and_without_arguments() -> None:
    tally = Tally()
    tally.resource_read("s", "notes://readme")
    tally.resource_read("s", "notes://ann/7")  # fills the template without the test naming it
    tally.prompt_get("s", "review", {"language": "go"})
    cov = measure(
        "s",
        tally,
        resources=[{"uri": "notes://readme"}, {"uri": "notes://todo"}],
        templates=[{"uriTemplate": "notes://{owner}/{id}"}, {"uriTemplate": "files://{path}"}],
        prompts=[{"name": "review", "arguments": [{"name": "language"}]}, {"name": "hello"}],
    )
    assert cov.resources == {"notes://readme": True, "notes://todo": False}
    assert cov.templates == {"notes://{owner}/{id}": True, "files://{path}": False}
    assert cov.prompts["review"].with_arguments and not cov.prompts["review"].without_arguments
    assert (cov.figures["prompts"].covered, cov.figures["prompts"].total) == (1, 2)


def test_merging_shards_is_the_union_not_an_average() -> None:
    one, two, both = Tally(), Tally(), Tally()
    for tally in (one, both):
        tally.tool_call("s", "convert", {"value": 1, "to": "celsius"}, is_error=False)
    for tally in (two, both):
        tally.tool_call("s", "convert", {"value": 2, "to": "kelvin", "units": ["a"]}, is_error=True)
        tally.tool_call("s", "ping", {}, is_error=False)
    shards = [Coverage(servers=[measure("s", t, tools=TOOLS)], counted=1, not_counted=2) for t in (one, two)]
    merged = merge_coverage(shards)
    assert merged is not None
    assert merged.servers == [measure("s", both, tools=TOOLS)]
    assert merged.not_counted == 1  # 3 tests in the suite, one ran in each shard
    assert merged.servers[0].figures["tools"].percent == 67


def _suite(write, extra: str = "") -> Path:
    path = write(
        "suite.yml",
        f"""
        servers:
          weather:
            command: ["mcptest", "mock", "--tools-from", "{MANIFEST}"]
          surface:
            command: ["{sys.executable}", "-m", "tests.servers.surface_server"]
            cwd: "{ROOT}"
        tools:
          - name: paris
            server: weather
            tool: get_weather
            args: {{ city: Paris }}
          - name: to fahrenheit
            server: weather
            tool: convert_temperature
            args: {{ value: 22, to: fahrenheit }}
          - name: chatty
            server: surface
            tool: chatty
            args: {{ steps: 1 }}
        resources:
          - name: readme
            server: surface
            uri: notes://readme
          - name: a note
            server: surface
            template: "notes://{{owner}}/{{id}}"
            args: {{ owner: ann, id: 7 }}
        prompts:
          - name: review
            server: surface
            prompt: code_review
            args: {{ language: go }}
        """,
    )
    path.write_text(path.read_text() + extra, encoding="utf-8")
    return path


GATES = """
coverage:
  - server: weather
    expect:
      - coverage.tools: { ">=": 100 }
      - coverage.enums: { ">=": 50 }
  - server: surface
    expect:
      - coverage.tools: { ">=": 50 }
      - coverage.templates: { ">=": 100 }
"""


@pytest.fixture(scope="module")
def gated_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object, Path]:
    folder = tmp_path_factory.mktemp("cov")

    def write(name: str, text: str) -> Path:
        import textwrap

        path = folder / name
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
        return path

    suite = _suite(write, GATES)
    out = folder / "run.json"
    ran = run_cli("run", str(suite), "-r", "json", "-o", str(out), timeout=120)
    return suite, ran, out


def test_a_run_measures_each_servers_catalog_and_gates_on_it(gated_run) -> None:
    suite, ran, out = gated_run
    assert ran.code == ExitCode.FAILED, ran.stderr  # surface: 1 of 4 tools called, under the 50% floor
    data = json.loads(out.read_text())
    jsonschema.validate(data, report_schema())
    by_server = {s["server"]: s for s in data["coverage"]["servers"]}
    weather, surface = by_server["weather"], by_server["surface"]
    assert weather["figures"]["tools"] == {"percent": 100, "covered": 2, "total": 2}
    assert weather["tools"]["convert_temperature"]["arguments"]["to"]["enum_sent"] == ["fahrenheit"]
    assert surface["figures"]["tools"] == {"percent": 25, "covered": 1, "total": 4}
    assert surface["resources"] == {"notes://readme": True} and surface["templates"] == {"notes://{owner}/{id}": True}
    assert surface["prompts"]["code_review"]["with_arguments"] is True
    gates = {g["test"]: g for g in data["gates"] if g["block"] == "coverage"}
    assert gates["coverage weather"]["status"] == "passed"
    failed = gates["coverage surface"]
    assert (
        failed["status"] == "failed"
        and failed["line"] == suite.read_text().splitlines().index("  - server: surface") + 1
    )
    (failure,) = failed["failures"]
    assert failure["target"] == "coverage.tools"
    assert "not reached: summarize, who, roots" in failure["message"]


def test_the_console_names_untested_tools_and_report_coverage_reads_a_saved_run(gated_run) -> None:
    _, ran, out = gated_run
    pretty = run_cli("report", str(out))
    assert "coverage surface: tools 25% (1/4)" in pretty.stdout
    assert "untested: summarize, who, roots" in pretty.stdout
    shown = run_cli("report", str(out), "--coverage")
    assert shown.code == ExitCode.OK, shown.stderr
    assert "  untested tool: who" in shown.stdout and "  untested enum value: convert_temperature.to=" in shown.stdout
    assert "FAILED coverage surface" in shown.stdout
    as_json = json.loads(run_cli("report", str(out), "--coverage", "-f", "json").stdout)
    assert as_json["servers"][0]["server"] == "surface"
    md = run_cli("report", str(out), "-f", "md").stdout
    assert "| surface | 25% (1/4) |" in md and "| surface | tool | `who` |" in md
    html = run_cli("report", str(out), "-f", "html", "--no-history").stdout
    assert "<h2>Coverage</h2>" in html and 'aria-label="25% of tools called"' in html


def test_tests_that_did_not_run_are_not_counted_and_the_report_says_so(write) -> None:
    suite = _suite(write)
    ran = run_cli("run", str(suite), "--filter", "paris")
    assert "coverage weather: tools 50% (1/2)" in ran.stdout, ran.stdout + ran.stderr
    assert "5 tests of the suite did not run (filtered out, sharded away, -x, skipped): not counted" in ran.stdout
    assert "coverage surface" not in ran.stdout  # no test of it ran: not opened, not measured


def test_shards_defer_the_gates_and_the_merge_judges_the_union(gated_run, tmp_path: Path) -> None:
    suite, _, whole = gated_run
    shards = []
    for k in (1, 2):
        out = tmp_path / f"s{k}.json"
        ran = run_cli("run", str(suite), "--shard", f"{k}/2", "-r", "json", "-o", str(out), timeout=120)
        gates = [g for g in json.loads(out.read_text())["gates"] if g["block"] == "coverage"]
        assert {g["status"] for g in gates} == {"skipped"}, ran.stderr
        shards.append(str(out))
    merged = tmp_path / "merged.json"
    done = run_cli("report", "merge", *shards, "-o", str(merged), "--no-history")
    assert done.code == ExitCode.FAILED, done.stderr
    expected = json.loads(whole.read_text())
    got = json.loads(merged.read_text())
    assert got["coverage"] == expected["coverage"]
    assert [g["status"] for g in got["gates"]] == [g["status"] for g in expected["gates"]]


def test_an_unknown_coverage_figure_is_a_located_error(write) -> None:
    suite = _suite(write, "\ncoverage:\n  - server: weather\n    expect:\n      - coverage.toolz: { '>=': 1 }\n")
    ran = run_cli("run", str(suite))
    assert ran.code == ExitCode.USAGE, ran.stdout + ran.stderr
    lines = suite.read_text().splitlines()
    row = next(i for i, line in enumerate(lines) if "coverage.toolz" in line) + 1
    assert f"{suite}:{row}:9: coverage[0].expect[0].coverage.toolz: unknown coverage figure" in ran.stderr
    assert "did you mean 'tools'" in ran.stderr
