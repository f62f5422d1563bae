"""examples/tool-bench's committed model cassette: recorded against the tests' fake model, replayed offline."""

from __future__ import annotations

import shutil
from pathlib import Path

from mcptest.bench import load_spec
from mcptest.bench.recording import ModelOptions, cassette_path, model_selector
from tests.bench.conftest import EXAMPLE
from tests.bench.fake_picker import picking_llm
from tests.conftest import run_cli
from tests.providers.fake_llm import serve
from tests.providers.helpers import no_wait

FAKE_MODEL = "fake-word-overlap"
"""Not a real model: the tests' fake provider (tests/bench/fake_picker.py), which picks by shared words."""


def record(spec: Path) -> Path:
    """Record the example's picks against the fake model, as the README says they were."""
    with serve(picking_llm()) as url:
        options = ModelOptions(record=True, provider="openai", base_url=f"{url}/v1", environ={}, sleep=no_wait)
        model_selector(load_spec(spec), FAKE_MODEL, options)
    return cassette_path(spec, FAKE_MODEL)


def test_the_committed_cassette_is_what_recording_against_the_fake_gives_byte_for_byte(tmp_path: Path) -> None:
    for name in ("model.yml", "catalog.json"):
        shutil.copy(EXAMPLE / name, tmp_path / name)
    again = record(tmp_path / "model.yml").read_text(encoding="utf-8")
    assert again == cassette_path(EXAMPLE / "model.yml", FAKE_MODEL).read_text(encoding="utf-8")


def test_the_readme_replay_command_runs_offline() -> None:
    readme = (EXAMPLE / "README.md").read_text(encoding="utf-8")
    command = next(line for line in readme.splitlines() if f"model:{FAKE_MODEL}" in line).split("mcptest ", 1)[1]
    ran = run_cli(*command.split(), env={"CI": "true"})
    assert (ran.code, ran.stderr) == (0, "")
    assert ran.stdout.splitlines()[2].startswith("baseline: ")


if __name__ == "__main__":  # re-record the committed cassette: python -m tests.bench.test_example_model
    print(record(EXAMPLE / "model.yml"))
