"""`mcptest report --format pr-comment` and the documented step that posts it: the comment is pinned, and
examples/ci/pr-comment.sh creates it once, then updates that same comment, against a local fake of GitHub's issue
comments API and of GitLab's merge request notes API."""

from __future__ import annotations

import json
import subprocess
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, run_cli
from tests.report.test_formats import pinned

FIXTURES = Path(__file__).parent / "fixtures"
SCRIPT = ROOT / "examples" / "ci" / "pr-comment.sh"


def test_the_comment_against_a_baseline_and_alone_is_as_pinned() -> None:
    args = ("report", str(FIXTURES / "run.json"), "--format", "pr-comment", "--link", "https://ci.example/runs/7")
    compared = run_cli(*args, "--compare", str(FIXTURES / "baseline.json"), cwd=ROOT)
    assert compared.code == 0, compared.stderr
    pinned("run.pr-comment.compare.md", compared.stdout)
    alone = run_cli(*args, cwd=ROOT, env={"GITHUB_SERVER_URL": "https://github.example"})
    pinned("run.pr-comment.md", alone.stdout)
    assert alone.stdout.splitlines()[0] == "<!-- mcptest:pr-comment suite=suites/weather.yml -->"


class Fake(BaseHTTPRequestHandler):
    """GitHub's `/repos/O/R/issues/N/comments` + `/issues/comments/ID` and GitLab's `/projects/P/merge_requests/N/notes`
    (+ `/ID`), holding comments in memory and refusing a request without the expected token header."""

    comments: dict[int, str]
    token: tuple[str, str]

    def log_message(self, *args: Any) -> None:
        pass

    def _authorized(self) -> bool:
        if self.headers.get(self.token[0]) != self.token[1]:
            self._reply(401, {"message": "Bad credentials"})
            return False
        return True

    def _reply(self, code: int, body: Any) -> None:
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:  # noqa: N802
        if self._authorized():
            self._reply(200, [{"id": i, "body": b} for i, b in self.comments.items()])

    def _write(self) -> None:
        if not self._authorized():
            return
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))["body"]
        tail = self.path.rstrip("/").rsplit("/", 1)[-1]
        if self.command == "POST":
            tail = str(max(self.comments, default=0) + 1)
        self.comments[int(tail)] = body
        self._reply(201 if self.command == "POST" else 200, {"id": int(tail), "body": body})

    do_POST = do_PATCH = do_PUT = _write


@pytest.fixture
def api() -> Iterator[tuple[str, dict[int, str], Any]]:
    comments: dict[int, str] = {1: "a reviewer's comment"}
    handler = type("Handler", (Fake,), {"comments": comments, "token": ("", "")})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", comments, handler
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.mark.parametrize("kind", ["github", "gitlab"])
def test_the_documented_step_posts_once_then_updates_the_same_comment(kind: str, api, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    url, comments, handler = api
    if kind == "github":
        handler.token = ("Authorization", "Bearer t0k")
        env = {"GITHUB_API_URL": url, "GITHUB_TOKEN": "t0k", "GITHUB_REPOSITORY": "o/r", "PR_NUMBER": "5"}
    else:
        handler.token = ("PRIVATE-TOKEN", "t0k")
        env = {"CI_API_V4_URL": url, "GITLAB_TOKEN": "t0k", "CI_PROJECT_ID": "9", "CI_MERGE_REQUEST_IID": "5"}
    comment = tmp_path / "comment.md"

    def post(report: str) -> str:
        made = run_cli("report", str(FIXTURES / report), "--format", "pr-comment", "--output", str(comment))
        assert made.code == 0, made.stderr
        ran = subprocess.run(
            ["sh", str(SCRIPT), kind, str(comment)], capture_output=True, text=True, timeout=30,
            env={"PATH": "/usr/bin:/bin", **env},
        )  # fmt: skip
        assert ran.returncode == 0, ran.stderr
        return ran.stdout

    assert post("baseline.json") == "mcptest: posted a new comment\n"
    assert post("run.json") == "mcptest: updated comment 2\n"
    assert sorted(comments) == [1, 2]
    assert comments[1] == "a reviewer's comment"
    assert comments[2] == comment.read_text()
    assert "3 failed" in comments[2]


def test_the_link_defaults_to_the_ci_runs_page() -> None:
    from mcptest.cli.report import run_link

    github = {"GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "o/r", "GITHUB_RUN_ID": "42"}
    assert run_link(github) == "https://github.com/o/r/actions/runs/42"
    assert run_link({"CI_JOB_URL": "https://gitlab.example/o/r/-/jobs/9"}) == "https://gitlab.example/o/r/-/jobs/9"
    assert run_link({}) is None
