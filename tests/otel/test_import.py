"""OTLP JSON onto the Trace: GenAI and OpenInference spans, grouping, skipped spans, located errors, gate needs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mcptest.core.errors import UserError
from mcptest.core.exit_codes import ExitCode
from mcptest.python_api import run_gate
from mcptest.records.otlp import (
    SKIP_NESTED,
    SKIP_ORPHAN,
    SKIP_OTHER,
    SKIP_SKEW,
    SKIP_UNKNOWN,
    is_otlp,
    load_otlp,
)
from mcptest.records.trace import ToolCall, Trace
from tests.conftest import run_cli
from tests.otel.otlp_build import genai_run, jsonl, openinference_run, request, span


def test_genai_spans_map_to_tool_calls_tokens_answer_and_errors(tmp_path: Path) -> None:
    path = tmp_path / "traces.jsonl"
    path.write_text(jsonl(request(genai_run(1)[:3]), request(genai_run(1)[3:] + genai_run(2, fail_second=True))))
    imported = load_otlp(path)
    assert len(imported.traces) == 2  # one run per trace id, the first split over two requests
    first, second = imported.traces
    assert [(c.name, c.args) for c in first.tool_calls] == [
        ("get_weather", {"city": "Paris"}),
        ("get_forecast", {"city": "Paris", "days": 2}),
    ]
    assert first.tool_calls[0].text == "18C sunny"
    assert first.tool_calls[0].latency_ms == 9.0
    assert [c.is_error for c in second.tool_calls] == [False, True]
    assert first.tokens is not None and (first.tokens.input, first.tokens.output, first.tokens.total) == (250, 50, 300)
    assert (first.model, first.turns, first.prompt) == ("gpt-4o", 2, "Weather in Paris?")
    assert first.final_response == "Sunny, 18C."
    assert imported.skipped == {}


def test_openinference_spans_in_one_pretty_document(tmp_path: Path) -> None:
    path = tmp_path / "phoenix.json"
    path.write_text(json.dumps(request(openinference_run(7)), indent=2))
    assert is_otlp(path)
    (trace,) = load_otlp(path).traces
    assert [(c.name, c.args, c.text) for c in trace.tool_calls] == [
        ("search", {"query": "Q3"}, "q3.pdf"),
        ("save_note", {"text": "Q3"}, "ok"),
    ]
    assert trace.tokens is not None and trace.tokens.total == 55
    assert (trace.model, trace.prompt, trace.final_response) == ("gpt-4o-mini", "Find the Q3 report", "Saved.")


def test_group_by_joins_traces_of_one_conversation_in_time_order(tmp_path: Path) -> None:
    path = tmp_path / "conv.jsonl"
    shift = ("startTimeUnixNano", "endTimeUnixNano")
    late = [{**s, **{k: str(int(s[k]) + 10**9) for k in shift}} for s in genai_run(2, conversation="c1")]
    path.write_text(jsonl(request(late + genai_run(1, conversation="c1") + genai_run(3, conversation="c2"))))
    runs = load_otlp(path, "gen_ai.conversation.id").traces
    assert [len(t.tool_calls) for t in runs] == [4, 2]
    assert load_otlp(path).traces.__len__() == 3


def test_unknown_orphan_and_skewed_spans_are_skipped_and_counted(tmp_path: Path) -> None:
    run = genai_run(1)
    extra = [
        span(1, 9, "HTTP GET", {"http.method": "GET"}, parent=1, start=2),
        span(
            1,
            10,
            "execute_tool lost",
            {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "lost"},
            parent=99,
            start=3,
        ),  # fmt: skip
        span(
            1,
            11,
            "execute_tool skewed",
            {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "sk"},
            parent=1,
            start=50,
            end=40,
        ),  # fmt: skip
    ]
    path = tmp_path / "t.jsonl"
    path.write_text(jsonl(request(run + extra)))
    imported = load_otlp(path)
    assert imported.skipped == {SKIP_UNKNOWN: 1, SKIP_ORPHAN: 1, SKIP_SKEW: 1}
    assert [c.name for c in imported.traces[0].tool_calls] == ["get_weather", "get_forecast"]
    assert "3 OpenTelemetry spans skipped" in (imported.skipped_note("t.jsonl") or "")


def test_a_tool_span_under_a_tool_span_is_the_same_call_however_deep(tmp_path: Path) -> None:
    mcp = {"mcp.method.name": "tools/call", "gen_ai.tool.name": "get_weather"}
    extra = [
        span(1, 20, "tools/call get_weather", mcp, parent=3, start=12),  # the MCP span of the call, right under it
        span(1, 21, "HTTP POST", {"http.method": "POST"}, parent=3, start=12),
        span(1, 22, "tools/call get_weather", mcp, parent=21, start=13),  # under it, through a span of no kind
    ]
    path = tmp_path / "t.jsonl"
    path.write_text(jsonl(request(genai_run(1) + extra)))
    imported = load_otlp(path)
    assert imported.skipped == {SKIP_NESTED: 2, SKIP_UNKNOWN: 1}
    assert [c.name for c in imported.traces[0].tool_calls] == ["get_weather", "get_forecast"]


def test_a_span_kind_that_is_no_string_names_no_kind(tmp_path: Path) -> None:
    listed = {"arrayValue": {"values": [{"stringValue": "execute_tool"}]}}
    odd = [span(1, 30, "odd", {}, parent=1, start=2), span(1, 31, "odder", {}, parent=1, start=3)]
    odd[0]["attributes"] = [{"key": "gen_ai.operation.name", "value": listed}]
    odd[1]["attributes"] = [{"key": "openinference.span.kind", "value": {"kvlistValue": {"values": []}}}]
    path = tmp_path / "t.jsonl"
    path.write_text(jsonl(request(genai_run(1) + odd)))
    imported = load_otlp(path)  # it raised TypeError (unhashable) before
    assert imported.skipped == {SKIP_OTHER: 2}
    assert [c.name for c in imported.traces[0].tool_calls] == ["get_weather", "get_forecast"]


def test_bad_json_on_a_line_is_located(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text(jsonl(request(genai_run(1))) + "\n" + '{"resourceSpans": [}\n')
    with pytest.raises(UserError) as err:
        load_otlp(path)
    (problem,) = err.value.problems
    assert (problem.line, problem.col) == (3, 20) and "JSON syntax error" in problem.message


def test_a_structure_that_is_not_otlp_is_located(tmp_path: Path) -> None:
    doc = request(genai_run(1))
    doc["resourceSpans"][0]["scopeSpans"][0]["spans"][2]["spanId"] = 7
    path = tmp_path / "t.json"
    path.write_text(json.dumps(doc, indent=1))
    with pytest.raises(UserError) as err:
        load_otlp(path)
    (problem,) = err.value.problems
    assert "resourceSpans[0].scopeSpans[0].spans[2].spanId: `spanId` must be a non-empty hex string" in problem.message
    assert path.read_text().splitlines()[problem.line - 1].strip().startswith('"spanId": 7')


def test_a_gate_reading_what_the_spans_lack_is_a_load_error(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text(jsonl(request(openinference_run(1))))
    with pytest.raises(UserError, match=r"gate `distractors` needs the catalog"):
        run_gate("distractors", path, {"count": 2, "source": {"from": "catalog"}, "correct": ["search"]})
    outcome = run_gate("trajectory", path, {"steps": [{"tool": "search"}, {"tool": "save_note"}]})
    assert outcome.targets["trajectory.matched"] == 1


def test_suite_gates_read_otlp_as_they_read_trace_files(tmp_path: Path) -> None:
    spans = tmp_path / "prod.jsonl"
    spans.write_text(jsonl(request(genai_run(1) + genai_run(2) + [span(2, 9, "db", {"db.system": "x"}, parent=1)])))
    native = tmp_path / "native.json"
    native.write_text(json.dumps([t.model_dump(mode="json") for t in load_otlp(spans).traces]))
    block = "tool_selection: {expected_tool: get_weather, min_selection_rate: 0.8}"
    suite = tmp_path / "s.yml"
    suite.write_text(
        f"agents:\n  - name: otlp\n    traces: [prod.jsonl]\n    {block}\n"
        f"  - name: native\n    traces: [native.json]\n    {block}\n"
        f"  - name: grouped\n    traces: [{{file: prod.jsonl, group_by: service.name}}]\n    {block}\n"
    )
    ran = run_cli("run", str(suite), "-r", "json", "-q")
    assert ran.code == ExitCode.OK, ran.stderr
    assert "prod.jsonl: 1 OpenTelemetry spans skipped (no GenAI, OpenInference or MCP attributes: 1)" in ran.stderr
    gates = {g["test"]: g for g in json.loads(ran.stdout)["gates"]}
    assert gates["otlp"]["targets"] == gates["native"]["targets"] and gates["otlp"]["runs"] == 2
    assert gates["grouped"]["runs"] == 1  # grouped by the resource's service.name: both traces are one run
    gate = "distractors: {count: 2, source: {from: catalog}, correct: [get_weather]}"
    suite.write_text(f"agents:\n  - name: otlp\n    traces: [prod.jsonl]\n    {gate}\n")
    ran = run_cli("run", str(suite))
    assert ran.code == ExitCode.USAGE and "Traceback" not in ran.stderr
    assert "agents[0].traces[0]: gate `distractors` needs the catalog" in ran.stderr


def test_runs_split_over_lines_come_whole_in_first_seen_order_even_when_the_line_index_is_fooled(
    tmp_path: Path,
) -> None:
    path = tmp_path / "split.jsonl"
    one, two = genai_run(1), genai_run(2)
    lines = [request(one[:2]), request(two), request(one[2:])]  # run 1 ends after run 2 has ended
    path.write_text(jsonl(*lines))
    runs = load_otlp(path).traces
    assert [len(t.tool_calls) for t in runs] == [2, 2] and runs[0].final_response == "Sunny, 18C."
    assert runs[0].prompt == "Weather in Paris?"  # run 1's first line (its chat span) was kept for its last
    # A key written with an escape hides run 1's last line from the raw-bytes index: run 1 looks done at line 1,
    # its late spans are caught, and the file is read again whole: the same runs.
    path.write_text(jsonl(*lines).replace('"traceId"', '"\\u0074raceId"').replace("\\u0074", "t", 2))
    assert [t.model_dump() for t in load_otlp(path).traces] == [t.model_dump() for t in runs]


def test_lines_cut_from_reads_are_whole_whatever_the_read_size(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mcptest.records import otlp

    one, two, three, four = genai_run(1), genai_run(2), genai_run(3), genai_run(4)
    text = (
        json.dumps(request(one + two)) + "\n"  # two runs on one line: the line index lists both
        + "\n  \n"  # blank lines
        + json.dumps(request(three)) + "\r\n"
        + json.dumps(request(four))  # the last line without its newline
    )  # fmt: skip
    path = tmp_path / "runs.jsonl"
    path.write_text(text)
    runs = [t.model_dump() for t in load_otlp(path).traces]
    assert len(runs) == 4 and all(len(r["tool_calls"]) == 2 for r in runs)
    for size in (1, 7, len(text) // 2):  # a line over many reads, or cut anywhere
        monkeypatch.setattr(otlp, "_CHUNK", size)
        assert [t.model_dump() for t in load_otlp(path).traces] == runs
    path.write_text(text.replace('"traceId": ', '"traceId":  ', 1))  # ids written unlike each other on a line
    assert [t.model_dump() for t in load_otlp(path).traces] == runs


def test_tool_calls_built_unvalidated_equal_validated_ones(tmp_path: Path) -> None:
    tool = {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "t"}
    shapes = [
        {},  # no arguments, no result: both default
        {"gen_ai.tool.call.arguments": {"a": 1}, "gen_ai.tool.call.result": "ok", "mcptest.server": "srv"},
        {"gen_ai.tool.call.arguments": "{not json", "error.type": "tool_error", "mcptest.unknown_tool": True},
        {"gen_ai.tool.call.result": {"content": [{"type": "text", "text": "x"}], "structuredContent": {"n": 2}}},
        {"gen_ai.tool.call.result": {"content": [{"type": "text", "text": "x"}], "isError": True}},
    ]
    spans = [span(1, 1, "invoke_agent a", {"gen_ai.operation.name": "invoke_agent"}, end=100)]
    spans += [span(1, 10 + i, "execute_tool t", {**tool, **s}, parent=1, start=1 + i) for i, s in enumerate(shapes)]
    path = tmp_path / "t.jsonl"
    path.write_text(jsonl(request(spans)))
    calls = load_otlp(path).traces[0].tool_calls
    assert len(calls) == len(shapes)
    for call in calls:
        validated = ToolCall.model_validate(call.model_dump(exclude_unset=True))
        assert call == validated and call.model_dump(mode="json") == validated.model_dump(mode="json")
        assert call.model_fields_set <= validated.model_fields_set
    assert (calls[1].id, calls[2].unparseable_arguments, calls[2].is_error) == ("srv.t", True, True)
    assert (calls[3].structured_content, calls[4].is_error, calls[0].args) == ({"n": 2}, True, {})


def test_json_the_fast_parser_refuses_is_read_as_the_stdlib_reads_it(tmp_path: Path) -> None:
    odd = '"kind": 3, "x": NaN, "big": 123456789012345678901234567890'  # orjson refuses NaN and big integers
    line = jsonl(request(genai_run(1))).replace('"kind": 3', odd)
    path = tmp_path / "t.jsonl"
    path.write_text(line.replace('"18C sunny"', '"18C \\ud800sunny"'))  # and a lone surrogate escape
    (trace,) = load_otlp(path).traces
    assert trace.tool_calls[0].text == "18C \ud800sunny"


def test_runs_built_unvalidated_equal_validated_ones(tmp_path: Path) -> None:
    chat = {"gen_ai.operation.name": "chat", "gen_ai.request.model": "m"}
    shapes = [
        [],  # a tool span alone: no model, prompt, answer, tokens or turns
        [("chat m", chat | {"gen_ai.usage.input_tokens": 5})],  # tokens: output unknown, total defaulted
        [("invoke_agent a", {"gen_ai.operation.name": "invoke_agent", "mcptest.error": "timed out",
                             "mcptest.usage.total_tokens": 9, "mcptest.turns": 3})],
        [("invoke_agent a", {"gen_ai.operation.name": "invoke_agent", "mcptest.cost_usd": 0.5})],  # validated
    ]  # fmt: skip
    lines = []
    for trace, extra in enumerate(shapes, 1):
        spans = [span(trace, 1 + i, name, attrs, start=i) for i, (name, attrs) in enumerate(extra)]
        spans.append(span(trace, 9, "execute_tool t", {"gen_ai.operation.name": "execute_tool"}, start=5))
        lines.append(request(spans))
    path = tmp_path / "t.jsonl"
    path.write_text(jsonl(*lines))
    runs = load_otlp(path).traces
    assert len(runs) == len(shapes)
    for run in runs:
        validated = Trace.model_validate(run.model_dump(exclude_unset=True))
        assert run == validated and run.model_dump(mode="json") == validated.model_dump(mode="json")
        assert run.model_fields_set == validated.model_fields_set
    assert (runs[1].tokens.total if runs[1].tokens else None, runs[2].error, runs[3].cost_usd) == (5, "timed out", 0.5)


def test_lines_decoded_typed_equal_the_checked_reading_of_the_same_spans(tmp_path: Path) -> None:
    """JSON lines go through msgspec's typed decoder (otlp_wire), a pretty document through the checked dict reading:
    both give the same runs, for every attribute value type, both scope keys, upper-case ids and a `group_by` key
    on the resource; a line of another accepted shape (odd value types) falls back and still reads the same."""
    from mcptest.records import otlp_wire

    odd = {"gen_ai.operation.name": "chat", "llm.x": [1, "a"], "gen_ai.y": 1.5, "mcp.z": True}
    one, two = request(genai_run(1, fail_second=True)), request(openinference_run(2))
    three = request([*genai_run(3)[:2], span(3, 7, "chat m", odd, parent=1, start=40)], "conv")
    values = three["resourceSpans"][0]["scopeSpans"][0]["spans"][2]["attributes"]
    values.append({"key": "gen_ai.kv", "value": {"kvlistValue": {"values": [{"key": "k", "value": {"intValue": 4}}]}}})
    values.append({"key": "gen_ai.none", "value": None})
    three["resourceSpans"][0]["resource"]["attributes"].append({"key": "conversation", "value": {"stringValue": "c"}})
    two["resourceSpans"][0]["instrumentationLibrarySpans"] = two["resourceSpans"][0].pop("scopeSpans")
    for s in two["resourceSpans"][0]["instrumentationLibrarySpans"][0]["spans"]:
        s["traceId"], s["status"] = s["traceId"].upper(), {"code": "STATUS_CODE_ERROR"}
    fallback = request(genai_run(4))  # shapes the typed decoder refuses and the checked reading accepts
    spans = fallback["resourceSpans"][0]["scopeSpans"][0]["spans"]
    spans[1]["status"], spans[2]["startTimeUnixNano"] = {"code": 2.0}, float(spans[2]["startTimeUnixNano"])
    spans[3]["attributes"][1]["value"] = {"stringValue": 7}
    requests = [one, two, three, fallback]
    assert [_decodes(otlp_wire, r) for r in requests] == [True, True, True, False]
    lines, doc = tmp_path / "t.jsonl", tmp_path / "t.json"
    lines.write_text(jsonl(*requests))
    doc.write_text(json.dumps({"resourceSpans": [rs for r in requests for rs in r["resourceSpans"]]}, indent=1))
    for group_by in (None, "conversation", "gen_ai.y"):
        typed, checked = load_otlp(lines, group_by), load_otlp(doc, group_by)
        assert [t.model_dump() for t in typed.traces] == [t.model_dump() for t in checked.traces]
        assert [t.model_fields_set for t in typed.traces] == [t.model_fields_set for t in checked.traces]
        assert (typed.skipped, typed.missing) == (checked.skipped, checked.missing)
    runs = load_otlp(lines).traces
    assert [len(t.tool_calls) for t in runs] == [2, 2, 0, 2] and runs[1].tool_calls[0].is_error
    assert runs[3].tool_calls[1].name == "7"  # a stringValue that is a number, read as given, then named


def _decodes(otlp_wire: object, data: dict[str, object]) -> bool:
    try:
        otlp_wire.decode_request(json.dumps(data).encode())  # type: ignore[attr-defined]
    except ValueError:
        return False
    return True


@pytest.mark.parametrize(
    ("value", "where"),
    [
        ({"arrayValue": [{"stringValue": "a"}]}, "arrayValue: `arrayValue` must be an object such as {values: [...]}"),
        ({"arrayValue": {"values": "a"}}, "arrayValue: `arrayValue` must be an object such as {values: [...]}"),
        ({"kvlistValue": {"values": ["a"]}}, "kvlistValue.values[0]: a `kvlistValue` entry must be an object"),
    ],
)
def test_a_list_value_of_the_wrong_shape_is_located_not_a_traceback(tmp_path: Path, value: dict, where: str) -> None:
    doc = request(genai_run(1))
    doc["resourceSpans"][0]["scopeSpans"][0]["spans"][2]["attributes"].append({"key": "gen_ai.odd", "value": value})
    path = tmp_path / "t.json"
    path.write_text(json.dumps(doc, indent=1))
    with pytest.raises(UserError) as err:
        load_otlp(path)
    (problem,) = err.value.problems
    assert where in problem.message and problem.line > 0, problem
