"""What one `mcptest conformance` run found: each check's outcome, the counts and the tier; its JSON form
(`ConformanceJson`, `schema/conformance.v1.json`), and the run as a test-run Report for the JUnit, Markdown and
HTML reporters (`as_run_report`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from mcptest.checks.conformance.messages import SCHEMA_VERSIONS
from mcptest.checks.conformance.rules import BY_ID, KNOWN_VERSIONS
from mcptest.records.coverage import ServerCoverage

if TYPE_CHECKING:
    from mcptest.records.report import Report, TestResult

FAIL_ON = ("must", "should")
Status = Literal["pass", "fail", "skip", "expected", "stale"]
Tier = Literal["MUST failures", "all MUSTs pass", "all MUSTs and SHOULDs pass"]


@dataclass
class Outcome:
    """One check's verdict in a report."""

    id: str
    level: str
    section: str
    title: str
    status: str
    """`pass`, `fail`, `skip`, `expected` (a failure the baseline lists) or `stale` (a listed check that passed)."""
    message: str = ""
    evidence: str = ""

    @property
    def warning(self) -> bool:
        """A failed SHOULD: a warning unless `--fail-on should`."""
        return self.status == "fail" and self.level == "SHOULD"


@dataclass
class ConformanceReport:
    """What one run found on one server."""

    server: str
    transport: str
    offered_version: str
    protocol_version: str | None
    server_info: dict[str, Any]
    outcomes: list[Outcome]
    duration_s: float
    notes: list[str] = field(default_factory=list)
    stderr: str = ""
    others: list[ConformanceReport] = field(default_factory=list)
    """The other protocol versions checked in the same run (each its own report; none of their own `others`)."""
    coverage: ServerCoverage | None = None
    """What a standalone run's probes reached of the server (`run.conformance.count`); None in a suite's block,
    whose probes count in the run's coverage section."""

    @property
    def spoken(self) -> bool:
        """The server negotiated the version offered (an older version's run stops at once when it did not)."""
        return self.protocol_version == self.offered_version

    def every_version(self) -> list[ConformanceReport]:
        """This report, then the other versions' (newest first)."""
        return [self, *self.others]

    @property
    def spec_version(self) -> str:
        """The version whose text the checks judged by (and their spec links point at): the negotiated one when it is
        a protocol version, else the one offered."""
        answered = self.protocol_version
        return answered if answered is not None and answered in KNOWN_VERSIONS else self.offered_version

    def url(self, check_id: str) -> str:
        """The check's spec section in the text of the version tested."""
        return BY_ID[check_id].url(self.spec_version)

    def counts(self) -> dict[str, int]:
        keys = ("pass", "fail", "warn", "skip", "expected", "stale")
        out = dict.fromkeys(keys, 0)
        for o in self.outcomes:
            out["warn" if o.warning else o.status] += 1
        return out

    def tier(self) -> Tier:
        """`all MUSTs and SHOULDs pass` ⊃ `all MUSTs pass` ⊃ `MUST failures`."""
        failing = {o.level for o in self.outcomes if o.status in ("fail", "stale")}
        if "MUST" in failing:
            return "MUST failures"
        return "all MUSTs pass" if "SHOULD" in failing else "all MUSTs and SHOULDs pass"

    def failed(self, fail_on: str = "must") -> bool:
        """A failure at `fail_on` (or a stale baseline entry) under any version checked."""
        levels = ("MUST", "SHOULD") if fail_on == "should" else ("MUST",)
        return any(
            o.status == "stale" or (o.status == "fail" and o.level in levels)
            for report in self.every_version()
            for o in report.outcomes
        )

    def _checks(self) -> list[CheckJson]:
        return [
            CheckJson(
                id=o.id,
                level=o.level,  # type: ignore[arg-type]
                section=self.url(o.id),
                title=o.title,
                status=o.status,  # type: ignore[arg-type]
                message=o.message,
                evidence=o.evidence,
            )
            for o in self.outcomes
        ]

    def to_json(self, fail_on: str = "must") -> dict[str, Any]:
        """The `--json` form, built through its model so it always matches `schema/conformance.v1.json`."""
        others = [
            VersionJson(
                offered_version=r.offered_version,
                protocol_version=r.protocol_version,
                spoken=r.spoken,
                ok=not r.failed(fail_on),
                tier=r.tier() if r.spoken else None,
                counts=Counts.model_validate(r.counts()),
                duration_s=round(r.duration_s, 3),
                notes=r.notes,
                checks=r._checks(),
            )
            for r in self.others
        ]
        model = ConformanceJson(
            ok=not self.failed(fail_on),
            fail_on=fail_on,  # type: ignore[arg-type]
            server=self.server,
            transport=self.transport,  # type: ignore[arg-type]
            offered_version=self.offered_version,
            protocol_version=self.protocol_version,
            schema_versions=list(SCHEMA_VERSIONS),
            server_info=self.server_info,
            tier=self.tier(),
            counts=Counts.model_validate(self.counts()),
            duration_s=round(self.duration_s, 3),
            notes=self.notes,
            checks=self._checks(),
            other_versions=others,
            coverage=self.coverage,
        )
        return model.model_dump(mode="json", by_alias=True, exclude={"coverage"} if self.coverage is None else None)


