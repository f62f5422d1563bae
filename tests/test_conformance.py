"""`mcptest conformance` against a raw server (tests/servers/conformance_server.py) with one defect planted per run:
each defect is caught by the check named for it and nothing unrelated fails; the clean server passes everything."""

from __future__ import annotations

import json
import sys
import typing
from pathlib import Path
from xml.etree import ElementTree

import jsonschema
import pytest

from mcptest.checks.conformance.messages import SCHEMA_VERSIONS
from mcptest.checks.conformance.report import as_run_report
from mcptest.checks.conformance.rules import CHECKS
from mcptest.cli.conformance import print_report, render
from mcptest.run.conformance import ConformanceReport, run_conformance
from mcptest.suite.blocks.conformance import ConformanceBlock
from mcptest.suite.models import HttpServer, StdioServer
from tests.conftest import ROOT, run_cli
from tests.servers.conformance_server import DEFECTS, serve_http

SERVER = ROOT / "tests" / "servers" / "conformance_server.py"

STDIO = {
    None: set(),
    "tool-name-space": {"tools-name-format"},
    "tool-name-long": {"tools-name-format"},
    "tools-undeclared": {"capabilities-undeclared"},
    "unknown-tool-success": {"tools-unknown-tool"},
    "tool-error-as-jsonrpc": {"tools-error-in-result"},
    "invalid-args-accepted": {"tools-invalid-arguments"},
    "bad-input-schema": {"tools-input-schema"},
    "structured-mismatch": {"tools-structured-content"},
    "pagination-cycle": {"tools-pagination"},
    "ping-nonempty": {"ping"},
    "hang-ping": {"ping"},
    "stray-response": {"jsonrpc-response-ids"},
    "jsonrpc-1.0": {"jsonrpc-version"},
    # the string code breaks every error the server sends: the unknown method's and the undeclared capability's
    "error-code-string": {
        "jsonrpc-error-objects", "jsonrpc-unknown-method", "schema-messages", "capabilities-undeclared-code"
    },
    # answering every unknown method also answers completion/complete, which it never declared (with no completion)
    "unknown-method-result": {"jsonrpc-unknown-method", "capabilities-undeclared", "schema-messages"},
    "version-echo": {"lifecycle-unsupported-version"},
    "version-bogus": {"lifecycle-version"},
    "notification-answered": {"jsonrpc-notifications-unanswered"},
    "stdout-garbage": {"stdio-stdout-clean"},
    "resource-not-found-success": {"resources-not-found", "resources-not-found-code"},
    "resource-not-found-code": {"resources-not-found-code"},
    "resource-text-and-blob": {"resources-read"},
    "subscribe-error": {"resources-subscribe"},
    "prompt-bad-role": {"prompts-get", "schema-messages"},
    "prompt-unknown-success": {"prompts-unknown"},
    "setlevel-error": {"logging-set-level"},
    "missing-server-info": {"lifecycle-initialize", "schema-messages"},
    "log-level-bogus": {"schema-messages"},
    "list-changed-undeclared": {"list-changed-declared"},
    "progress-unknown-token": {"progress-tokens"},
    "progress-decreasing": {"progress-increasing"},
    "progress-after-response": {"progress-tokens"},
    "cancel-crash": {"cancellation-ignored"},
    "cancel-ignored": {"cancellation-no-response"},
    "server-request-invalid": {"schema-messages"},  # a ping from the server whose params are an array
}  # fmt: skip
HTTP = {
    None: set(),
    "session-id-non-ascii": {"http-session-id"},
    "no-session-enforcement": {"http-session-required", "http-session-deleted"},
    "no-origin-check": {"http-origin"},
    "protocol-header-ignored": {"http-protocol-version-header"},
    "content-type-text": {"http-content-type"},
    "get-200-json": {"http-get-stream"},
    "notification-answered": {"http-notification-accepted"},
    "tool-error-as-jsonrpc": {"tools-error-in-result"},
    "resume-other-stream": {"http-resume"},
    # ids restart on each stream: not unique, and a Last-Event-ID then resumes the wrong stream
    "event-ids-reused": {"http-event-ids-unique", "http-resume"},
}
MODERN_STDIO = {  # 2026-07-28: server/discover, the `_meta` envelope, resultType
    None: set(),
    "discover-versions-string": {"discover-result", "schema-messages"},
    "no-result-type": {"result-type", "schema-messages"},
    "envelope-not-required": {"meta-envelope-required"},
    "unsupported-version-served": {"version-unsupported-error"},
}
MODERN_HTTP = {
    None: set(),
    "header-mismatch-ignored": {"http-header-mismatch"},
    "unknown-method-200": {"http-unknown-method-status"},
}


