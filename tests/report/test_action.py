"""The GitHub Action (action.yml) step by step: each `run:` step's commands run as the runner would run them (bash,
its `env:` with the inputs filled in, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_ACTION_PATH), on a failing suite,
with the comment posted to a local fake of GitHub's API. Only `pip install` and the artifact upload are not run."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from typing import Any

from mcptest.core.yaml_source import load
from tests.conftest import PYTHON, ROOT
from tests.report.test_annotations import FLOOR
from tests.report.test_pr_comment import api  # noqa: F401  (the fake API fixture)

ACTION = ROOT / "action.yml"


def filled(text: str, values: dict[str, str]) -> str:
    """`${{ name }}` expressions replaced by their values (every one the action uses must be known)."""
    return re.sub(r"\$\{\{\s*([\w.-]+)\s*\}\}", lambda m: values[m.group(1)], text)


def test_the_action_runs_annotates_summarizes_comments_and_fails_the_job(api, tmp_path: Path) -> None:  # noqa: F811
    url, comments, handler = api
    handler.token = ("Authorization", "Bearer t0k")
    action: dict[str, Any] = load(ACTION).data
    (tmp_path / "mcptest.yml").write_text(FLOOR.lstrip("\n"))
    shim = tmp_path / "bin"
    shim.mkdir()
    (shim / "mcptest").write_text(f'#!/bin/sh\nexec {PYTHON} -m mcptest "$@"\n')
    (shim / "mcptest").chmod(0o755)
    output, summary = tmp_path / "github_output", tmp_path / "summary.md"
    values = {f"inputs.{k}": str(v.get("default", "")) for k, v in action["inputs"].items()}
    values |= {"inputs.github-token": "t0k", "github.event.pull_request.number": "5"}
    base = {
        **os.environ, "PATH": f"{shim}:/usr/bin:/bin", "PYTHONPATH": str(ROOT), "GITHUB_ACTIONS": "true",
        "GITHUB_OUTPUT": str(output), "GITHUB_STEP_SUMMARY": str(summary), "GITHUB_ACTION_PATH": str(ROOT),
        "GITHUB_API_URL": url, "GITHUB_REPOSITORY": "o/r", "NO_COLOR": "1",
    }  # fmt: skip
    codes, stderr, uploaded = {}, {}, []
    for step in action["runs"]["steps"]:
        assert step.get("if", "always()") == "always()" or step["name"] == "Install mcptest"
        if "uses" in step:
            uploaded.append((step["uses"], filled(str(step["with"]["path"]), values)))
            continue
        if step["name"] == "Install mcptest":
            assert step["run"] == 'python3 -m pip install --quiet "$VERSION"'
            continue
        values["steps.run.outputs.code"] = dict(
            line.split("=", 1) for line in output.read_text().splitlines()
        ).get("code", "") if output.exists() else ""  # fmt: skip
        env = {k: filled(str(v), values) for k, v in step.get("env", {}).items()}
        ran = subprocess.run(
            ["bash", "-e", "-c", step["run"]], cwd=tmp_path, env={**base, **env}, capture_output=True, text=True,
            timeout=120,
        )  # fmt: skip
        codes[step["name"]], stderr[step["name"]] = ran.returncode, ran.stderr
    assert codes == {
        "Run the suite": 0,
        "Render the HTML report and the badge": 0,
        "Comment on the pull request": 0,
        "Fail on a failed run": 1,
    }, stderr
    assert "::error file=mcptest.yml,line=7,col=7,title=floor kind" in stderr["Run the suite"]
    assert summary.read_text().startswith("## mcptest: **FAIL**")
    reports = tmp_path / "mcptest-report"
    assert sorted(p.name for p in reports.iterdir()) == ["badge.json", "comment.md", "run.html", "run.json"]
    assert comments[2] == (reports / "comment.md").read_text()
    assert uploaded == [("actions/upload-artifact@v4", "mcptest-report")]
