"""The run as OpenTelemetry spans: OTLP JSON round trip, a real OTLP/HTTP receiver, bounded failures, masking."""

from __future__ import annotations

import json
import socket
import threading
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from mcptest.core.exit_codes import ExitCode
from mcptest.records.otlp import load_otlp
from mcptest.run.telemetry import export_target
from mcptest.suite.loader import load_suite
from tests.conftest import ROOT, run_cli

EXAMPLES = ROOT / "examples" / "agent-gates"


def _value(v: dict[str, Any]) -> Any:
    for key in ("stringValue", "boolValue", "doubleValue"):
        if key in v:
            return v[key]
    return int(v["intValue"]) if "intValue" in v else None


def _spans(doc: dict[str, Any]) -> list[dict[str, Any]]:
    return [s for rs in doc["resourceSpans"] for ss in rs["scopeSpans"] for s in ss["spans"]]


def _split_by_test(path: Path, out: Path) -> dict[str, Path]:
    """One OTLP file per agent test: the traces whose invoke_agent span names that test."""
    spans = [s for line in path.read_text().splitlines() if line for s in _spans(json.loads(line))]
    test_of = {
        s["traceId"]: attrs["mcptest.test.name"]
        for s in spans
        if (attrs := {a["key"]: _value(a["value"]) for a in s.get("attributes", [])}).get("gen_ai.operation.name")
        == "invoke_agent"
    }
    files: dict[str, Path] = {}
    for name in dict.fromkeys(test_of.values()):
        mine = [s for s in spans if test_of.get(s["traceId"]) == name]
        files[name] = out / f"{len(files)}.jsonl"
        doc = {"resourceSpans": [{"resource": {}, "scopeSpans": [{"scope": {"name": "t"}, "spans": mine}]}]}
        files[name].write_text(json.dumps(doc) + "\n")
    return files


@pytest.mark.parametrize("suite", ["mcptest.yml", "path.yml"])
def test_round_trip_every_gate_figure_equal(tmp_path: Path, suite: str) -> None:
    exported = tmp_path / "run.otlp.jsonl"
    first = run_cli("run", str(EXAMPLES / suite), "-r", "json", "-q", "--otlp-file", str(exported), "--otlp-content")
    assert first.code == ExitCode.OK, first.stderr
    original = load_suite(EXAMPLES / suite)
    imported = load_otlp(exported).traces  # every run, field for field (catalog, tokens, results, errors ...)
    dump = lambda t: json.dumps(t.model_dump(mode="json"), sort_keys=True)  # noqa: E731
    assert [dump(t) for a in original.agents for t in a.recorded_runs()] == [dump(t) for t in imported]
    files = _split_by_test(exported, tmp_path)
    yaml = YAML(typ="safe")
    data = yaml.load((EXAMPLES / suite).read_text())
    for agent in data["agents"]:
        for key in ("traces", "tool_calls", "final_response", "tokens"):
            agent.pop(key, None)
        agent["traces"] = [str(files[agent["name"]])]
    copy = tmp_path / "from-otlp.yml"
    with copy.open("w") as f:
        yaml.dump(data, f)
    second = run_cli("run", str(copy), "-r", "json", "-q")
    assert second.code == ExitCode.OK, second.stderr
    assert _gates(second) == _gates(first) and _gates(first)
    assert _rows(second) == _rows(first)


def _gates(ran: Any) -> list[tuple[Any, ...]]:
    return [
        (g["test"], g["block"], g["model"], g["status"], g["runs"], g["targets"])
        for g in json.loads(ran.stdout)["gates"]
    ]


def _rows(ran: Any) -> list[tuple[Any, ...]]:
    return [(r["name"], r["status"], r["targets"]) for r in json.loads(ran.stdout)["results"]]


def _attrs(span: Any) -> dict[str, Any]:
    out = {}
    for kv in span.attributes:
        which = kv.value.WhichOneof("value")
        out[kv.key] = getattr(kv.value, which) if which else None
    return out


