"""The Trace model, trace files and inline tool_calls."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from mcptest.core.errors import UserError
from mcptest.records.trace import InlineCall, TokenUsage, ToolCall, Trace, load_traces, trace_from_inline

FIXTURES = Path(__file__).parent / "fixtures"


def test_a_call_fills_in_its_qualified_id_and_rejects_a_contradicting_one():
    assert ToolCall(server="brave", name="web_search").id == "brave.web_search"
    assert ToolCall(name="web_search").id == "web_search"
    assert ToolCall(server="a", name="b", id="a.b").id == "a.b"
    with pytest.raises(ValidationError, match="does not match server and name"):
        ToolCall(server="a", name="b", id="a.c")


def test_total_tokens_default_to_input_plus_output_and_a_given_total_is_kept():
    assert TokenUsage.model_validate({"input": 10, "output": 5}).total == 15
    assert TokenUsage.model_validate({"input": 10, "output": 5, "total": 40}).total == 40
    assert TokenUsage.model_validate({"total": 7}).input is None


def test_a_trace_round_trips_through_json_unchanged():
    [first, _] = load_traces(FIXTURES / "research_runs.json")
    again = Trace.model_validate_json(first.model_dump_json())
    assert again == first
    assert again.format_version == "1"
    assert again.tool_names == ["web_search", "get"]


def test_a_trace_file_holds_one_trace_or_a_list(tmp_path):
    single = tmp_path / "one.json"
    single.write_text(json.dumps({"tool_calls": [{"name": "search"}]}))
    assert [t.tool_names for t in load_traces(single)] == [["search"]]
    assert len(load_traces(FIXTURES / "research_runs.json")) == 2


def test_a_json_syntax_error_points_at_its_line_and_column():
    with pytest.raises(UserError) as caught:
        load_traces(FIXTURES / "bad_syntax.json")
    assert [str(p) for p in caught.value.problems] == [
        f"{FIXTURES / 'bad_syntax.json'}:3:23: JSON syntax error: Expecting property name enclosed in double quotes"
    ]


def test_every_invalid_field_is_reported_at_once_with_its_line():
    with pytest.raises(UserError) as caught:
        load_traces(FIXTURES / "bad_fields.json")
    path = FIXTURES / "bad_fields.json"
    assert [str(p) for p in caught.value.problems] == [
        f"{path}:5:26: [1].tool_calls[0]: unknown key 'arguments' (did you mean 'args'?)",
        f"{path}:6:7: [1].tool_calls[1]: id 'a.c' does not match server and name ('a.b')",
        f"{path}:8:25: [1].tokens.total: input should be greater than or equal to 0",
        f"{path}:9:23: [1].format_version: unsupported trace format '2' (this mcptest reads '1')",
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[]", "expected a trace object or an array of traces, found an empty array"),
        ('"trace"', "expected a trace object or an array of traces, found a JSON string"),
        ("null", "expected a trace object or an array of traces, found a JSON null"),
    ],
)
def test_a_file_that_is_not_a_trace_says_what_it_found(tmp_path, text, message):
    path = tmp_path / "t.json"
    path.write_text(text)
    with pytest.raises(UserError, match=message):
        load_traces(path)


def test_a_missing_trace_file_is_a_user_error(tmp_path):
    with pytest.raises(UserError, match="no such file"):
        load_traces(tmp_path / "absent.json")


def test_inline_results_become_mcp_content_blocks():
    trace = trace_from_inline(
        [
            {"name": "a", "result": "sunny"},
            {"name": "b", "result": [{"type": "text", "text": "x"}, "y"]},
            {"name": "c", "result": {"content": [{"type": "text", "text": "bad"}], "isError": True}},
            {"name": "d", "result": {"temp": 21}},
            {"name": "e", "server": "s", "args": {"k": 1}, "is_error": True, "latency_ms": 3},
        ],
        final_response="done",
        tokens={"total": 12},
    )
    a, b, c, d, e = trace.tool_calls
    assert a.content == [{"type": "text", "text": "sunny"}] and a.text == "sunny"
    assert b.content == [{"type": "text", "text": "x"}, {"type": "text", "text": "y"}]
    assert c.is_error and c.text == "bad"
    assert d.structured_content == {"temp": 21} and json.loads(d.text) == {"temp": 21}
    assert (e.id, e.args, e.is_error, e.latency_ms) == ("s.e", {"k": 1}, True, 3)
    assert trace.final_response == "done" and trace.tokens is not None and trace.tokens.total == 12


def test_an_inline_call_needs_a_name_and_rejects_unknown_keys():
    with pytest.raises(ValidationError):
        InlineCall.model_validate({"server": "s"})
    with pytest.raises(ValidationError):
        InlineCall.model_validate({"name": "a", "arguments": {}})


def test_a_catalog_entry_must_be_a_named_mcp_tool():
    with pytest.raises(ValidationError, match="non-empty string `name`"):
        Trace.model_validate({"catalog": [{"tool": {"description": "x"}}]})
    with pytest.raises(ValidationError, match="`inputSchema` must be an object"):
        Trace.model_validate({"catalog": [{"tool": {"name": "x", "inputSchema": []}}]})


def test_the_trace_json_schema_documents_every_field():
    schema = Trace.model_json_schema()
    call = schema["$defs"]["ToolCall"]["properties"]
    assert all("description" in p for p in call.values())
    assert schema["additionalProperties"] is False