def stdio(defect: str | None, timeout: float = 5.0) -> StdioServer:
    argv = [sys.executable, str(SERVER), *(["--defect", defect] if defect else [])]
    return StdioServer(command=argv, connect_timeout_s=timeout, call_timeout_s=timeout)


def failing(report: ConformanceReport) -> set[str]:
    return {o.id for o in report.outcomes if o.status == "fail"}


def test_every_planted_defect_is_tested() -> None:
    tested = {d for d in [*STDIO, *HTTP, *MODERN_STDIO, *MODERN_HTTP] if d}
    assert set(DEFECTS) == tested | {"crash-on-call", "hang-initialize"}


@pytest.mark.parametrize("defect", list(STDIO), ids=lambda d: d or "clean")
def test_a_defect_over_stdio_fails_its_check_and_nothing_else(defect: str | None) -> None:
    timeout = 1.0 if defect == "hang-ping" else 5.0
    report = run_conformance("raw", stdio(defect, timeout), ROOT, timeout)
    assert failing(report) == STDIO[defect], [(o.id, o.message) for o in report.outcomes if o.status == "fail"]
    if defect is None:  # the clean server exercises every family it declares
        passed = {o.id for o in report.outcomes if o.status == "pass"}
        assert {"tools-call-result", "tools-structured-content", "resources-subscribe", "prompts-get"} <= passed
        assert {"list-changed-declared", "progress-tokens", "progress-increasing", "cancellation-no-response"} <= passed
        assert report.tier() == "all MUSTs and SHOULDs pass"
        assert not [n for n in report.notes if "mcptest's own" in n], report.notes  # our messages fit the schema
    if defect == "hang-ping":
        (ping,) = [o for o in report.outcomes if o.id == "ping"]
        assert "no answer within 1s" in ping.message


@pytest.mark.parametrize("defect", list(HTTP), ids=lambda d: d or "clean")
def test_a_defect_over_http_fails_its_check_and_nothing_else(defect: str | None) -> None:
    served = serve_http(defect)
    try:
        report = run_conformance("raw", HttpServer(url=served.url), ROOT, 5.0)
    finally:
        served.stop()
    assert failing(report) == HTTP[defect], [(o.id, o.message) for o in report.outcomes if o.status == "fail"]
    if defect is None:
        skipped = {o.id for o in report.outcomes if o.status == "skip"}
        modern = {c.id for c in CHECKS if c.since == "2026-07-28"}  # the checks of 2026-07-28 only
        # the HTTP variant sends nothing unprompted (no list_changed, no slow fixture); a tool call with a progress
        # token is answered as an SSE stream whose events carry ids, and resumed from its first one
        assert skipped - modern == {
            "jsonrpc-notifications-unanswered", "stdio-stdout-clean", "completion-complete", "list-changed-declared",
            "cancellation-no-response", "auth-invalid-token", "auth-resource-metadata",
        }  # fmt: skip
        passed = {o.id for o in report.outcomes if o.status == "pass"}
        assert {"http-event-ids-unique", "http-resume", "progress-tokens", "progress-increasing"} <= passed


