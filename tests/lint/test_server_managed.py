"""The server-managed list: the default, a replacement through `configure`, and the `tool_quality:` setting."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from mcptest.checks.lint import RULES, assess, get_rule
from mcptest.checks.lint.registry import configure
from mcptest.checks.lint.server_managed import DEFAULT_SERVER_MANAGED
from mcptest.records.catalog import load_catalog
from mcptest.run.tool_quality import ToolQualityBlock, evaluate

CATALOG = load_catalog(Path(__file__).parent / "fixtures" / "model-view" / "projects.json")


def sch_005(rules=RULES) -> list[str]:
    return [f.pointer or "" for f in assess(CATALOG, rules).findings if f.rule == "SCH-005"]


def test_the_default_list_is_document_002s() -> None:
    assert DEFAULT_SERVER_MANAGED == (
        "id",
        "nano_id",
        "user_id",
        "organization_id",
        "owner_id",
        "assignee_id",
        "status_id",
    )
    assert sch_005() == ["/inputSchema/properties/owner_id", "/inputSchema/$defs/Member/properties/assignee_id"]


def test_a_configured_list_replaces_the_default_and_an_empty_one_turns_the_rule_off() -> None:
    assert sch_005(configure(RULES, server_managed=["tags", "role"])) == [
        "/inputSchema/properties/tags",
        "/inputSchema/$defs/Member/properties/role",
    ]
    assert sch_005(configure(RULES, server_managed=[])) == []
    assert configure(RULES, server_managed=None) == RULES


def test_only_rules_that_take_the_setting_receive_it() -> None:
    configured = {r.code: r.options for r in configure(RULES, server_managed=["x"])}
    assert configured.pop("SCH-005") == (("server_managed", ("x",)),)
    assert set(configured.values()) == {()}
    assert get_rule("SCH-005").options == ()


def block(**extra) -> ToolQualityBlock:
    expect = [{"target": "schema_warnings", "matcher": {"schema": {"maximum": 0}}}]
    return ToolQualityBlock.model_validate({"name": "q", "server": "s", "expect": expect} | extra)


def test_the_tool_quality_block_setting_reaches_the_rule() -> None:
    default, _ = evaluate(CATALOG, block(strict=True))  # SCH-005 is pedantic: it runs when strict or named
    renamed, _ = evaluate(CATALOG, block(strict=True, server_managed=["owner_id"]))
    off, failures = evaluate(CATALOG, block(strict=True, server_managed=[]))
    counts = [t["schema_warnings"] - off["schema_warnings"] for t in (default, renamed, off)]
    assert counts == [2, 1, 0]  # SCH-005 findings: owner_id and assignee_id; owner_id only; none
    assert [f.actual for f in failures] == [off["schema_warnings"]]


def test_the_setting_must_be_a_list_of_names() -> None:
    with pytest.raises(ValidationError, match="server_managed"):
        ToolQualityBlock.model_validate({"name": "q", "server": "s", "server_managed": "owner_id"})
