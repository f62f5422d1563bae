"""CI annotations land where the failure is: every kind of failure of a real run at the line and column its JSON
report records, GitHub's workflow-command escapes, the 50-annotation cap, the job summary and GitLab Code Quality."""

from __future__ import annotations

import json
from pathlib import Path

from mcptest.core.exit_codes import ExitCode
from mcptest.report.annotations import Annotation, codequality, github_commands, run_annotations
from tests.conftest import ROOT, run_cli

EXAMPLES = ROOT / "examples"
FLOOR = f"""
agents:
  - name: floor kind
    prompt: What is the weather in Sacramento?
    traces: [{EXAMPLES / "agent-gates" / "traces" / "weather-breach.json"}]
    tool_selection:
      expected_tool: get_weather
      min_selection_rate: 0.8
      max_total_tokens: 2000
"""
SUITE = f"""
servers:
  weather:
    command: ["mcptest", "mock", "--tools-from", "{EXAMPLES / "quickstart" / "weather.yml"}"]
  notes:
    command: ["mcptest", "mock", "--tools-from", "{EXAMPLES / "resources-and-prompts" / "notes.yml"}"]
tools:
  - name: tool kind
    server: weather
    tool: get_weather
    args: {{ city: Paris }}
    expect:
      - result.structuredContent.city: {{ exact: TOOL-MARK }}
resources:
  - name: resource kind
    server: notes
    uri: notes://readme
    expect:
      - target: result.contents[0].text
        matcher: {{ contains: RESOURCE-MARK }}
prompts:
  - name: prompt kind
    server: notes
    prompt: review_note
    args: {{ tone: friendly }}
    expect:
      - result.messages[0].content.text: {{ exact: PROMPT-MARK }}
{FLOOR}
  - name: agent kind
    provider: scripted
    servers: [weather]
    prompt: What is the weather in Paris?
    script:
      - turns:
          - tool_calls: [{{ name: get_weather, args: {{ city: Paris }} }}]
          - answer: It is sunny in Paris.
    expect:
      - final_response: {{ contains: AGENT-MARK }}
"""


def place(path: Path, marker: str, key: str) -> tuple[int, int]:
    """The line of the only line holding `marker`, and the column where `key` starts on it (1-based)."""
    lines = path.read_text().splitlines()
    (found,) = [i for i, text in enumerate(lines, 1) if marker in text]
    return found, lines[found - 1].index(key) + 1


def parsed(stderr: str) -> list[dict[str, str]]:
    """Each `::error k=v,...::message` line of a run's stderr as a dict (message under `message`)."""
    out = []
    for line in stderr.splitlines():
        if line.startswith("::error "):
            props, _, message = line.removeprefix("::error ").partition("::")
            out.append(dict(p.split("=", 1) for p in props.split(",")) | {"message": message})
    return out


def test_every_failure_kind_is_annotated_at_its_assertion_or_floor_key(write, tmp_path: Path) -> None:
    suite = write("suite.yml", SUITE)
    summary = tmp_path / "summary.md"
    env = {"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(summary)}
    ran = run_cli("run", "suite.yml", "-r", "json", "-o", "run.json", cwd=tmp_path, env=env)
    assert ran.code == ExitCode.FAILED, ran.stderr
    where = {
        "tool kind": place(suite, "TOOL-MARK", "result"),
        "resource kind": place(suite, "target: result.contents", "target"),
        "prompt kind": place(suite, "PROMPT-MARK", "result"),
        "agent kind": place(suite, "AGENT-MARK", "final_response"),
        "floor kind [claude-sonnet-4-5] · tool_selection": place(suite, "min_selection_rate", "min_selection_rate"),
    }
    tokens = place(suite, "max_total_tokens", "max_total_tokens")
    found = [(a["title"], int(a["line"]), int(a["col"]), a["file"]) for a in parsed(ran.stderr)]
    assert found == [(title, line, col, "suite.yml") for title, (line, col) in where.items()] + [
        ("floor kind [claude-sonnet-4-5] · tool_selection", *tokens, "suite.yml")
    ]
    report = json.loads((tmp_path / "run.json").read_text())
    recorded = [(f["line"], f["col"]) for r in report["results"] for f in r["failures"]]
    recorded += [(f["line"], f["col"]) for g in report["gates"] for f in g["failures"]]
    assert sorted(recorded) == sorted((line, col) for _, line, col, _ in found)  # as the JSON report records them
    assert "selection rate 60%25 is below the 80%25 floor" in ran.stderr  # `%` escaped as the runner expects
    assert summary.read_text().startswith("## mcptest: **FAIL**")
    quality = run_cli("report", "run.json", "--format", "codequality", cwd=tmp_path)
    issues = json.loads(quality.stdout)
    assert [(i["location"]["path"], i["location"]["lines"]["begin"]) for i in issues] == [
        (f, line) for _, line, _, f in found
    ]
    assert {i["check_name"] for i in issues} == {"test-assertion", "gate/tool_selection"}


def test_gitlab_writes_code_quality_and_off_prints_nothing(write, tmp_path: Path) -> None:
    write("suite.yml", FLOOR)
    env = {"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md")}
    off = run_cli("run", "suite.yml", "--annotations", "off", "-q", cwd=tmp_path, env=env)
    assert off.code == ExitCode.FAILED
    assert "::error" not in off.stderr + off.stdout
    assert not (tmp_path / "summary.md").exists()
    gitlab = run_cli("run", "suite.yml", "--annotations", "gitlab", "-q", cwd=tmp_path)
    assert gitlab.code == ExitCode.FAILED
    issues = json.loads((tmp_path / "gl-code-quality-report.json").read_text())
    assert [(i["check_name"], i["severity"], i["location"]["lines"]["begin"]) for i in issues] == [
        ("gate/tool_selection", "major", 7),
        ("gate/tool_selection", "major", 8),
    ]
    assert len({i["fingerprint"] for i in issues}) == 2
    bad = run_cli("run", "suite.yml", "--annotations", "gihub", cwd=tmp_path)
    assert bad.code == ExitCode.USAGE
    assert "--annotations: unknown mode 'gihub'; modes are auto, off, github, gitlab" in bad.stderr