@pytest.mark.parametrize(
    ("transport", "defect"),
    [("stdio", d) for d in MODERN_STDIO] + [("http", d) for d in MODERN_HTTP],
    ids=lambda x: x or "clean",
)
def test_a_2026_07_28_defect_fails_its_check_and_nothing_else(transport: str, defect: str | None) -> None:
    """2026-07-28 has no initialize: the run opens with server/discover and stamps every request with the `_meta`
    envelope; the handshake's checks (initialize, ping, sessions, logging/setLevel, subscribe) are skipped there."""
    served = serve_http(defect) if transport == "http" else None
    try:
        config = HttpServer(url=served.url) if served else stdio(defect)
        report = run_conformance("raw", config, ROOT, 5.0, version="2026-07-28")
    finally:
        if served:
            served.stop()
    expected = (MODERN_HTTP if served else MODERN_STDIO)[defect]
    assert failing(report) == expected, [(o.id, o.message) for o in report.outcomes if o.status == "fail"]
    assert report.protocol_version == "2026-07-28" and report.server_info["name"] == "conformance-server"
    if defect is None:
        outcomes = {o.id: o for o in report.outcomes}
        modern = {"discover-result", "discover-server-info", "result-type", "meta-envelope-required"}
        assert all(outcomes[i].status == "pass" for i in modern | {"version-unsupported-error", "schema-messages"})
        for gone in ("lifecycle-initialize", "ping", "logging-set-level", "resources-subscribe"):
            assert outcomes[gone].message == "not in protocol 2026-07-28 (until 2025-11-25)"
        # the unknown resource's code is -32602 there, a MUST
        assert outcomes["resources-not-found-code"].status == "pass"
        assert outcomes["resources-not-found-code"].level == "MUST"
        if served:
            assert {i for i in outcomes if i.startswith("http-") and outcomes[i].status == "pass"} == {
                "http-content-type", "http-origin", "http-header-mismatch", "http-unknown-method-status",
                "http-get-not-allowed", "http-no-session-id",
            }  # fmt: skip
        else:
            assert outcomes["cancellation-no-response"].status == "pass"  # notifications/cancelled, stdio only
        assert report.tier() == "all MUSTs and SHOULDs pass"
        assert not [n for n in report.notes if "mcptest's own" in n], report.notes  # our envelope fits the schema
        assert report.url("progress-tokens").startswith(
            "https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/progress"
        )


def test_a_server_of_2026_07_28_alone_is_checked_under_it_and_the_handshake_versions_are_said_not_spoken() -> None:
    """A server that refuses initialize (-32022, naming 2026-07-28) but answers server/discover leads the report with
    2026-07-28; the handshake versions carry a note and no checks, so nothing fails for the handshake it lacks."""
    config = StdioServer(command=[sys.executable, str(SERVER), "--modern-only"], call_timeout_s=5.0)
    report = run_conformance("raw", config, ROOT, 5.0, version=None)
    assert [r.offered_version for r in report.every_version()] == ["2026-07-28", "2025-11-25", "2025-06-18"]
    assert report.spoken and not failing(report) and not report.failed("should")
    for older in report.others:
        assert not older.spoken and older.outcomes == [], older.notes
    assert "initialize got no result, and the server speaks 2026-07-28" in report.others[0].notes[0]