def test_spans_reach_a_real_otlp_http_receiver_with_the_genai_and_mcp_conventions(
    receiver: Any, tmp_path: Path
) -> None:
    url, handler = receiver
    suite = tmp_path / "s.yml"
    suite.write_text(
        (EXAMPLES / "breaching.yml").read_text().replace("traces/", f"{EXAMPLES}/traces/")
        + f"  - name: research\n    traces: [{EXAMPLES}/traces/research-path.json]\n"
    )
    ran = run_cli(
        "run", str(suite), "-q",
        env={"OTEL_EXPORTER_OTLP_ENDPOINT": url, "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf"},
    )  # fmt: skip
    assert ran.code == ExitCode.FAILED  # the breaching example fails its floor: the export leaves that alone
    assert "warning" not in ran.stderr
    ((path, content_type, message),) = handler.requests
    assert (path, content_type) == ("/v1/traces", "application/x-protobuf")
    spans = [s for rs in message.resource_spans for ss in rs.scope_spans for s in ss.spans]
    by_name: dict[str, list[Any]] = {}
    for s in spans:
        by_name.setdefault(s.name, []).append(s)
    (run,) = by_name["mcptest run"]
    assert _attrs(run)["mcptest.ok"] is False and run.status.code == 2
    agents = by_name["invoke_agent weather selection"]
    assert len(agents) == 10 and len({a.trace_id for a in agents}) == 10  # each run its own trace
    assert all(_attrs(a)["mcptest.replayed"] is True for a in agents)
    call = _attrs(by_name["tools/call get_weather"][0])
    assert call["mcp.method.name"] == "tools/call" and call["gen_ai.operation.name"] == "execute_tool"
    assert call["gen_ai.tool.name"] == "get_weather" and "gen_ai.tool.call.arguments" not in call  # no content
    assert len(by_name["chat claude-sonnet-4-5"]) == sum(t["turns"] for t in json.loads(
        (EXAMPLES / "traces" / "research-path.json").read_text()))  # fmt: skip
    chat = _attrs(by_name["chat claude-sonnet-4-5"][0])
    assert (chat["gen_ai.provider.name"], chat["gen_ai.request.model"]) == ("anthropic", "claude-sonnet-4-5")
    tokens = [_attrs(a).get("mcptest.usage.total_tokens") for a in agents]
    assert 3120 in tokens
    (gate,) = by_name["gate tool_selection"]
    assert _attrs(gate)["mcptest.gate.tool_selection.selection_rate"] == 60
    assert _attrs(gate)["mcptest.gate.status"] == "failed"


def test_an_unreachable_or_silent_endpoint_is_one_warning_and_the_same_exit_code(receiver: Any) -> None:
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]
    ran = run_cli("run", str(EXAMPLES / "mcptest.yml"), "-q", "--otlp-endpoint", f"http://127.0.0.1:{closed}")
    assert ran.code == ExitCode.OK
    assert [line for line in ran.stderr.splitlines() if "OpenTelemetry export" in line] == [
        line for line in ran.stderr.splitlines() if "warning" in line
    ]
    assert sum("OpenTelemetry export" in line for line in ran.stderr.splitlines()) == 1
    assert sum("export" in line.lower() for line in ran.stderr.splitlines()) == 1, ran.stderr  # not the SDK's too
    url, handler = receiver
    handler.hang = threading.Event()  # takes the request and never answers
    ran = run_cli("run", str(EXAMPLES / "mcptest.yml"), "-q", "--otlp-endpoint", url)
    assert ran.code == ExitCode.OK
    assert "did not answer within 2s" in ran.stderr or "did not take the spans" in ran.stderr


def test_contents_only_on_request_and_secrets_masked(tmp_path: Path) -> None:
    suite = tmp_path / "s.yml"
    suite.write_text(
        "agents:\n  - name: leaky\n    tool_calls:\n"
        "      - { name: login, args: { token: '${API_TOKEN}' }, result: 'welcome ${API_TOKEN}' }\n"
        "    final_response: done\n"
    )
    out = tmp_path / "spans.jsonl"
    env = {"API_TOKEN": "tok-0123456789"}
    assert run_cli("run", str(suite), "-q", "--otlp-file", str(out), env=env).code == ExitCode.OK
    assert "gen_ai.tool.call.arguments" not in out.read_text() and "done" not in out.read_text()
    assert run_cli("run", str(suite), "-q", "--otlp-file", str(out), "--otlp-content", env=env).code == ExitCode.OK
    text = out.read_text()
    assert "tok-0123456789" not in text and "gen_ai.tool.call.arguments" in text
    (trace,) = load_otlp(out).traces
    assert trace.tool_calls[0].args == {"token": "***"} and trace.final_response == "done"


def test_a_protocol_the_exporter_does_not_speak_is_refused_and_the_variables_turn_export_on() -> None:
    with pytest.raises(ValueError, match="http/protobuf"):
        export_target(
            None, None, False, {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://h:4318", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"}
        )
    target = export_target(None, None, False, {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://h:4318/"})
    assert target is not None and target.endpoint == "http://h:4318/v1/traces"
    assert export_target(None, None, False, {"OTEL_SDK_DISABLED": "true", "OTEL_EXPORTER_OTLP_ENDPOINT": "x"}) is None
    assert export_target(None, None, False, {}) is None
