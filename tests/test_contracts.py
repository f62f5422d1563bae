"""Public contracts: exit codes, committed JSON Schemas, and examples that point at them."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from mcptest.core import yaml_source
from mcptest.core.exit_codes import ExitCode
from mcptest.schemas import SCHEMA_DIR, SCHEMAS, render
from tests.conftest import ROOT, run_cli


def test_exit_codes_are_pinned() -> None:
    assert {c.name: int(c) for c in ExitCode} == {
        "OK": 0,
        "FAILED": 1,
        "USAGE": 2,
        "NOT_READY": 3,
        "POLICY": 5,
        "QUALITY_FLOOR": 6,
        "NOTHING_SELECTED": 7,
        "INTERRUPTED": 130,
    }


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_committed_schemas_match_the_models(name: str) -> None:
    committed = (SCHEMA_DIR / name).read_text(encoding="utf-8")
    assert committed == render(name), f"schema/{name} is stale: run `make schema` and commit it"


def test_schema_command_prints_the_suite_schema() -> None:
    ran = run_cli("schema")
    assert ran.code == 0
    assert json.loads(ran.stdout) == json.loads(render("v1.json"))


EXAMPLE_SUITES = sorted(
    p for p in (ROOT / "examples").rglob("*.yml") if not {"mock_server:", "intents:"} & set(p.read_text().split())
)


@pytest.mark.parametrize("suite", EXAMPLE_SUITES, ids=lambda p: str(p.relative_to(ROOT)))
def test_example_suites_point_at_the_schema_and_satisfy_it(suite: Path) -> None:
    first = suite.read_text(encoding="utf-8").splitlines()[0]
    prefix = "# yaml-language-server: $schema="
    assert first.startswith(prefix)
    schema_file = (suite.parent / first[len(prefix) :]).resolve()
    assert schema_file == (SCHEMA_DIR / "v1.json").resolve()
    schema = json.loads(schema_file.read_text())
    jsonschema.validate(yaml_source.load(suite).data, schema)
    assert run_cli("validate", str(suite)).code == 0


EXAMPLE_TRACES = sorted((ROOT / "examples").rglob("traces/*.json"))


@pytest.mark.parametrize("trace_file", EXAMPLE_TRACES, ids=lambda p: str(p.relative_to(ROOT)))
def test_example_traces_satisfy_the_trace_schema(trace_file: Path) -> None:
    schema = json.loads((SCHEMA_DIR / "trace.v1.json").read_text())
    data = json.loads(trace_file.read_text())
    for trace in data if isinstance(data, list) else [data]:
        jsonschema.validate(trace, schema)


EXAMPLE_CASSETTES = sorted((ROOT / "examples").rglob("cassettes/**/*.json"))


@pytest.mark.parametrize("cassette", EXAMPLE_CASSETTES, ids=lambda p: str(p.relative_to(ROOT)))
def test_committed_cassettes_satisfy_their_schema(cassette: Path) -> None:
    kind = "tool-bench-cassette.v1.json" if "tool-bench" in cassette.parts else "cassette.v1.json"
    jsonschema.validate(json.loads(cassette.read_text()), json.loads((SCHEMA_DIR / kind).read_text()))