def test_an_oauth_server_of_a_suite_is_checked_with_its_token_and_its_auth_rules(tmp_path: Path) -> None:
    """`--suite S --server NAME` with OAuth client credentials: the SDK's provider fetches the token (and fetches it
    again when refused: tests/surface/test_auth.py shows that); a token it never issued gets 401 with
    WWW-Authenticate, and its Protected Resource Metadata is found where the 401 points. A server without one fails
    that check."""
    from mcptest.checks.conformance.exchange import Exchange, Transcript
    from mcptest.checks.conformance.rules import resource_metadata
    from tests.conftest import free_port
    from tests.servers.auth_server import CLIENT_ID, CLIENT_SECRET
    from tests.surface.servers import listening

    port = free_port()
    suite = tmp_path / "suite.yml"
    suite.write_text(
        f"servers:\n  oauth:\n    url: http://127.0.0.1:{port}/mcp\n    auth:\n      oauth:\n"
        f"        client_credentials:\n          token_url: http://127.0.0.1:{port}/token\n"
        f"          client_id: {CLIENT_ID}\n          client_secret_env: CLIENT_SECRET\n          scope: mcp\n"
    )
    command = [sys.executable, "-m", "tests.servers.auth_server", str(port)]
    with listening(command, "running on", {"MCPTEST_PRM": "1", "MCPTEST_USES_PER_TOKEN": "100"}):
        ran = run_cli("conformance", str(suite), "--server", "oauth", "--protocol-version", "2026-07-28", "--json",
                      env={"CLIENT_SECRET": CLIENT_SECRET}, timeout=120)  # fmt: skip
    assert ran.code == 0, ran.stdout + ran.stderr
    data = json.loads(ran.stdout)
    # this server is the SDK's (mcp 2.3.0) behind the auth layer: no failure under 2026-07-28 over Streamable HTTP
    checks = {c["id"]: c["status"] for c in data["checks"]}
    assert data["protocol_version"] == "2026-07-28" and "fail" not in checks.values(), data["checks"]
    assert checks["auth-invalid-token"] == checks["auth-resource-metadata"] == checks["tools-list"] == "pass"
    assert checks["discover-result"] == checks["http-header-mismatch"] == checks["http-no-session-id"] == "pass"
    assert CLIENT_SECRET not in ran.stdout + ran.stderr

    t = Transcript("http", "2025-11-25", auth="oauth")
    t.exchanges["auth:invalid-token"] = Exchange(sent=None, http_method="POST", status=401)
    t.exchanges["auth:metadata:0"] = Exchange(sent=None, http_method="GET", status=404)
    assert resource_metadata(t).status == "fail"
    t.exchanges["auth:metadata:1"] = Exchange(sent=None, http_method="GET", status=200, received={"resource": "x"})
    assert "authorization_servers" in resource_metadata(t).message


def test_the_sdk_server_under_2026_07_28_over_stdio() -> None:
    """The official Python SDK (mcp 2.3.0) speaks 2026-07-28: no false failure over stdio (over Streamable HTTP the
    OAuth test above runs the same server under every version)."""
    from tests.conftest import demo_command

    report = run_conformance("sdk", StdioServer(command=demo_command()), ROOT, 30.0, version="2026-07-28")
    assert report.protocol_version == "2026-07-28" and report.server_info["name"] == "demo-server"
    assert failing(report) == set() and report.tier() == "all MUSTs and SHOULDs pass", [
        (o.id, o.message) for o in report.outcomes if o.status == "fail"
    ]
    assert {o.id for o in report.outcomes if o.status == "pass"} >= {"discover-result", "version-unsupported-error"}


@pytest.mark.parametrize("defect", [None, "notification-answered"], ids=lambda d: d or "clean")
def test_the_legacy_sse_transport_under_every_version(defect: str | None) -> None:
    """Legacy HTTP+SSE: answers come on the GET's event stream, as over stdio, so the stdio-side checks (progress,
    cancellation, unanswered notifications) run there too; the clean server passes everything under both versions.
    (The benchmark runs the SDK server and server-everything over SSE: no failure there either.)"""
    served = serve_http(defect)
    try:
        report = run_conformance("raw", HttpServer(url=served.sse_url, transport="sse"), ROOT, 5.0, version=None)
    finally:
        served.stop()
    assert [r.offered_version for r in report.every_version()] == ["2025-11-25", "2025-06-18"]
    expected = {"jsonrpc-notifications-unanswered"} if defect else set()
    for version in report.every_version():
        assert version.transport == "sse" and version.spoken, version.notes
        assert failing(version) == expected, [(o.id, o.message) for o in version.outcomes if o.status == "fail"]
        skipped = {o.id for o in version.outcomes if o.status == "skip"}
        assert {o.id for o in version.outcomes if o.id.startswith("http-")} | {"stdio-stdout-clean"} <= skipped
    if defect is None:
        passed = {o.id for o in report.outcomes if o.status == "pass"}
        assert {"progress-tokens", "cancellation-no-response", "list-changed-declared", "tools-call-result"} <= passed
        assert report.tier() == "all MUSTs and SHOULDs pass"


