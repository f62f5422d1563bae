"""Heavy SDKs are imported only where they are used, so `--help` and tool-only runs stay fast."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from mcptest.suite.blocks.registry import BLOCKS
from tests.conftest import ROOT

QUICKSTART = str(ROOT / "examples" / "quickstart" / "mcptest.yml")
CATALOG = str(ROOT / "tests" / "lint" / "fixtures" / "server-everything.json")
PROVIDER_SDKS = {"anthropic", "openai", "google", "mistralai", "boto3", "botocore"}
PROBE = """
import json, sys
from mcptest.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def loaded_modules(*args: str) -> set[str]:
    proc = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=ROOT, capture_output=True, text=True, timeout=60)
    return set(json.loads(proc.stderr.strip().splitlines()[-1]))


def top_level_modules(*args: str) -> set[str]:
    return {name.split(".")[0] for name in loaded_modules(*args)}


@pytest.mark.parametrize(
    ("args", "absent"),
    [
        (("--help",), {"anthropic", "openai", "scipy", "mcp", "tiktoken", "jsonschema", "sqlalchemy", "psycopg"}),
        (("validate", QUICKSTART), {"anthropic", "openai", "scipy", "mcp", "tiktoken", "sqlalchemy"}),
        (("run", QUICKSTART), {"anthropic", "openai", "scipy", "sqlalchemy"}),  # history is off in the tests
        (("doctor", "--lint-descriptions", "--fail-on", "never", "--catalog", CATALOG), {"mcp", *PROVIDER_SDKS}),
        (("diff", CATALOG, CATALOG), {"mcp", *PROVIDER_SDKS}),
        (("validate", QUICKSTART), {"mcp", *PROVIDER_SDKS}),
        (("--help",), {"mcp", *PROVIDER_SDKS}),
    ],
)
def test_commands_import_no_sdk_they_do_not_use(args: tuple[str, ...], absent: set[str]) -> None:
    assert top_level_modules(*args) & absent == set()


def test_validate_builds_the_suite_models_only() -> None:
    """Checking a suite needs what a suite may say, not how runs are scored or reported (issue 2's 300 ms)."""
    scoring = {
        "mcptest.gates",
        "mcptest.report",
        "mcptest.records.messages",
        "mcptest.run.runner",
        "mcptest.server.session",
    }
    loaded = loaded_modules("validate", QUICKSTART)
    gate_blocks = {"mcptest.suite.blocks.registry", *(model.__module__ for model in BLOCKS.values())}
    assert gate_blocks - loaded == set()
    assert {m for m in loaded if any(m == s or m.startswith(f"{s}.") for s in scoring)} == set()