def test_workflow_commands_escape_their_fields_and_stop_at_fifty() -> None:
    tricky = Annotation("error", "a,b:c.yml", 3, 5, "name, with: colon", "50% done\r\nnext\x1b[2J", "test-assertion")
    assert github_commands([tricky]) == [
        "::error file=a%2Cb%3Ac.yml,line=3,col=5,title=name%2C with%3A colon::50%25 done%0D%0Anext\\x1b[2J"
    ]
    many = [Annotation("error", "s.yml", i, None, f"t{i}", "m", "test-error") for i in range(1, 61)]
    lines = github_commands(many)
    assert len(lines) == 51
    assert lines[49] == "::error file=s.yml,line=50,title=t50::m"
    assert lines[50] == "mcptest: 10 more annotations not shown (the first 50 are above)"
    assert json.loads(codequality(many[:1]))[0]["location"] == {"path": "s.yml", "lines": {"begin": 1}}


def test_lint_and_security_findings_are_annotated_at_their_tool_in_the_catalog(capsys, monkeypatch) -> None:
    from tests.doctor.helpers import FIXTURES, cli

    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    catalog = FIXTURES / "server-everything.json"
    lint = cli(capsys, "doctor", "--catalog", catalog, "--lint-descriptions", "--fail-on", "never")
    found = [line for line in lint.stderr.splitlines() if line.startswith("::")]
    echo = place(catalog, '"name": "echo"', '"name"')
    assert found[0] == (
        f"::warning file={catalog},line={echo[0]},col={echo[1]},title=SCH-002 echo::echo: inputSchema: "
        "additionalProperties is not false (Add additionalProperties: false.)"
    )
    annotated = {(a["title"].split()[1], int(a["line"])) for a in map(_props, found)}
    assert annotated == {(tool, place(catalog, f'"name": "{tool}"', '"name"')[0]) for tool, _ in annotated}
    assert len(annotated) > 3
    poisoned = ROOT / "tests" / "security" / "labelled" / "poisoned" / "invariant-tool-poisoning.json"
    scan = cli(capsys, "security", "--catalog", poisoned, "--annotations", "github")
    (hit, *_) = [_props(line) for line in scan.stderr.splitlines() if line.startswith("::error ")]
    tool = hit["title"].split("'")[1]
    assert hit["title"].startswith("SEC-") and hit["file"] == str(poisoned)
    assert int(hit["line"]) == place(poisoned, f'"name": "{tool}"', '"name"')[0]
    quiet = cli(capsys, "security", "--catalog", poisoned, "--annotations", "off")
    assert "::" not in quiet.stderr


def _props(line: str) -> dict[str, str]:
    props = line.split(" ", 1)[1].split("::", 1)[0]
    return dict(p.split("=", 1) for p in props.split(","))


def test_a_live_servers_finding_is_placed_at_its_server_key_in_the_suite(write) -> None:
    from mcptest.report.annotations import place_in

    suite = write("suite.yml", "servers:\n  other: { command: [x] }\n  weather:\n    command: [y]\n")
    assert place_in(str(suite), "weather", "name", "get_weather") == (3, 3)
    assert place_in(str(suite.with_name("gone.json")), "weather", "name", "get_weather") == (1, 1)


def test_a_code_quality_fingerprint_follows_the_assertion_not_the_value_it_found() -> None:
    """GitLab matches issues across pipelines by fingerprint: the same assertion failing with another value is the
    same issue, another assertion a new one, and one assertion failing twice in a test two issues."""
    from mcptest.expect.failure import AssertionFailure
    from mcptest.records.report import Report, Status, TestResult

    def run(*found: tuple[str, int]) -> list[str]:
        failures = [
            AssertionFailure(target=t, matcher="<=", expected=5, actual=v, message=f"{v} is over 5", line=4, col=9)
            for t, v in found
        ]
        result = TestResult(
            name="t", kind="tool", status=Status.FAILED, file="s.yml", line=2, duration_ms=1, failures=failures
        )
        report = Report.model_construct(results=[result], gates=[])  # the two parts annotations read
        return [i["fingerprint"] for i in json.loads(codequality(run_annotations(report)))]

    assert run(("latency.p95_ms", 7)) == run(("latency.p95_ms", 9))
    assert run(("latency.p95_ms", 7)) != run(("latency.p99_ms", 7))
    twice = run(("latency.p95_ms", 7), ("latency.p95_ms", 8))
    assert len(set(twice)) == 2 and twice[0] == run(("latency.p95_ms", 7))[0]