def test_a_failure_shows_what_was_sent_and_received() -> None:
    report = run_conformance("raw", stdio("unknown-tool-success"), ROOT, 5.0)
    (outcome,) = [o for o in report.outcomes if o.id == "tools-unknown-tool"]
    assert '"method": "tools/call"' in outcome.evidence and '"text": "ok"' in outcome.evidence
    assert outcome.level == "MUST" and report.failed()


def test_a_server_that_crashes_mid_run_fails_the_remaining_checks_with_its_exit_code() -> None:
    report = run_conformance("raw", stdio("crash-on-call"), ROOT, 5.0)
    exited = [o for o in report.outcomes if "server exited (code 3)" in o.message]
    assert {"tools-call-result", "tools-unknown-tool", "resources-list", "prompts-list"} <= {o.id for o in exited}
    assert {o.id for o in report.outcomes if o.status == "pass"} >= {"lifecycle-initialize", "ping", "tools-list"}


def test_should_failures_warn_unless_fail_on_should(capsys: pytest.CaptureFixture[str]) -> None:
    report = run_conformance("raw", stdio("tool-name-long"), ROOT, 5.0)
    assert not report.failed("must") and report.failed("should")
    assert report.counts()["warn"] == 1 and report.tier() == "all MUSTs pass"
    # A standalone run measures what its probes reached, by the rules a suite's `conformance:` block counts with
    assert report.coverage is not None
    figures = {name: (f.covered, f.total) for name, f in report.coverage.figures.items()}
    assert (figures["tools"], figures["tools_failing"], figures["resources"]) == ((3, 3), (2, 3), (1, 2)), figures
    assert (figures["templates"], figures["prompts"]) == ((0, 1), (1, 2)), figures
    print_report(report, False, True)
    assert capsys.readouterr().out.splitlines()[-1] == (
        "coverage: tools 100% (3/3), tools succeeding 67% (2/3), tools failing 67% (2/3), arguments 100% (3/3), "
        "required arguments 100% (3/3), resources 50% (1/2), templates 0% (0/1), prompts 50% (1/2)"
    )
    assert "### Coverage" in render(report, "md", None, "must") and "`demo://item/{id}`" in render(
        report, "md", None, "must"
    )

    # the run reporters see one row per check: the SHOULD is a failure that fails the run only under --fail-on should
    run = as_run_report(report, "mcptest conformance", "must")
    assert len(run.results) == len(CHECKS) and run.summary.ok and run.summary.quarantined == 1
    assert not as_run_report(report, "mcptest conformance", "should").summary.ok
    cases = {c.get("name"): c for c in ElementTree.fromstring(render(report, "junit", None, "must")).iter("testcase")}
    assert cases.keys() == {c.id for c in CHECKS}
    assert cases["tools-name-format"].find("failure") is not None and cases["ping"].find("failure") is None
    assert cases["logging-set-level"].find("failure") is None  # a passed check: the clean server declares logging
    sarif = json.loads(render(report, "sarif", None, "must"))["runs"][0]
    assert [(r["ruleId"], r["level"]) for r in sarif["results"]] == [("conformance/tools-name-format", "warning")]


