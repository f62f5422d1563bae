"""Arize Phoenix, a backend users run (from its own venv, `make phoenix`): a run exported to it reads back through
Phoenix's REST API span for span, and an OpenInference-instrumented agent's traces in it import through
`phoenix://` and gate with the same figures as the same run recorded by mcptest."""

from __future__ import annotations

import json
import os
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from mcptest.core.errors import UserError
from mcptest.core.exit_codes import ExitCode
from mcptest.records.otlp import load_otlp
from mcptest.records.phoenix import load_phoenix
from tests.conftest import PYTHON, ROOT, free_port, run_cli
from tests.otel.conftest import Phoenix
from tests.providers.fake_llm import FakeLLM, Turn, call, serve
from tests.providers.helpers import FIXTURES, environ

EXAMPLES = ROOT / "examples" / "agent-gates"
HERE = Path(__file__).parent
READ_BACK_S = 30.0


def _value(v: dict[str, Any]) -> Any:
    for key in ("stringValue", "boolValue", "doubleValue"):
        if key in v:
            return v[key]
    if "arrayValue" in v:
        return [_value(x) for x in v["arrayValue"].get("values", [])]
    return int(v["intValue"]) if "intValue" in v else None


def _file_spans(path: Path) -> dict[str, dict[str, Any]]:
    lines = [json.loads(line) for line in path.read_text().splitlines() if line]
    spans = [s for doc in lines for rs in doc["resourceSpans"] for ss in rs["scopeSpans"] for s in ss["spans"]]
    return {s["spanId"]: s for s in spans}


def _read_back(phoenix: Phoenix, project: str, count: int) -> dict[str, dict[str, Any]]:
    """The project's spans by span id, through Phoenix's REST API (`GET /v1/projects/{project}/spans`, the route
    its Python client reads; the client itself imports the whole server, 20 s of CPU), once it holds `count`:
    Phoenix stores what it receives in the background."""
    deadline = time.monotonic() + READ_BACK_S
    spans: list[dict[str, Any]] = []
    while len(spans) < count and time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{phoenix.url}/v1/projects/{project}/spans?limit=1000", timeout=10) as got:
                spans = json.loads(got.read())["data"]
        except urllib.error.HTTPError as exc:  # 404 until the project's first span is stored
            exc.close()
            assert exc.code == 404, exc
        time.sleep(0.1)
    return {s["context"]["span_id"]: s for s in spans}


def test_phoenix_as_the_backend_of_an_exported_run_and_of_an_instrumented_agent(
    phoenix: Phoenix, tmp_path: Path
) -> None:
    """One test, so that one `phoenix serve` (a minute of start-up under load) serves both halves whichever
    xdist worker runs it."""
    (tmp_path / "export").mkdir()
    (tmp_path / "agent").mkdir()
    a_run_exported_to_phoenix_reads_back_with_every_span_and_attribute(phoenix, tmp_path / "export")
    an_instrumented_agents_traces_in_phoenix_gate_as_the_same_run_recorded_by_mcptest(phoenix, tmp_path / "agent")


def a_run_exported_to_phoenix_reads_back_with_every_span_and_attribute(phoenix: Phoenix, tmp_path: Path) -> None:
    exported = tmp_path / "run.otlp.jsonl"
    project = "mcptest-export"
    ran = run_cli(
        "run", str(EXAMPLES / "path.yml"), "-q", "-r", "json", "--otlp-content",
        "--otlp-endpoint", phoenix.url, "--otlp-file", str(exported),
        env={"OTEL_RESOURCE_ATTRIBUTES": f"openinference.project.name={project}"},
    )  # fmt: skip
    assert ran.code == ExitCode.OK, ran.stderr
    assert "OpenTelemetry export" not in ran.stderr  # no export warning: Phoenix took the spans
    sent = _file_spans(exported)
    stored = _read_back(phoenix, project, len(sent))
    assert sorted(stored) == sorted(sent)
    for span_id, span in sent.items():
        back = stored[span_id]
        assert (back["name"], back["context"]["trace_id"], back["parent_id"] or "") == (
            span["name"],
            span["traceId"],
            span.get("parentSpanId", ""),
        )
        ours = {a["key"]: _value(a["value"]) for a in span.get("attributes", [])}
        assert {k: back["attributes"].get(k) for k in ours} == ours, span["name"]
        assert back["status_code"] == ("ERROR" if span.get("status", {}).get("code") == 2 else back["status_code"])

    # and the same runs come back through phoenix://, as from the file
    dump = lambda t: {**t.model_dump(mode="json"), "tool_calls": [c.name for c in t.tool_calls]}  # noqa: E731
    assert [dump(t) for t in load_phoenix(f"phoenix://127.0.0.1:{phoenix.url.rsplit(':', 1)[1]}/{project}").traces] == [
        dump(t) for t in load_otlp(exported).traces
    ]


PROMPT = "Weather in Paris, in Fahrenheit?"
TURNS = [
    Turn(calls=[call("get_weather", city="Paris")], usage=(310, 25)),
    Turn(calls=[call("convert_temperature", value=22, to="fahrenheit")], usage=(420, 30)),
    Turn(text="It is 71.6 F and sunny in Paris.", usage=(520, 15)),
]
GATES = """
    tool_selection: { expected_tool: get_weather, min_selection_rate: 1, max_total_tokens: 2000 }
    trajectory:
      steps:
        - { tool: get_weather, args: { city: Paris } }
        - { tool: convert_temperature, args: { to: fahrenheit } }
    golden_path: { calls: [get_weather, convert_temperature] }
    tool_edges: { allowed: [get_weather, convert_temperature], restricted: [delete_forecast] }
    equal_function_sets:
      classes:
        - { name: weather, members: [get_weather] }
        - { name: convert, members: [convert_temperature] }
    token_efficiency:
      classes:
        - { name: weather, members: [get_weather] }
        - { name: convert, members: [convert_temperature] }
    calls: {}
"""


