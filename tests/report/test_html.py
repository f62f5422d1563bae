"""The HTML report: one self-contained page drawn from a real run, escaped, and loaded by a real browser."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from mcptest.core.exit_codes import ExitCode
from mcptest.report.load import load_report
from tests.conftest import run_cli
from tests.providers.helpers import write_suite

SUITE = """
agents:
  - name: scripted <b>agent</b>
    provider: scripted
    servers: [weather, notes]
    prompt: Weather in Paris, then note it.
    runs: 2
    distractors: { count: 2, source: { from: near_duplicate, of: [save_note] }, correct: [notes.save_note] }
    token_efficiency: { classes: [{ name: save, members: [save_note] }] }
    script:
      - turns:
          - tool_calls: [{ name: weather__get_weather, args: { city: Paris } }]
          - tool_calls: [{ name: save_note, args: { text: sunny } }]
          - answer: Noted.
      - turns:
          - tool_calls: [{ name: save_note_v2, args: { text: sunny } }]
          - answer: Tried.
    expect:
      - final_response: { exact: Noted. }
"""


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """The page of a real run (one run fails) and of the same run compared with itself."""
    tmp = tmp_path_factory.mktemp("html")
    suite = write_suite(tmp, SUITE)
    ran = run_cli("run", str(suite), "--reporter", "html", "--output", str(tmp / "run.html"))
    assert ran.code == ExitCode.FAILED, ran.stdout + ran.stderr
    assert run_cli("run", str(suite), "--reporter", "json", "--output", str(tmp / "run.json")).code == ExitCode.FAILED
    compared = run_cli("report", str(tmp / "run.json"), "--compare", str(tmp / "run.json"), "--format", "html")
    assert compared.code == ExitCode.OK, compared.stderr
    return (tmp / "run.html").read_text(encoding="utf-8"), compared.stdout


def test_the_page_is_self_contained_no_script_nothing_fetched(page: tuple[str, str]) -> None:
    for html in page:
        assert html.startswith("<!DOCTYPE html>") and html.rstrip().endswith("</html>")
        assert "<script" not in html and "<link" not in html
        assert not re.search(r"""(src|href)=["']?(https?:)?//""", html)


def test_the_page_shows_summary_failures_timing_pass_rates_distractors_and_surface(page: tuple[str, str]) -> None:
    html, _ = page
    assert 'id="verdict"' in html and "FAILED" in html
    assert "2 tests: 1 passed, 1 failed" in html
    assert "<h2>Failures</h2>" in html and "final_response" in html and "Noted." in html
    assert "<h2>Tests</h2>" in html and " ms</td>" in html
    assert "<h2>Pass rate across runs</h2>" in html and ">1/2<" in html
    assert "<h2>Distractor accuracy against distractor count</h2>" in html and "50% at 2" in html
    assert (
        "<h2>Tool-surface tokens per tool (cl100k_base)</h2>" in html
        and "<code>save_note_v2</code>"
        and "<code>notes.save_note</code>" in html
    )


def test_texts_from_the_run_are_escaped(page: tuple[str, str]) -> None:
    html, _ = page
    assert "scripted &lt;b&gt;agent&lt;/b&gt;" in html and "<b>agent</b>" not in html


def test_with_a_baseline_the_page_carries_the_delta_table(page: tuple[str, str]) -> None:
    _, compared = page
    assert "<h2>Compared with the baseline</h2>" in compared and "unchanged" in compared


def test_the_surface_chart_lists_the_token_efficiency_gates_per_tool_counts(page: tuple[str, str], tmp_path) -> None:
    suite = write_suite(tmp_path, SUITE)
    assert run_cli("run", str(suite), "--reporter", "json", "--output", str(tmp_path / "r.json")).code == 1
    gate = next(g for g in load_report(tmp_path / "r.json").gates if g.block == "token_efficiency")
    per_tool = gate.detail["tool_tokens"]
    assert sum(per_tool.values()) == gate.targets["token_efficiency.tool_surface_tokens"]
    for name, tokens in per_tool.items():
        assert f'<code>{name}</code></td><td class="num">{tokens}</td>' in page[0]


def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def test_a_real_browser_renders_the_page_without_console_errors(page: tuple[str, str], tmp_path: Path) -> None:
    browser = _chromium()
    if browser is None:
        pytest.skip("Debian's chromium is not installed: `make browser` (apt-get install chromium) installs it")
    path = tmp_path / "run.html"
    path.write_text(page[0], encoding="utf-8")
    flags = [
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        f"--user-data-dir={tmp_path / 'profile'}", "--enable-logging=stderr", "--v=0",
    ]  # fmt: skip
    dom = subprocess.run(
        [browser, *flags, "--dump-dom", path.as_uri()], capture_output=True, text=True, timeout=120, check=True
    )
    assert "2 tests: 1 passed, 1 failed" in dom.stdout and "<svg" in dom.stdout
    assert not re.search(r"CONSOLE.*(Uncaught|Error|Failed)", dom.stderr), dom.stderr
    shot = tmp_path / "run.png"
    subprocess.run(
        [browser, *flags, f"--screenshot={shot}", "--window-size=1200,1600", path.as_uri()],
        capture_output=True, timeout=120, check=True,
    )  # fmt: skip
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000


def test_resource_and_prompt_rows_name_the_uri_and_prompt_and_output_says_what_it_wrote(tmp_path: Path) -> None:
    suite = Path(__file__).resolve().parents[2] / "examples" / "resources-and-prompts" / "mcptest.yml"
    out = tmp_path / "report.html"
    ran = run_cli("run", str(suite), "--reporter", "html", "--output", str(out))
    assert ran.code == ExitCode.OK, ran.stderr
    assert ran.stderr.splitlines()[-1] == f"mcptest: wrote the html report to {out}"
    page = out.read_text()
    assert "<td>notes notes://readme</td>" in page and "<td>notes.review_note</td>" in page
