"""`mcptest tool-bench run` as a user runs it: gates, JSON against its schema, selectors, flags, empty lists."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import jsonschema
import pytest

from mcptest.schemas import SCHEMA_DIR
from tests.bench.conftest import EXAMPLE, SPEC_EXAMPLE, tool
from tests.conftest import run_cli


@pytest.fixture
def example_spec(tmp_path: Path) -> Path:
    spec = tmp_path / "spec.yml"
    spec.write_text(SPEC_EXAMPLE, encoding="utf-8")
    return spec


def test_min_drop_passes_when_some_mutation_drops_enough(example_spec: Path) -> None:
    ran = run_cli("tool-bench", "run", str(example_spec), "--min-drop", "0.5")
    assert ran.code == 0, ran.stderr
    assert ran.stdout.splitlines()[-1] == "PASS largest drop 100.0%, --min-drop 50.0%"


def test_min_drop_fails_when_no_mutation_moves_selection(spec_file: Callable[..., Path]) -> None:
    spec = spec_file(
        [tool("read_file", "Read a file."), tool("send_email", "Send an email to someone.")],
        [("read the file", ["read_file"]), ("send an email", ["send_email"])],
        [{"tool": "send_email", "kind": "drop_keyword", "word": "someone"}],
    )
    ran = run_cli("tool-bench", "run", str(spec), "--min-drop", "0.1")
    assert ran.code == 1
    assert ran.stdout.splitlines()[-1] == "FAIL largest drop 0.0%, --min-drop 10.0%"


def test_an_empty_mutation_list_reports_the_baseline_and_fails_a_min_drop_gate(spec_file: Callable[..., Path]) -> None:
    spec = spec_file([tool("read_file", "Read a file.")], [("read the file", ["read_file"])], [])
    plain = run_cli("tool-bench", "run", str(spec), "--json")
    report = json.loads(plain.stdout)
    assert plain.code == 0
    assert (report["mutations"], report["max_drop"], report["passed"]) == ([], None, None)
    assert report["baseline"]["correct"] == 1
    gated = run_cli("tool-bench", "run", str(spec), "--min-drop", "0")
    assert gated.code == 1
    assert gated.stdout.splitlines()[-2:] == ["no mutations", "FAIL largest drop none, --min-drop 0.0%"]


def test_json_output_is_valid_against_the_committed_schema() -> None:
    ran = run_cli("tool-bench", "run", str(EXAMPLE / "bench.yml"), "--json", "--min-drop", "0.05")
    schema = json.loads((SCHEMA_DIR / "tool-bench.v1.json").read_text(encoding="utf-8"))
    report = json.loads(ran.stdout)
    jsonschema.validate(report, schema)
    assert (report["passed"], len(report["intents"]), len(report["mutations"])) == (True, 34, 10)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--min-drop", "1.5"], "mcptest: --min-drop: a fraction between 0 and 1, got 1.5"),
        (
            ["--selector", "lexicl"],
            "mcptest: --selector: unknown selector 'lexicl' (did you mean 'lexical'?); "
            "choose one of lexical, embedding, model:<id>",
        ),
        (
            ["--selector", "model:claude-sonnet-4-5"],
            "mcptest: --selector model:claude-sonnet-4-5: tool-bench is not wired to a model provider yet; "
            "use --selector lexical or embedding",
        ),
    ],
)
def test_bad_flags_exit_2_with_one_line(example_spec: Path, args: list[str], message: str) -> None:
    ran = run_cli("tool-bench", "run", str(example_spec), *args)
    assert (ran.code, ran.stdout, ran.stderr) == (2, "", message + "\n")


def test_the_embedding_selector_without_its_extra_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from mcptest.bench.selectors import resolve
    from mcptest.errors import UserError

    monkeypatch.setitem(sys.modules, "wordllama", None)  # what an environment without the extra looks like
    with pytest.raises(UserError) as caught:
        resolve("embedding")
    assert (
        str(caught.value) == "mcptest: --selector embedding needs the embedding extra: pip install 'mcptest[embedding]'"
    )