def an_instrumented_agents_traces_in_phoenix_gate_as_the_same_run_recorded_by_mcptest(
    phoenix: Phoenix, tmp_path: Path
) -> None:
    (tmp_path / "weather.yml").write_text((FIXTURES / "weather.yml").read_text())
    server = [PYTHON, "-m", "mcptest", "mock", "--tools-from", "weather.yml"]
    host_port = phoenix.url.removeprefix("http://")
    with serve(FakeLLM(TURNS)) as url:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("OTEL_", "PHOENIX_"))}
        agent = subprocess.run(
            [str(phoenix.python), str(HERE / "phoenix_agent.py"), phoenix.url, "agent", "gpt-4o-mini", PROMPT,
             "--", *server],
            cwd=tmp_path, capture_output=True, text=True, timeout=120,
            env={**env, **environ(url), "PYTHONPATH": str(ROOT)},
        )  # fmt: skip
        assert agent.returncode == 0, agent.stderr
        _read_back(phoenix, "agent", 6)  # the AGENT span, 3 LLM spans, 2 TOOL spans: stored
        suite = tmp_path / "suite.yml"
        suite.write_text(
            f"servers:\n  weather:\n    command: {json.dumps(server)}\nagents:\n"
            f"  - name: recorded by mcptest\n    model: gpt-4o-mini\n    servers: [weather]\n"
            f"    prompt: {PROMPT}\n{GATES}"
            f"  - name: from phoenix\n    prompt: {PROMPT}\n    traces: ['phoenix://{host_port}/agent?last=1h']\n{GATES}"
        )
        ran = run_cli("run", str(suite), "--record", "-r", "json", cwd=tmp_path, env=environ(url))
    assert ran.code == ExitCode.OK, ran.stdout + ran.stderr
    report = json.loads(ran.stdout)
    recorded, imported = report["results"]
    assert recorded["targets"].pop("cost_usd") > 0  # mcptest prices the run it made; the spans carry no price
    assert recorded["targets"] == imported["targets"]  # tool calls, tokens (input, output, total)
    gates = {(g["test"], g["block"]): g for g in report["gates"]}
    priced = gates["recorded by mcptest", "token_efficiency"]["targets"]
    assert priced.pop("token_efficiency.cost") > 0 and priced.pop("token_efficiency.cost_per_correct") > 0
    unpriced = gates["from phoenix", "token_efficiency"]["detail"]["undefined"]
    assert set(unpriced) == {"token_efficiency.cost", "token_efficiency.cost_per_correct"}  # said, not a silent 0
    figures: dict[str, dict[str, Any]] = {}
    for (test, block), gate in gates.items():
        figures.setdefault(test, {})[block] = (gate["status"], gate["targets"])
    assert len(figures["recorded by mcptest"]) == 7
    assert figures["from phoenix"] == figures["recorded by mcptest"]
    assert all(status == "passed" for status, _ in figures["from phoenix"].values())

    with pytest.raises(UserError) as unknown:
        load_phoenix(f"phoenix://{host_port}/nosuch")
    message, listed = str(unknown.value).split(" (its projects: ")
    assert message == f"phoenix://{host_port}/nosuch: Phoenix at {phoenix.url} has no project 'nosuch'"
    assert "agent" in listed.removesuffix(")").split(", ")


def test_a_phoenix_source_that_cannot_be_read_is_a_located_load_error(tmp_path: Path) -> None:
    port = free_port()  # nothing listens there
    suite = tmp_path / "suite.yml"
    suite.write_text(
        "agents:\n  - name: production\n    prompt: Weather?\n    traces:\n"
        f"      - phoenix://127.0.0.1:{port}/default?last=1h\n"
        f"      - phoenix://127.0.0.1:{port}/default?since=1h\n"
        f"      - phoenix://127.0.0.1:{port}\n"
        f"      - {{ file: 'phoenix://127.0.0.1:{port}/default?start=yesterday' }}\n"
        f"      - phoenix://127.0.0.1:{port}/default?start=2026-11-27T10:00:00Z&end=2026-11-27T09:00:00\n"
        "    tool_selection: { expected_tool: get_weather, min_selection_rate: 0.8 }\n"
    )
    ran = run_cli("run", str(suite))
    assert ran.code == ExitCode.USAGE
    assert "Traceback" not in ran.stderr
    source = f"phoenix://127.0.0.1:{port}"
    assert ran.stderr.splitlines()[:5] == [
        f"{suite}:5:9: agents[0].traces[0]: {source}/default?last=1h: cannot reach Phoenix at "
        f"http://127.0.0.1:{port}: [Errno 111] Connection refused (is `phoenix serve` running?)",
        f"{suite}:6:9: agents[0].traces[1]: {source}/default?since=1h: unknown parameter 'since': the window is "
        "start=ISO, end=ISO or last=30m",
        f"{suite}:7:9: agents[0].traces[2]: {source}: expected phoenix://host:port/project "
        "(e.g. phoenix://localhost:6006/default)",
        f"{suite}:8:9: agents[0].traces[3]: {source}/default?start=yesterday: start='yesterday': expected an "
        "ISO 8601 time, e.g. 2026-11-27T09:00:00Z",
        f"{suite}:9:9: agents[0].traces[4]: {source}/default?start=2026-11-27T10:00:00Z&end=2026-11-27T09:00:00: "
        "the window ends before it starts (end= must be after start=)",
    ]
