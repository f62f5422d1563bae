"""Fuzz the suite loader: any text is a Suite or a UserError whose every problem is located, never a crash."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

hypothesis = pytest.importorskip("hypothesis")  # a dev dependency: see pyproject's [dev] extra
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from mcptest.core.errors import UserError  # noqa: E402
from mcptest.suite.loader import load_suite  # noqa: E402
from mcptest.suite.models import Suite  # noqa: E402

KEYS = [
    "servers",
    "tools",
    "agents",
    "tool_quality",
    "prices",
    "secrets",
    "version",
    "name",
    "server",
    "tool",
    "args",
    "expect",
    "target",
    "matcher",
    "command",
    "env",
    "cwd",
    "url",
    "headers",
    "exact",
    "contains",
    "regex",
    "schema",
    ">=",
    "<",
    "tags",
    "model",
    "prompt",
    "runs",
    "script",
    "turns",
    "answer",
    "weather",
    "x",
]
WORDS = [
    "${A:-${UNSET_X:-d}}",
    "${UNSET_X:-${HOME}}",
    "${A:-${}}",
    "${HOME}",
    "${UNSET_X}",
    "${}",
    "${A",
    "$${x}",
    "${API_TOKEN}",
    "weather",
    "result.isError",
    "([a-z",
    ".",
]
SNIPPETS = [
    "&a ", "*a", "*b", "!!binary ", "!!python/object/apply:os.system ", "!!set ", "<<: *a\n", "\x00", "\x1b[2J",
    "\t", "[" * 150, "'", '"', "\n  - ", ": ", "{", "}", "9" * 5000, "\n---\n", "%YAML 1.1\n", "? ", "|\n  ", "#",
    '"\\ud800"', '"\\ud83d\\ude00"', "${A:-${B:-x}}", "${A:-${", "${A:-${API_TOKEN}}",
]  # fmt: skip
BASE = """\
servers:
  weather:
    command: ["mcptest", "mock", "--tools-from", "weather.yml"]
    env: { DEFAULT_CITY: Paris, API_TOKEN: { env: API_TOKEN } }
tools:
  - name: &n get weather
    server: weather
    tool: get_weather
    args: { city: "${CITY:-Paris}" }
    expect:
      - target: result.isError
        matcher: { exact: false }
      - result.content[0].text: { regex: "sunny" }
"""
ENV = {"HOME": "/home/x", "API_TOKEN": "tok-0123456789abcdef", "CITY": "Paris"}

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(10**6), 10**6), st.floats(), st.text(max_size=12), st.sampled_from(WORDS)
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=6), inner),
    max_leaves=25,
)
documents = st.one_of(
    st.just(BASE),
    st.dictionaries(st.sampled_from(KEYS), values, max_size=6).map(json.dumps),
)


@st.composite
def mutated(draw: st.DrawFn) -> str:
    text = draw(documents)
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.sampled_from(SNIPPETS) | st.text(max_size=4)) + text[at:]
    return text


# Each fuzz test: too_slow off and a roomy deadline, since generation speed depends on the machine's load, not on
# the code under test; the deadline still catches an input that makes reading hang.
@settings(
    max_examples=200,
    deadline=10_000,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(mutated())
def test_any_text_loads_as_a_suite_or_located_problems(tmp_path: Path, text: str) -> None:
    path = tmp_path / "suite.yml"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    try:
        suite = load_suite(path, ENV)
    except UserError as exc:
        assert exc.problems
        for problem in exc.problems:
            assert problem.file == str(path) and problem.line >= 1 and problem.col >= 1, problem
            assert ENV["API_TOKEN"] not in problem.message
    else:
        assert isinstance(suite, Suite)


PIECES = ["${", "$${", ":-", "}", "A", "API_TOKEN", "UNSET_X", "x", "{", "$", " ", "9"]


@settings(
    max_examples=150, deadline=10_000, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(st.lists(st.sampled_from(PIECES), max_size=24).map("".join))
def test_any_reference_text_resolves_or_is_refused_at_its_line_never_leaking_the_secret(
    tmp_path: Path, text: str
) -> None:
    path = tmp_path / "suite.yml"
    path.write_text(BASE.replace('"${CITY:-Paris}"', json.dumps(text)), encoding="utf-8")
    env = {**ENV, "API_TOKEN": 'tok"en\\0123456789'}
    try:
        load_suite(path, env)
    except UserError as exc:
        for problem in exc.problems:
            assert problem.file == str(path) and problem.line >= 1 and problem.col >= 1, problem
            assert "tok" not in problem.message, problem.message


JSON_SNIPPETS = [
    "9" * 25_000,
    "9" * 5_000,
    '"\\ud800"',
    '"\\udc00x"',
    '"\\ud83d\\ude00"',
    "[" * 150,
    "NaN",
    "-",
    '"',
    "\\",
    "}",
    ",",
]


@st.composite
def json_texts(draw: st.DrawFn) -> str:
    text = json.dumps(draw(values))
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.sampled_from(JSON_SNIPPETS) | st.text(max_size=3)) + text[at:]
    return text


@settings(max_examples=150, deadline=10_000, suppress_health_check=[HealthCheck.too_slow])
@given(json_texts())
def test_any_json_text_is_read_or_refused_at_a_line_and_column(text: str) -> None:
    from mcptest.core import json_source

    try:
        data = json_source.loads(text, "f.json")
    except UserError as exc:
        assert len(exc.problems) == 1 and exc.problems[0].line >= 1 and exc.problems[0].col >= 1, exc.problems
    else:
        assert not json_source.has_lone_surrogate(data)
        json.dumps(data)  # whatever is read can be written back
