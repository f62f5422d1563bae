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
WORDS = ["${HOME}", "${UNSET_X}", "${}", "${A", "$${x}", "${API_TOKEN}", "weather", "result.isError", "([a-z", "."]
SNIPPETS = [
    "&a ", "*a", "*b", "!!binary ", "!!python/object/apply:os.system ", "!!set ", "<<: *a\n", "\x00", "\x1b[2J",
    "\t", "[" * 150, "'", '"', "\n  - ", ": ", "{", "}", "9" * 5000, "\n---\n", "%YAML 1.1\n", "? ", "|\n  ", "#",
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


@settings(max_examples=200, deadline=2000, suppress_health_check=[HealthCheck.function_scoped_fixture])
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
