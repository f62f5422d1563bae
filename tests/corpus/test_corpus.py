"""The bad-input corpus: every case folder exits as expected, located, without a traceback, in time, under its cap."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.corpus.harness import case_names, run_case


@pytest.mark.parametrize("name", case_names())
def test_corpus_case_is_handled_well(name: str, tmp_path: Path) -> None:
    outcome = run_case(name, tmp_path)
    assert outcome.handled_well, "\n".join([*outcome.shortfalls, "--- stderr:", outcome.stderr[-3000:]])


def test_the_corpus_holds_a_case_for_every_input_class() -> None:
    classes = {name.split("-")[0] for name in case_names()}
    assert {"secret", "escape", "bomb", "deep", "huge", "tag", "interp", "accepted"} <= classes