def test_an_older_protocol_version_is_offered_checked_against_its_schema_and_its_own_rules() -> None:
    """2025-06-18 has no tool-name rule (it came in 2025-11-25): a name with a space is skipped there, not warned."""
    report = run_conformance("raw", stdio("tool-name-space"), ROOT, 5.0, version="2025-06-18")
    assert report.protocol_version == report.offered_version == "2025-06-18"
    (names,) = [o for o in report.outcomes if o.id == "tools-name-format"]
    assert names.status == "skip" and names.message == "not in protocol 2025-06-18 (since 2025-11-25)"
    assert not failing(report) and report.tier() == "all MUSTs and SHOULDs pass"
    # the spec links point at the text of the version tested, not the newest
    sections = {c["id"]: c["section"] for c in report.to_json()["checks"]}
    assert sections["ping"] == "https://modelcontextprotocol.io/specification/2025-06-18/basic/utilities/ping"
    assert all("/2025-06-18/" in url for url in sections.values())


def test_an_older_version_the_server_does_not_speak_is_said_so_and_not_checked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Offered 2025-06-18, this server answers "2.0": that version's run stops after initialize with a note, and
    only the newest handshake version's checks (which fail lifecycle-version) decide the run; 2026-07-28, which
    has no initialize, is spoken and clean."""
    from mcptest.cli.conformance import _print_version

    report = run_conformance("raw", stdio("version-bogus"), ROOT, 5.0, version=None)
    (modern, older) = report.others
    assert modern.spoken and modern.offered_version == "2026-07-28" and not failing(modern)
    assert not older.spoken and older.outcomes == [] and not older.failed()
    assert older.notes == ["offered 2025-06-18, the server answered 2.0: it does not speak 2025-06-18"]
    assert failing(report) == {"lifecycle-version"} and report.failed()
    data = report.to_json()
    jsonschema.Draft202012Validator(json.loads((ROOT / "schema" / "conformance.v1.json").read_text())).validate(data)
    assert data["other_versions"][1]["spoken"] is False and data["other_versions"][1]["tier"] is None
    assert len(as_run_report(report, "x").results) == 2 * len(CHECKS)  # no rows for a version not spoken
    # the header names the schema the messages were validated against (the one offered), not the bogus version
    _print_version(report, False, True)
    assert "protocol 2.0 (offered 2025-11-25; schema 2025-11-25)" in capsys.readouterr().out


def test_mcptests_own_messages_are_validated_against_the_schema() -> None:
    """What mcptest sends is checked too (the clean runs assert no such note): a malformed one is named."""
    from mcptest.checks.conformance.messages import client_problems

    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "echo", "arguments": {}}}
    assert client_problems("2025-11-25", call) == []
    assert client_problems("2025-11-25", {**call, "params": {"name": 5}})  # a name that is no string
    cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 3, "reason": "x"}}
    assert client_problems("2025-06-18", cancel) == []
    assert client_problems("2025-06-18", {**cancel, "params": {"requestId": [3]}})
    assert client_problems("2025-11-25", {"jsonrpc": "2.0", "id": "s", "method": "mcptest/no-such-method"}) == []


def test_every_check_has_a_level_and_a_spec_section() -> None:
    assert len({c.id for c in CHECKS}) == len(CHECKS)
    for check in CHECKS:
        assert check.level in ("MUST", "SHOULD") and check.section and check.title


def test_a_baseline_passes_listed_failures_and_fails_stale_entries() -> None:
    config = stdio("unknown-tool-success")
    report = run_conformance("raw", config, ROOT, 5.0, frozenset({"tools-unknown-tool"}))
    assert not report.failed() and report.counts()["expected"] == 1
    report = run_conformance("raw", config, ROOT, 5.0, frozenset({"tools-unknown-tool", "ping"}))
    (stale,) = [o for o in report.outcomes if o.status == "stale"]
    assert stale.id == "ping" and "remove it from the baseline" in stale.message and report.failed()

    # SARIF: the listed failure is suppressed, the stale entry is an error; Markdown names both
    results = {r["ruleId"]: r for r in json.loads(render(report, "sarif", None, "must"))["runs"][0]["results"]}
    assert results.keys() == {"conformance/tools-unknown-tool", "conformance/ping"}
    assert results["conformance/tools-unknown-tool"]["suppressions"][0]["kind"] == "external"
    assert results["conformance/ping"]["level"] == "error" and "suppressions" not in results["conformance/ping"]
    markdown = render(report, "md", None, "must")
    assert "**FAIL**" in markdown and "remove it from the baseline" in markdown and "tools-unknown-tool" in markdown


def test_cli_json_exit_1_on_a_must_failure_and_a_bad_baseline_is_exit_2(tmp_path: Path) -> None:
    command = f"{sys.executable} {SERVER} --defect unknown-tool-success"
    ran = run_cli("conformance", "--command", command, "--json")
    assert ran.code == 1, ran.stderr
    data = json.loads(ran.stdout)
    schema = json.loads((ROOT / "schema" / "conformance.v1.json").read_text())
    jsonschema.Draft202012Validator(schema).validate(data)
    assert data["format_version"] == 1 and data["ok"] is False and data["protocol_version"] == "2025-11-25"
    # the probe of an unknown tool, answered "ok", is no tool of the server: the figures are over the catalog listed
    figures = {name: (f["covered"], f["total"]) for name, f in data["coverage"]["figures"].items()}
    assert (data["coverage"]["server"], figures["tools"], figures["prompts"]) == ("command", (3, 3), (1, 2))
    assert data["coverage"]["unlisted"] == []
    assert data["tier"] == "MUST failures"
    assert {c["id"] for c in data["checks"] if c["status"] == "fail"} == {"tools-unknown-tool"}
    # without --protocol-version every shipped version is checked in the same run, each with its own verdicts
    (modern, older) = data["other_versions"]
    assert modern["offered_version"] == modern["protocol_version"] == "2026-07-28" and modern["spoken"]
    assert {c["id"] for c in modern["checks"] if c["status"] == "fail"} == {"tools-unknown-tool"}
    assert older["offered_version"] == older["protocol_version"] == "2025-06-18" and older["spoken"]
    assert {c["id"] for c in older["checks"] if c["status"] == "fail"} == {"tools-unknown-tool"}
    assert all("/specification/2025-06-18/" in c["section"] for c in older["checks"])
    assert not older["ok"] and older["tier"] == "MUST failures"

    baseline = tmp_path / "known.yml"
    baseline.write_text("- ping\n- tools-unknown-tol\n")
    ran = run_cli("conformance", "--command", command, "--expected-failures", str(baseline))
    assert ran.code == 2 and f"{baseline}:2:3: no conformance check 'tools-unknown-tol'" in ran.stderr, ran.stderr
    assert "tools-unknown-tool" in ran.stderr and "Traceback" not in ran.stderr

    ran = run_cli("conformance", "--command", command, "--protocol-version", "2024-11-05")
    shown = "--protocol-version: mcptest checks 2025-06-18, 2025-11-25, 2026-07-28"
    assert ran.code == 2 and shown in ran.stderr, ran.stderr


def test_a_server_that_never_answers_initialize_is_exit_3_not_a_traceback() -> None:
    ran = run_cli("conformance", "--command", f"{sys.executable} {SERVER} --defect hang-initialize", "--timeout", "1")
    assert ran.code == 3 and "no answer within 1s" in ran.stderr and "Traceback" not in ran.stderr, ran.stderr


def test_an_unreachable_server_is_exit_3_with_the_reason() -> None:
    ran = run_cli("conformance", "--command", "no-such-mcp-server-binary")
    assert ran.code == 3 and "command not found: no-such-mcp-server-binary" in ran.stderr, ran.stderr
    ran = run_cli("conformance", "--url", "http://127.0.0.1:9/mcp", "--timeout", "3")
    assert ran.code == 3 and "Connect" in ran.stderr and "Traceback" not in ran.stderr, ran.stderr


def _block_suite(tmp_path: Path, blocks: str) -> Path:
    suite = tmp_path / "suite.yml"
    suite.write_text(
        "version: 1\nservers:\n"
        f"  broken:\n    command: [{json.dumps(sys.executable)}, {json.dumps(str(SERVER))}, "
        "--defect, unknown-tool-success]\n"
        f"conformance:\n{blocks}"
    )
    return suite


def test_a_conformance_block_joins_its_failed_checks_to_the_run_report(tmp_path: Path) -> None:
    blocks = (
        "  - {name: broken speaks MCP, server: broken}\n"
        "  - {name: broken with its baseline, server: broken, expected_failures: [tools-unknown-tool],"
        " protocol_version: '2026-07-28'}\n"
    )
    ran = run_cli("run", str(_block_suite(tmp_path, blocks)), "--reporter", "json", "--no-history")
    assert ran.code == 1, ran.stderr
    rows = {r["name"]: r for r in json.loads(ran.stdout)["results"]}
    broken, baseline = rows["broken speaks MCP"], rows["broken with its baseline"]
    assert broken["kind"] == "conformance" and broken["status"] == "failed" and broken["line"] == 6
    # every version the server speaks is checked, as by the CLI: the same defect fails under each, named per version
    targets = [f["target"] for f in broken["failures"]]
    assert targets == ["tools-unknown-tool", "tools-unknown-tool (2026-07-28)", "tools-unknown-tool (2025-06-18)"]
    failure = broken["failures"][1]
    assert "under protocol 2026-07-28" in failure["message"] and '"name": "mcptest_no_such_tool"' in failure["message"]
    assert broken["targets"]["checks.fail"] == 3 and broken["targets"]["checks.2026-07-28.fail"] == 1
    assert baseline["status"] == "passed" and baseline["targets"]["checks.expected"] == 1
    assert baseline["targets"]["checks.2026-07-28.expected"] == 1
    assert "checks.2025-11-25.pass" not in baseline["targets"]  # the one version it names
    # What the probes reached counts toward the run's coverage, over the catalog they listed: the read-only tools
    # called (echo also refused for its missing argument, the error fixture failing), the first resource read,
    # the prompt without arguments rendered; the probe of an unknown tool, answered "ok", is no tool of the server.
    (cov,) = json.loads(ran.stdout)["coverage"]["servers"]
    figures = {name: (f["covered"], f["total"]) for name, f in cov["figures"].items()}
    assert (cov["server"], figures["tools"], figures["tools_failing"]) == ("broken", (3, 3), (2, 3)), figures
    assert (figures["resources"], figures["templates"], figures["prompts"]) == ((1, 2), (0, 1), (1, 2)), figures
    assert cov["tools"]["get_sum"]["arguments"]["a"]["supplied"] and cov["unlisted"] == []
    assert cov["prompts"]["greet"]["without_arguments"] and not cov["prompts"]["summarize"]["with_arguments"]


def test_a_conformance_block_names_unknown_servers_versions_and_check_ids(tmp_path: Path) -> None:
    from mcptest.core.errors import UserError
    from mcptest.suite.loader import load_suite

    blocks = "  - name: x\n    server: brokn\n    protocol_version: '2024-11-05'\n    expected_failures: [http-orgin]\n"
    suite = _block_suite(tmp_path, blocks)
    with pytest.raises(UserError) as raised:
        load_suite(suite)
    shown = [f"{p.line}:{p.col}: {p.message}" for p in raised.value.problems]
    assert any(s.startswith("7:13:") and "unknown server 'brokn' (did you mean 'broken'?)" in s for s in shown)
    assert any(s.startswith("8:23:") and "'2025-06-18', '2025-11-25' or '2026-07-28'" in s for s in shown), shown
    assert any(s.startswith("9:25:") and "no conformance check 'http-orgin' (did you mean" in s for s in shown)
    # the versions a block may name are the versions whose schemas ship
    annotation = ConformanceBlock.model_fields["protocol_version"].annotation
    (named, none) = typing.get_args(annotation)  # one of them, or None: every version the server speaks
    assert typing.get_args(named) == SCHEMA_VERSIONS and none is type(None)
