"""Regexes from suites, servers and the command line match in linear time (RE2); what RE2 lacks is a load error."""

from __future__ import annotations

import anyio
import pytest

from mcptest.core.exit_codes import ExitCode
from mcptest.core.json_schema import schema_problems, validator
from mcptest.core.regexes import RegexError, compile_regex
from mcptest.expect.assertions import Matcher
from mcptest.run.runner import run_suite
from mcptest.server.session import InProcessServer
from mcptest.suite.loader import load_suite
from tests.conftest import run_cli
from tests.servers.demo_server import build

EVIL = "(a+)+$"
LONG = "a" * 50_000 + "!"  # Python's backtracking `re` would take longer than the age of the universe


@pytest.mark.timeout(10)
def test_a_catastrophic_regex_is_a_prompt_failed_assertion() -> None:
    assert Matcher(regex=EVIL).test(LONG) == '"' + "a" * 198 + f"… does not match /{EVIL}/"
    assert Matcher(regex=EVIL).test("aaaa") is None


@pytest.mark.timeout(10)
def test_a_catastrophic_schema_pattern_is_a_prompt_failed_assertion() -> None:
    why = Matcher.model_validate({"schema": {"type": "string", "pattern": EVIL}}).test(LONG)
    assert why is not None and "does not match '(a+)+$'" in why
    keys = Matcher.model_validate({"schema": {"patternProperties": {EVIL: {"type": "integer"}}}})
    assert keys.test({"a" * 30 + "!": "not checked", "aaa": 1}) is None
    assert "is not of type 'integer'" in (keys.test({"aaa": "x"}) or "")


@pytest.mark.parametrize(
    ("pattern", "names"),
    [
        (r"(?=Paris)", "lookahead `(?=…)`"),
        (r"(?<!x)y", "negative lookbehind `(?<!…)`"),
        (r"(a)\1", r"backreferences `\1`"),
        (r"(?P<c>a)(?P=c)", "backreferences `(?P=name)`"),
        (r"a++", "possessive quantifiers `++`"),
        (r"(?>a)", "atomic groups `(?>…)`"),
        (r"end\Z", r"`\Z` (write `\z`)"),
    ],
)
def test_a_construct_re2_lacks_is_named_with_the_fix(pattern: str, names: str) -> None:
    with pytest.raises(RegexError) as caught:
        compile_regex(pattern)
    assert str(caught.value) == (
        f"invalid regex {pattern!r}: RE2 has no {names}; mcptest matches regexes with RE2, which never backtracks "
        "(see docs/matchers.md)"
    )


def test_a_pattern_invalid_in_every_dialect_keeps_the_engine_message() -> None:
    with pytest.raises(
        RegexError, match=r"^invalid regex '\(unclosed': missing \), unterminated subpattern at position 0$"
    ):
        compile_regex("(unclosed")


def test_the_suite_points_at_each_regex_re2_rejects_and_re2_prints_nothing(write) -> None:
    suite = write(
        "suite.yml",
        """
        servers:
          s: { command: ["true"] }
        tools:
          - name: t
            server: s
            tool: x
            expect:
              - result.content[0].text: { regex: "(?=Paris)" }
              - result.structuredContent: { schema: { properties: { id: { pattern: "(a)\\\\1" } } } }
        """,
    )
    ran = run_cli("validate", str(suite))
    assert ran.code == ExitCode.USAGE
    lines = ran.stderr.splitlines()
    assert lines[0].startswith(
        f"{suite}:8:9: tools[0].expect[0].regex: invalid regex '(?=Paris)': RE2 has no lookahead"
    )
    assert lines[1].startswith(f"{suite}:9:9: tools[0].expect[1].schema: invalid regex '(a)\\\\1': RE2 has no backref")
    assert len(lines) == 2  # nothing from RE2's own logging


def test_filter_regexes_are_re2_too(write) -> None:
    ran = run_cli("run", "examples/quickstart/mcptest.yml", "--filter", "re:(?<=weather) for")
    assert ran.code == ExitCode.USAGE
    assert ran.stderr.startswith("mcptest: --filter: invalid regex '(?<=weather) for': RE2 has no lookbehind")


def test_server_schemas_with_patterns_re2_lacks_are_findings_not_crashes() -> None:
    check = validator({"type": "string", "pattern": "(?=x)"})
    assert [e.message for e in check.iter_errors("x")] == [
        "the schema cannot be checked: invalid regex '(?=x)': RE2 has no lookahead `(?=…)`; mcptest matches "
        "regexes with RE2, which never backtracks (see docs/matchers.md)"
    ]


def test_schema_problems_ignore_literal_data_that_looks_like_keywords() -> None:
    schema = {"enum": [{"pattern": "(?=x)", "$ref": "http://x"}], "const": {"$ref": "http://y"}}
    assert schema_problems(schema) == []
    assert schema_problems({"$id": "https://ex.com/s", "$ref": "https://ex.com/s#/$defs/a"}) == []


@pytest.mark.timeout(30)
def test_a_catastrophic_regex_does_not_hold_up_the_run(write) -> None:
    suite = write(
        "suite.yml",
        f"""
        servers:
          demo: {{ command: ["unused"] }}
        tools:
          - name: evil
            server: demo
            tool: echo
            args: {{ text: "{"a" * 5000}!" }}
            expect:
              - result.content[0].text: {{ regex: "{EVIL}" }}
          - name: after it
            server: demo
            tool: add
            args: {{ a: 1, b: 2 }}
        """,
    )
    loaded = load_suite(suite)
    result = anyio.run(lambda: run_suite(loaded, servers={"demo": InProcessServer(build())}))
    statuses = {r.name: r.status for r in result.report.results}
    assert statuses == {"evil": "failed", "after it": "passed"}