class CheckJson(BaseModel):
    """One check's verdict."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(description="The check's stable id (docs/conformance.md lists them).")
    level: Literal["MUST", "SHOULD"] = Field(description="A failed MUST fails the run; a failed SHOULD warns.")
    section: str = Field(
        description="The URL of the specification section the check comes from, in the text of the protocol version "
        "tested (the negotiated one, else the one offered)."
    )
    title: str = Field(description="What the check verifies, in one line.")
    status: Status = Field(
        description="`pass`, `fail`, `skip` (capability or fixture absent: `message` says why), `expected` (a "
        "failure the baseline lists) or `stale` (listed in the baseline, but passes)."
    )
    message: str = Field("", description="Why it failed or was skipped.")
    evidence: str = Field("", description="On a failure: the messages sent and received, one per line.")


class Counts(BaseModel):
    """The checks by outcome (`warn`: failed SHOULDs, not counted in `fail`)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    passed: int = Field(alias="pass")
    fail: int
    warn: int
    skip: int
    expected: int
    stale: int


class VersionJson(BaseModel):
    """Another protocol version checked in the same run, with its own verdicts."""

    model_config = ConfigDict(extra="forbid")

    offered_version: str = Field(description="The protocol version offered in this connection's `initialize`.")
    protocol_version: str | None = Field(description="The version the server answered (null: no valid answer).")
    spoken: bool = Field(
        description="The server negotiated the version offered; when false, no check ran under it (`checks` is empty)."
    )
    ok: bool = Field(description="No failure at `fail_on` and no stale baseline entry under this version.")
    tier: Tier | None = Field(description="This version's tier (null when the server does not speak it).")
    counts: Counts
    duration_s: float
    notes: list[str]
    checks: list[CheckJson]


class ConformanceJson(BaseModel):
    """The `mcptest conformance --json` report: one server, one transport; its checks are those of the newest version
    offered (or the one `--protocol-version` names), the other versions checked in the same run follow in
    `other_versions`."""

    model_config = ConfigDict(extra="forbid")

    format_version: Literal[1] = Field(1, description="The version of this format.")
    ok: bool = Field(description="No failure at `fail_on` and no stale baseline entry (exit 0).")
    fail_on: Literal["must", "should"]
    server: str = Field(description="The server's name (the suite's key, or `command`/`url`).")
    transport: Literal["stdio", "http", "sse"] = Field(
        description="`stdio`, `http` (Streamable HTTP) or `sse` (the legacy HTTP+SSE transport)."
    )
    offered_version: str = Field(
        description="The protocol version mcptest offered (in `initialize`; for 2026-07-28 in every request's `_meta`)."
    )
    protocol_version: str | None = Field(description="The version the server answered (null: no valid answer).")
    schema_versions: list[str] = Field(description="The protocol versions whose official JSON Schema ships.")
    server_info: dict[str, Any] = Field(
        description="The server's `serverInfo` (2026-07-28: `server/discover`'s `_meta` serverInfo), as it sent it."
    )
    tier: Tier
    counts: Counts
    duration_s: float = Field(description="Wall time of the run, server start-up included.")
    notes: list[str] = Field(description="What limited the run (e.g. OAuth not applied).")
    checks: list[CheckJson]
    other_versions: list[VersionJson] = Field(
        default_factory=list,
        description="The other protocol versions checked in the same run (every version mcptest ships unless "
        "`--protocol-version` names one), newest first; `ok` above covers them too.",
    )
    coverage: ServerCoverage | None = Field(
        None,
        description="What the run's probes reached of the server's catalog, as `mcptest run`'s coverage section "
        "counts a `conformance:` block: the listings, and each read-only tool call, refusal probe, resource read "
        "and prompt rendering the server answered with a result (probes of names it does not list count for "
        "nothing); the newest version's connection only.",
    )


