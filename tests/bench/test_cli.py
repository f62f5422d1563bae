"""`mcptest tool-bench run` as a user runs it: gates, JSON against its schema, selectors, flags, empty lists."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import jsonschema
import pytest

from mcptest.schemas import SCHEMA_DIR
from tests.bench.conftest import EXAMPLE, SPEC_EXAMPLE, tool
from tests.bench.fake_picker import picking_llm
from tests.conftest import run_cli
from tests.providers.fake_llm import serve
from tests.providers.helpers import KEY


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
        (["--record"], "mcptest: --record: only for --selector model:<id>"),
        (["--base-url", "http://127.0.0.1:1/v1"], "mcptest: --base-url: only for --selector model:<id>"),
        (
            ["--selector", "model:llama3.2", "--provider", "opnai"],
            "mcptest: --provider: unknown provider 'opnai' (did you mean 'openai'?); choose anthropic or openai or "
            "openai-responses or gemini or mistral or bedrock",
        ),
    ],
)
def test_bad_flags_exit_2_with_one_line(example_spec: Path, args: list[str], message: str) -> None:
    ran = run_cli("tool-bench", "run", str(example_spec), *args)
    assert (ran.code, ran.stdout, ran.stderr) == (2, "", message + "\n")


def test_the_embedding_selector_without_its_extra_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from mcptest.bench import load_spec
    from mcptest.bench.recording import ModelOptions
    from mcptest.bench.selectors import resolve
    from mcptest.core.errors import UserError

    monkeypatch.setitem(sys.modules, "wordllama", None)  # what an environment without the extra looks like
    with pytest.raises(UserError) as caught:
        resolve("embedding", load_spec(EXAMPLE / "bench.yml"), ModelOptions())
    assert (
        str(caught.value) == "mcptest: --selector embedding needs the embedding extra: pip install 'mcptest[embedding]'"
    )


def test_a_model_selector_records_then_replays_offline_with_the_same_output(example_spec: Path) -> None:
    fake = picking_llm()
    with serve(fake) as url:
        env = {"OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": f"{url}/v1"}
        recorded = run_cli(
            "tool-bench", "run", str(example_spec), "--selector", "model:gpt-4o-mini", "--record", env=env
        )
    cassette = example_spec.parent / "cassettes" / "tool-bench" / "spec" / "gpt-4o-mini.json"
    assert (recorded.code, recorded.stderr) == (
        0,
        f"mcptest: asked the model for 2 picks, $0.0001, reused 0; wrote {cassette}\n",
    )
    replayed = run_cli("tool-bench", "run", str(example_spec), "--selector", "model:gpt-4o-mini", env={"CI": "true"})
    assert (replayed.code, replayed.stderr, replayed.stdout) == (0, "", recorded.stdout)
    lines = replayed.stdout.splitlines()
    assert (lines[0], lines[2]) == (
        f"tool-bench {example_spec}  selector model:gpt-4o-mini",
        "baseline: 1/1 correct (100.0%, 95% CI 20.7%–100.0%)",
    )


def test_a_model_selector_without_its_cassette_exits_2_with_the_record_command(example_spec: Path) -> None:
    args = ("tool-bench", "run", str(example_spec), "--selector", "model:llama3.2", "--provider", "openai")
    cassette = example_spec.parent / "cassettes" / "tool-bench" / "spec" / "llama3.2.json"
    record = (
        f"record it with: mcptest tool-bench run {example_spec} --selector model:llama3.2 --record --provider openai"
    )
    at_desk = run_cli(*args, env={"CI": ""})  # the test pins CI either way: CI itself runs with CI=true
    assert (at_desk.code, at_desk.stdout) == (2, "")
    assert at_desk.stderr == f"mcptest: no cassette at {cassette}; {record}\n"
    in_ci = run_cli(*args, env={"CI": "true"})
    assert (in_ci.code, in_ci.stderr) == (
        2,
        f"mcptest: no cassette at {cassette} (CI=true: nothing records implicitly); {record}\n",
    )


def test_a_model_that_cannot_be_asked_exits_1_and_says_why(example_spec: Path) -> None:
    with serve(picking_llm(failures=[(401, {})] * 10)) as url:
        env = {"OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": f"{url}/v1"}
        ran = run_cli("tool-bench", "run", str(example_spec), "--selector", "model:gpt-4o-mini", "--record", env=env)
    assert (ran.code, ran.stdout) == (1, "")
    assert ran.stderr.splitlines()[-1].startswith("mcptest: 2 picks not recorded: openai: HTTP 401: fake 401;")
