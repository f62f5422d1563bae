"""Issue 12: a distractor is named in one form everywhere (its bare injected id: it belongs to no server)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_cli
from tests.providers.helpers import write_suite

AGENT = """
agents:
  - name: picks a look-alike
    provider: scripted
    servers: [weather, notes]
    prompt: Note the weather.
    distractors: { count: 2, source: { from: near_duplicate, of: [save_note] }, correct: [notes.save_note] }
    script:
      - turns:
          - tool_calls: [{ name: save_note_v2, args: { text: sunny } }]
          - tool_calls: [{ name: save_note, args: { text: sunny } }]
          - answer: Noted.
"""


def test_distractor_names_are_in_one_form_everywhere(tmp_path: Path) -> None:
    suite = write_suite(tmp_path, AGENT)
    ran = run_cli("run", str(suite), "-r", "json", cwd=tmp_path)
    gate = json.loads(ran.stdout)["gates"][0]
    injected = gate["detail"]["distractors"]
    (row,) = gate["detail"]["runs"]
    assert injected == ["save_note_internal", "save_note_v2"]
    assert row["chose_distractor"] == ["save_note_v2"] and row["chose_correct"] == ["notes.save_note"]
    (line,) = [x for x in ran.stderr.splitlines() if x.startswith("distractors ")]
    assert "(1 correct, 1 distractor: save_note_v2)" in line and "notes.save_note_v2" not in ran.stdout + line
