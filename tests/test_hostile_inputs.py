"""The last hostile inputs (issue 25): nested `${A:-${B}}`, lone surrogates, over-long integers in every JSON
reader, a report whose format_version contradicts it, and secrets holding `"` or `\\` in their quoted forms."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from mcptest.core import json_source
from mcptest.core.errors import UserError
from mcptest.core.redact import MASK, redact, redact_data, redact_text
from mcptest.core.secrets import escaped_forms
from mcptest.core.yaml_source import parse
from mcptest.suite.interpolate import MAX_NESTING
from mcptest.suite.loader import load_suite
from tests.report.build import F, report, result

FIXTURES = Path(__file__).parent / "report" / "fixtures"
SUITE = """\
servers:
  weather:
    command: ["mcptest", "mock", "--tools-from", "weather.yml"]
tools:
  - name: a
    server: weather
    tool: get_weather
    args: {{ city: "{city}" }}
"""


def problems(call, *args) -> list[str]:
    with pytest.raises(UserError) as caught:
        call(*args)
    return [str(p) for p in caught.value.problems]


def city(tmp_path: Path, value: str, env: dict[str, str]) -> object:
    path = tmp_path / "suite.yml"
    path.write_text(SUITE.format(city=value), encoding="utf-8")
    return load_suite(path, env).tools[0].args["city"]


@pytest.mark.parametrize(
    ("value", "env", "expected"),
    [
        ("${A:-${B}}", {"B": "Oslo"}, "Oslo"),
        ("${A:-${B}}", {"A": "Rome", "B": "Oslo"}, "Rome"),
        ("${A:-${B:-${C:-Lima}}}!", {}, "Lima!"),
        ("x${A:-${B:-in ${C}}}y", {"C": "Bern"}, "xin Berny"),
        ("${A:-${UNSET}}", {"A": "Rome"}, "Rome"),  # a default is evaluated only when used, as in a shell
        ("${A:-$${B}}", {}, "${B}"),
        ("${A:-}", {}, ""),
        ("${A:-a:-b}", {}, "a:-b"),
        ("${A:-{x}}", {}, "{x}"),
    ],
)
def test_nested_defaults_resolve_as_a_shell_does(
    tmp_path: Path, value: str, env: dict[str, str], expected: str
) -> None:
    assert city(tmp_path, value, env) == expected


@pytest.mark.parametrize(
    ("value", "what"),
    [
        ("${A:-${B}", "unterminated `${A:-...`"),
        ("${A:-${}}", "empty `${}`"),
        ("${A:-${1x}}", "`${1x}` is not an environment variable name"),
        ("${A:-${B:x}}", "`${B:x}` is not `${NAME}` or `${NAME:-default}`"),
        ("${A:-${UNSET}}", "environment variable UNSET is not set"),
        ("${A:-" * (MAX_NESTING + 1) + "x" + "}" * (MAX_NESTING + 1), f"nested deeper than {MAX_NESTING} levels"),
    ],
)
def test_a_broken_nested_reference_is_refused_at_its_line(tmp_path: Path, value: str, what: str) -> None:
    found = problems(city, tmp_path, value, {})
    assert len(found) == 1 and found[0].startswith(f"{tmp_path / 'suite.yml'}:8:19: tools[0].args.city: ")
    assert what in found[0]


def test_the_deepest_allowed_nesting_resolves(tmp_path: Path) -> None:
    value = "${A:-" * MAX_NESTING + "deep" + "}" * MAX_NESTING
    assert city(tmp_path, value, {}) == "deep"


def test_a_secret_reached_through_a_nested_default_is_masked(tmp_path: Path) -> None:
    path = tmp_path / "suite.yml"
    path.write_text(SUITE.format(city="${A:-${API_TOKEN}}"), encoding="utf-8")
    assert load_suite(path, {"API_TOKEN": "tok-0123456789"})._secrets >= {"tok-0123456789"}


@pytest.mark.parametrize(
    ("text", "at"),
    [
        ('{"a": "x\\ud800"}', "f.json:1:9:"),
        ('{"a": "\\ud83d\\ude00",\n "b": ["ok", "\\udc00"]}', "f.json:2:15:"),
        ('{"\\udbff": 1}', "f.json:1:3:"),
        ('["\\\\\\ud800"]', "f.json:1:5:"),  # an escaped backslash, then a lone escape
        ('["\\ud83d\\ud83d\\ude00"]', "f.json:1:3:"),  # a high half followed by a whole pair
    ],
)
def test_a_lone_surrogate_escape_in_json_is_refused_at_it(text: str, at: str) -> None:
    found = problems(json_source.loads, text, "f.json")
    assert len(found) == 1 and found[0].startswith(at) and "half of a UTF-16 surrogate pair" in found[0]


def test_a_surrogate_pair_and_an_escaped_backslash_u_are_ordinary_json() -> None:
    assert json_source.loads('["\\ud83d\\ude00", "\\\\ud800"]', "f.json") == ["\U0001f600", "\\ud800"]


@pytest.mark.parametrize(
    ("text", "at"),
    [
        ('a: "x\\ud800"\n', "s.yml:1:4:"),
        ('a:\n  - "\\U0000dc00"\n', "s.yml:2:5:"),
        ('"\\ud800": 1\n', "s.yml:1:1:"),
        ('a: "\\ud83d\\ude00\\ude00"\n', "s.yml:1:4:"),
    ],
)
def test_a_lone_surrogate_escape_in_yaml_is_refused_at_its_scalar(text: str, at: str) -> None:
    found = problems(parse, text, "s.yml")
    assert len(found) == 1 and found[0].startswith(at) and "half of a UTF-16 surrogate pair" in found[0]


def test_an_escaped_pair_in_yaml_is_the_character_it_encodes() -> None:
    assert parse('a: "\\ud83d\\ude00"\n', "s.yml").data == {"a": "\U0001f600"}


def test_a_lone_surrogate_in_a_suite_is_refused_by_validate_at_its_line(tmp_path: Path) -> None:
    found = problems(city, tmp_path, "\\ud800", {})
    assert found[0].startswith(f"{tmp_path / 'suite.yml'}:8:19: ")


def test_an_environment_value_that_is_not_utf8_is_refused_at_the_reference(tmp_path: Path) -> None:
    found = problems(city, tmp_path, "${A:-${CITY}}", {"CITY": "Par\udcffis"})  # os.environ's form of byte 0xFF
    assert found == [
        f"{tmp_path / 'suite.yml'}:8:19: tools[0].args.city: environment variable CITY is not valid UTF-8 text "
        "(its undecodable bytes cannot be sent)"
    ]


def test_an_integer_within_the_bound_is_read_and_printed_back() -> None:
    digits = "7" * 5_000
    data = json_source.loads(f'{{"n": [1, -{digits}]}}', "f.json")
    assert json.dumps(data) == f'{{"n": [1, -{digits}]}}'


def test_an_integer_past_the_bound_is_refused_at_it_not_in_a_string() -> None:
    digits = "9" * (json_source.MAX_INT_DIGITS + 1)
    text = f'{{"s": "{digits}",\n  "n": {digits}}}'
    assert problems(json_source.loads, text, "f.json") == [
        f"f.json:2:8: an integer of {len(digits):,} digits, longer than the 20,000 mcptest reads (quote it)"
    ]


def _hostile_values() -> list[tuple[str, str]]:
    huge = "9" * (json_source.MAX_INT_DIGITS + 1)
    return [(huge, "digits, longer than the "), ('"\\ud800"', "half of a UTF-16 surrogate pair")]


def _readers(tmp_path: Path) -> dict[str, tuple[object, str]]:
    """Each JSON reader of mcptest, with a template of a file it reads (`VALUE` marks where the hostile value goes)."""
    from mcptest.bench.loading import load_spec
    from mcptest.diff.pins import read_lock
    from mcptest.records.catalog import load_catalog
    from mcptest.records.trace import load_traces
    from mcptest.report.load import load_report

    run = (FIXTURES / "run.json").read_text(encoding="utf-8")
    return {
        "report": (load_report, run.replace('"expected": "Sacramento"', '"expected": VALUE', 1)),
        "catalog": (load_catalog, '{"tools": [{"name": "a", "inputSchema": {"type": "object", "maxLength": VALUE}}]}'),
        "trace": (load_traces, '{"prompt": "hi", "steps": [], "answer": VALUE}'),
        "lock": (read_lock, '{"format_version": "1", "servers": {"a": VALUE}}'),
        "bench spec": (load_spec, '{"catalog": {"tools": []}, "intents": [VALUE]}'),
    }


@pytest.mark.parametrize("reader", ["report", "catalog", "trace", "lock", "bench spec"])
def test_every_json_reader_refuses_an_over_long_integer_and_a_lone_surrogate_located(
    tmp_path: Path, reader: str
) -> None:
    call, template = _readers(tmp_path)[reader]
    for value, what in _hostile_values():
        path = tmp_path / "input.json"
        path.write_text(template.replace("VALUE", value), encoding="utf-8")
        found = problems(call, path)
        assert any(str(path) + ":" in p and what in p for p in found), found


def test_a_cassette_and_a_snapshot_holding_hostile_values_are_refused_with_the_reason(tmp_path: Path) -> None:
    from mcptest.cassette.format import Cassette
    from mcptest.cassette.store import CassetteUnreadable, load
    from mcptest.expect.snapshots import DIRECTORY, SnapshotSpec, SnapshotStore

    for value, what in _hostile_values():
        path = tmp_path / "c.json"
        path.write_text(f'{{"format_version": "1", "x": {value}}}', encoding="utf-8")
        with pytest.raises(CassetteUnreadable, match=what):
            load(path, Cassette)
        (tmp_path / DIRECTORY).mkdir(exist_ok=True)
        (tmp_path / DIRECTORY / "s.json").write_text(f"[{value}]", encoding="utf-8")
        failure = SnapshotStore(tmp_path, ci=True).check([1], SnapshotSpec(name="s"))
        assert failure is not None and "the snapshot is damaged" in failure and what in failure


def test_a_report_whose_format_version_does_not_match_its_tests_is_refused(tmp_path: Path) -> None:
    from mcptest.report.load import load_report

    run = json.loads((FIXTURES / "run.json").read_text(encoding="utf-8"))
    v0 = json.loads((FIXTURES / "baseline.v0.json").read_text(encoding="utf-8"))
    for raw, key in (({**run, "format_version": "0"}, "results"), ({**v0, "format_version": "2"}, "tests")):
        path = tmp_path / "r.json"
        path.write_text(json.dumps(raw), encoding="utf-8")
        found = problems(load_report, path)
        assert (
            len(found) == 1 and f"keeps its tests under `{key}`" in found[0] and "format_version is wrong" in found[0]
        )


SECRETS = ['ab"cd\\ef-0123', "it's\\a-secret", "tab\there\"and'both", 'ünï"cødé-key']


@pytest.mark.parametrize("secret", SECRETS)
def test_a_secret_with_quotes_or_backslashes_is_masked_in_every_quoted_form(secret: str) -> None:
    quoted = [json.dumps(secret), repr(secret), json.dumps(json.dumps(secret)), json.dumps(secret, ensure_ascii=False)]
    text = " | ".join(["raw " + secret, *quoted, "'" + secret.replace("'", "''") + "'"])
    masked = redact_text(text, {secret})
    assert all(form not in masked for form in (secret, *escaped_forms(secret))), masked
    assert masked.count(MASK) == 6
    assert redact_data({"k": [json.dumps({"token": secret})]}, {secret}) == {"k": [json.dumps({"token": MASK})]}


@pytest.mark.parametrize("fmt", ["pretty", "json", "junit", "md", "sarif", "html"])
def test_every_rendering_of_a_masked_report_hides_a_quoted_secret(fmt: str) -> None:
    from mcptest.expect.failure import AssertionFailure
    from mcptest.report.formats import REPORTERS

    secret = SECRETS[0]
    said = json.dumps({"token": secret})
    failure = AssertionFailure(target="result", matcher="exact", expected="x", actual=said, message=f"got {said!r}")
    run = report([result("leaks", failures=[failure], stderr=f"token={json.dumps(secret)}")])
    rendered = REPORTERS[fmt](redact(run, {secret}), False)
    forms = {secret, *escaped_forms(secret), "ab&quot;cd", "ab\\&quot;cd", "ab\\\\&quot;cd"}
    assert not [form for form in forms if form in rendered]


LONG_NAME = "get_" + "w" * 10_000


@pytest.mark.parametrize("fmt", ["pretty", "junit", "md", "sarif", "html"])
def test_a_10_kb_tool_name_is_shown_cut_saying_so_in_every_human_readable_format(fmt: str) -> None:
    from mcptest.core.printable import RUN_LIMIT
    from mcptest.expect.failure import AssertionFailure
    from mcptest.report.formats import REPORTERS, render_json

    failure = AssertionFailure(
        target="result", matcher="exact", expected="x", actual=LONG_NAME, message=f"unknown tool '{LONG_NAME}'"
    )
    run = report([result("calls it", F, tool=LONG_NAME, failures=[failure], stderr=f"no tool {LONG_NAME}")])
    rendered = REPORTERS[fmt](run, False)
    assert "w" * RUN_LIMIT not in rendered and re.search(r"… \(100\d\d characters\)", rendered)
    assert render_json(run).count(LONG_NAME) == 4  # the JSON report keeps what the server sent


def test_a_10_kb_tool_name_is_shown_cut_in_a_catalog_diff_the_lint_sarif_and_the_model_view(tmp_path: Path) -> None:
    from mcptest.checks.lint.engine import assess
    from mcptest.checks.lint.model_view import model_view, render
    from mcptest.checks.sarif import lint_sarif
    from mcptest.core.printable import RUN_LIMIT
    from mcptest.diff.compare import diff_sources
    from mcptest.diff.render import render_markdown, render_text
    from mcptest.records.catalog import from_wire

    tool = {"name": LONG_NAME, "description": "Get it. " + "d" * 5_000, "inputSchema": {"type": "object"}}
    (tmp_path / "old.json").write_text(json.dumps({"tools": [tool]}), encoding="utf-8")
    (tmp_path / "new.json").write_text(json.dumps({"tools": [{**tool, "name": LONG_NAME + "z"}]}), encoding="utf-8")
    change, _ = diff_sources(str(tmp_path / "old.json"), str(tmp_path / "new.json"))
    catalog = from_wire({"tools": [tool]}, "old.json")
    outputs = [render_text(change), render_markdown(change), lint_sarif([("old.json", assess(catalog))])]
    outputs.append(render(model_view(catalog)))
    for text in outputs:
        assert (
            "w" * RUN_LIMIT not in text and "d" * RUN_LIMIT not in text and re.search(r"… \(100\d\d characters\)", text)
        ), text[:300]