def as_run_report(report: ConformanceReport, file: str, fail_on: str = "must") -> Report:
    """The run as a test-run Report for the run reporters (JUnit, Markdown, HTML): one row per check (`kind`
    `conformance`, named by its id). A failed MUST is a failure; a failed SHOULD (unless `fail_on` is `should`) and
    a failure the baseline lists are failures that do not fail the run (the rows' `quarantined` reason says why); a
    stale baseline entry is a failure; a skipped check is skipped (its reason is in the conformance report only: a
    run row has no field for it)."""
    from mcptest.records.report import finished_report

    rows: list[TestResult] = []
    for version in report.every_version():
        rows += _rows(version, file, fail_on, "" if version is report else f" ({version.offered_version})")
    coverage = None
    if report.coverage is not None:
        from mcptest.records.coverage import Coverage

        coverage = Coverage(servers=[report.coverage], counted=len(rows))
    return finished_report(file, report.duration_s, rows, coverage=coverage)


def _rows(report: ConformanceReport, file: str, fail_on: str, suffix: str) -> list[TestResult]:
    """One version's checks as run rows (named `<id><suffix>`)."""
    from mcptest.expect.failure import AssertionFailure
    from mcptest.records.report import Status, TestResult

    rows: list[TestResult] = []
    per_check = report.duration_s * 1000 / max(len(report.outcomes), 1)
    for o in report.outcomes:
        excused = None
        if o.status == "expected":
            excused = "listed in the expected failures (--expected-failures)"
        elif o.warning and fail_on != "should":
            excused = "a SHOULD: a warning unless --fail-on should"
        failures = []
        if o.status in ("fail", "expected", "stale"):
            text = f"{o.message} ({o.level}; {report.url(o.id)})"
            failures.append(
                AssertionFailure(
                    target=o.id,
                    matcher="conformance",
                    expected=o.title,
                    actual=o.status,
                    message=text + (f"\n{o.evidence}" if o.evidence else ""),
                )
            )
        status = Status.SKIPPED if o.status == "skip" else Status.FAILED if failures else Status.PASSED
        rows.append(
            TestResult(
                name=o.id + suffix,
                kind="conformance",
                server=report.server,
                file=file,
                line=1,
                status=status,
                duration_ms=round(per_check, 3),
                tags=[o.level],
                failures=failures,
                quarantined=excused,
            )
        )
    return rows


def conformance_sarif(report: ConformanceReport, uri: str | None = None) -> str:
    """SARIF 2.1.0 in the shape of the lint, SEC and fuzz logs: one result per failed check (`conformance/<id>`,
    `error` for a MUST, `warning` for a SHOULD; a stale baseline entry is an error), a failure the baseline lists
    carries an external suppression; the rule's help URI is its spec section."""
    from mcptest.checks.sarif import rule_descriptor, sarif_log, sarif_result, tool_driver

    shown = [(r, o) for r in report.every_version() for o in r.outcomes if o.status in ("fail", "expected", "stale")]
    ids = list(dict.fromkeys(o.id for _, o in shown))
    index = {check_id: i for i, check_id in enumerate(ids)}
    results = []
    for r, o in shown:
        level = "error" if o.level == "MUST" or o.status == "stale" else "warning"
        where = f"{report.server} ({r.spec_version})" if report.others else report.server
        result = sarif_result(f"conformance/{o.id}", f"{where}: {o.message}", uri, None, level)
        result["ruleIndex"] = index[o.id]
        result.setdefault("locations", [{}])[0]["logicalLocations"] = [
            {"name": o.id, "fullyQualifiedName": f"{report.server}/{o.id}", "kind": "member"}
        ]
        result["properties"] = {"evidence": o.evidence, "transport": report.transport, "protocol": r.spec_version}
        if o.status == "expected":
            result["suppressions"] = [{"kind": "external", "justification": "listed in --expected-failures"}]
        results.append(result)
    rules = []
    for check_id in ids:
        check = BY_ID[check_id]
        rule = rule_descriptor(f"conformance/{check_id}", check.title, f"{check.level}: {report.url(check_id)}")
        rule["defaultConfiguration"] = {"level": "error" if check.level == "MUST" else "warning"}
        rule["helpUri"] = report.url(check_id)
        rules.append(rule)
    return sarif_log({"tool": tool_driver(rules), "results": results})
