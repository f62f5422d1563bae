"""The JSON Schemas of mcptest's file formats, generated from the models into `schema/`."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schema"


def suite_schema() -> dict[str, Any]:
    """The suite file format (v1)."""
    from mcptest.suite.models import SCHEMA_URL, Suite

    schema = Suite.model_json_schema()
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": SCHEMA_URL, **schema}


def report_schema() -> dict[str, Any]:
    """The JSON report format."""
    from mcptest.records.report import Report

    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **Report.model_json_schema()}


def trace_schema() -> dict[str, Any]:
    """A recorded agent run (the trace files agent tests read, and what cassettes store)."""
    from mcptest.records.trace import Trace

    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **Trace.model_json_schema()}


def tool_bench_schema() -> dict[str, Any]:
    """The `mcptest tool-bench run --json` report."""
    from mcptest.bench.report import BenchReport

    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **BenchReport.model_json_schema()}


def compare_schema() -> dict[str, Any]:
    """The delta document of `mcptest report --compare --json`."""
    from mcptest.report.delta import Comparison

    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **Comparison.model_json_schema()}


def cassette_schema() -> dict[str, Any]:
    """An agent test's recorded runs on one model (`cassettes/<test>/<model>.json`)."""
    from mcptest.cassette.format import Cassette

    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **Cassette.model_json_schema()}


def pick_cassette_schema() -> dict[str, Any]:
    """A tool-bench model selector's recorded picks."""
    from mcptest.cassette.picks import PickCassette

    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **PickCassette.model_json_schema()}


def diff_schema() -> dict[str, Any]:
    """The `mcptest diff --json` report."""
    from mcptest.diff.model import DiffReport

    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **DiffReport.model_json_schema()}


def lock_schema() -> dict[str, Any]:
    """The `mcptest.lock` file `mcptest pin` writes."""
    from mcptest.diff.pins import Lock

    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **Lock.model_json_schema(by_alias=True)}


def catalog_snapshot_schema() -> dict[str, Any]:
    """A server's catalog snapshot (`mcptest catalog --output`)."""
    from mcptest.records.catalog_snapshot import CatalogSnapshot

    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **CatalogSnapshot.model_json_schema()}


def load_schema() -> dict[str, Any]:
    """The `mcptest load --json` report."""
    from mcptest.load.model import LoadReport

    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **LoadReport.model_json_schema()}


def fuzz_schema() -> dict[str, Any]:
    """The `mcptest fuzz --json` report."""
    from mcptest.fuzz.report import FuzzReport

    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **FuzzReport.model_json_schema()}


def conformance_schema() -> dict[str, Any]:
    """The `mcptest conformance --json` report."""
    from mcptest.checks.conformance.report import ConformanceJson

    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **ConformanceJson.model_json_schema()}


def history_schemas() -> dict[str, Callable[[], dict[str, Any]]]:
    """`mcptest history --json`, `history test NAME --json` and `history flaky --json`, one schema each."""

    def of(name: str) -> Callable[[], dict[str, Any]]:
        def schema() -> dict[str, Any]:
            from mcptest.history import models

            model = getattr(models, name)
            return {"$schema": "https://json-schema.org/draft/2020-12/schema", **model.model_json_schema()}

        return schema

    return {"history-runs.v1.json": of("RunList"), "history-test.v1.json": of("TestHistory"),
            "history-flaky.v1.json": of("FlakyList"), "history-load.v1.json": of("LoadHistory")}  # fmt: skip


# The formats and their files: one plain list, walked by the staleness test.
SCHEMAS: dict[str, Callable[[], dict[str, Any]]] = {
    "v1.json": suite_schema,
    "cassette.v1.json": cassette_schema,
    "catalog.v1.json": catalog_snapshot_schema,
    "report.v2.json": report_schema,
    "compare.v1.json": compare_schema,
    "tool-bench.v1.json": tool_bench_schema,
    "tool-bench-cassette.v1.json": pick_cassette_schema,
    "trace.v1.json": trace_schema,
    "diff.v1.json": diff_schema,
    "lock.v1.json": lock_schema,
    "fuzz.v1.json": fuzz_schema,
    "conformance.v1.json": conformance_schema,
    "load.v1.json": load_schema,
    **history_schemas(),
}


def render(name: str) -> str:
    """A schema as the committed file's text."""
    return json.dumps(SCHEMAS[name](), indent=2, sort_keys=True) + "\n"


def write(directory: Path = SCHEMA_DIR) -> None:
    """Regenerate every schema file."""
    directory.mkdir(exist_ok=True)
    for name in SCHEMAS:
        (directory / name).write_text(render(name), encoding="utf-8")
        print(f"wrote {directory / name}", file=sys.stderr)


if __name__ == "__main__" and sys.argv[1:] == ["write"]:
    write()
