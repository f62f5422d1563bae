"""What each served tool returns: Pydantic models, so the SDK publishes each one's JSON Schema as the tool's
outputSchema and sends the value as structured content beside its JSON text."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class Problem(BaseModel):
    """One thing wrong with an input file, at its place."""

    file: str = Field(description="The file, relative to the root.")
    line: int = Field(description="1-based line (0 when the problem is the whole file or the call).")
    col: int = Field(description="1-based column (0 when unknown).")
    message: str = Field(description="What is wrong, and the fix.")
    text: str = Field(description="The problem as one `file:line:col: message` line.")


class Validation(BaseModel):
    """The result of validate_suite."""

    ok: bool = Field(description="True when the suite loads with no problem.")
    suite: str = Field(description="The suite file, relative to the root.")
    counts: dict[str, int] = Field(description="How many servers, tool tests, agent tests, ... the suite holds.")
    problems: list[Problem] = Field(description="Every problem found, in file order; empty when ok.")


class ListedTest(BaseModel):
    """One selected test."""

    kind: str = Field(description="tool, resource, prompt, tool_quality, security or agent.")
    name: str = Field(description="The test's name.")
    location: str = Field(description="`file:line` where the test is defined.")


class TestList(BaseModel):
    """The result of list_tests."""

    suite: str = Field(description="The suite file, relative to the root.")
    count: int = Field(description="How many tests the filter selects.")
    tests: list[ListedTest] = Field(description="The selected tests, in run order.")


class RunOutcome(BaseModel):
    """The result of run_suite."""

    suite: str = Field(description="The suite file, relative to the root.")
    verdict: str = Field(description="PASS or FAIL.")
    exit_code: int = Field(description="The exit code `mcptest run` would return (0 pass, 1 fail, 3 not ready).")
    passed: int = Field(description="Tests that passed.")
    failed: int = Field(description="Tests that failed.")
    total: int = Field(description="Tests that ran.")
    agent_report: str = Field(
        description="The agent reporter's text: the verdict, then per failure its place, expected and received, and "
        "the command that re-runs it."
    )
    report: dict[str, Any] = Field(
        description="The JSON report (schema/report.v2.json), as `-r json` writes it; empty when no test ran because "
        "a pinned catalog changed."
    )
    pins_changed: list[str] = Field(
        default_factory=list,
        description="Servers whose catalog no longer matches mcptest.lock (then no test ran, as with `mcptest run`): "
        "review the change, then `mcptest pin --update`.",
    )


class LintOutcome(BaseModel):
    """The result of lint_server."""

    ok: bool = Field(description="True when no finding reaches fail_on and every server answered.")
    fail_on: str = Field(description="The severity that fails: critical, warning or never.")
    checks: list[dict[str, Any]] = Field(description="Doctor's checks of each source: start-up, handshake, listing.")
    findings: list[dict[str, Any]] = Field(
        description="Every DESC/SCH finding: source, tool, rule, severity, message, pointer, suggestion."
    )
    lint: list[dict[str, Any]] = Field(description="Per source, the whole lint report (scores, tokens, findings).")


class ScanOutcome(BaseModel):
    """The result of security_scan."""

    ok: bool = Field(description="True when no finding reaches fail_on.")
    fail_on: str = Field(description="The severity that fails: critical, warning or never.")
    critical: int = Field(description="Critical findings.")
    warning: int = Field(description="Warning findings.")
    findings: list[dict[str, Any]] = Field(description="Every SEC finding: source, server, kind, name, rule, ...")
    problems: list[str] = Field(description="Entries that break the MCP schema (scanned anyway when readable).")


class DiffOutcome(BaseModel):
    """The result of diff_catalogs."""

    ok: bool = Field(description="True when no change reaches fail_on.")
    fail_on: str = Field(description="The impact that fails: breaking, risky or never.")
    worst: str | None = Field(description="The highest impact among the changes (null when nothing changed).")
    report: dict[str, Any] = Field(description="The diff report (schema/diff.v1.json), as `mcptest diff --json`.")
    problems: list[str] = Field(description="Entries that break the MCP schema, compared anyway.")


class RuleDoc(BaseModel):
    """The result of explain_rule."""

    code: str = Field(description="The rule's stable code, e.g. DESC-009, SEC-001.")
    name: str = Field(description="The rule's short name.")
    severity: str = Field(description="critical, warning or info.")
    tier: str = Field(description="default, or pedantic (off unless selected or strict).")
    summary: str = Field(description="One line.")
    docs: str = Field(description="The rule's documentation: what it flags, why, and how to fix it.")
