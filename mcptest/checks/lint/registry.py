"""The rule registry: one plain tuple. Codes are stable and never reused; a retired rule keeps its code."""

from __future__ import annotations

from collections.abc import Sequence

from mcptest.checks.findings import Rule
from mcptest.checks.findings import Severity as S
from mcptest.checks.lint import annotation_rules as ann
from mcptest.checks.lint import arg_rules as arg
from mcptest.checks.lint import bound_rules as bound
from mcptest.checks.lint import constraint_rules as con
from mcptest.checks.lint import contradiction_rules as con_desc
from mcptest.checks.lint import desc_rules as desc
from mcptest.checks.lint import schema_rules as sch
from mcptest.checks.lint import server_managed as managed
from mcptest.checks.lint.text import LONG_CHARS
from mcptest.checks.registry import rule_by_code, selected_codes, with_settings

RULES: tuple[Rule, ...] = (
    Rule("DESC-001", S.CRITICAL, desc.desc_001_short_description),
    Rule("DESC-002", S.WARNING, desc.desc_002_long_description),
    Rule("DESC-003", S.CRITICAL, desc.desc_003_description_equals_name),
    Rule("DESC-004", S.WARNING, desc.desc_004_no_common_verb, pedantic=True),
    Rule("DESC-005", S.WARNING, desc.desc_005_positional_phrase),
    Rule("DESC-006", S.CRITICAL, arg.desc_006_undocumented_required_argument),
    Rule("DESC-007", S.WARNING, arg.desc_007_enum_values_not_described, pedantic=True),
    Rule("DESC-008", S.WARNING, arg.desc_008_inverted_information_density, pedantic=True),
    Rule("DESC-009", S.WARNING, arg.desc_009_missing_examples),
    Rule("DESC-010", S.WARNING, desc.desc_010_missing_return_format),
    Rule("DESC-011", S.WARNING, ann.desc_011_non_boolean_annotation),
    Rule("DESC-012", S.WARNING, ann.desc_012_missing_annotations),
    Rule("DESC-013", S.WARNING, arg.desc_013_enum_in_prose),
    Rule("DESC-014", S.CRITICAL, con_desc.desc_014_description_contradicts_schema),
    Rule("DESC-015", S.WARNING, ann.desc_015_invalid_task_support),
    Rule("DESC-016", S.WARNING, ann.desc_016_annotations_contradict_name),
    Rule("DESC-017", S.WARNING, desc.desc_017_documented_argument_absent),
    Rule("SCH-001", S.WARNING, sch.sch_001_no_required_list),
    Rule("SCH-002", S.WARNING, sch.sch_002_additional_properties_open),
    Rule("SCH-003", S.CRITICAL, sch.sch_003_untyped_property),
    Rule("SCH-004", S.WARNING, bound.sch_004_unbounded_string_or_array),
    Rule("SCH-005", S.WARNING, managed.sch_005_server_managed_field, pedantic=True),
    Rule("SCH-006", S.WARNING, con.sch_006_non_empty_array_without_min_items, pedantic=True),
    Rule("SCH-007", S.WARNING, con.sch_007_nullable_hides_constraint, pedantic=True),
    Rule("SCH-008", S.CRITICAL, sch.sch_008_unresolved_ref),
    Rule("SCH-009", S.WARNING, sch.sch_009_argument_group_not_in_schema),
    Rule("SCH-010", S.WARNING, bound.sch_010_limit_only_in_prose),
    Rule("SCH-011", S.WARNING, sch.sch_011_unreferenced_definition),
    Rule("SCH-012", S.WARNING, con.sch_012_destructive_default, pedantic=True),
    Rule("SCH-013", S.WARNING, con.sch_013_caller_marker_argument, pedantic=True),
)

DEFAULT_RULES: tuple[Rule, ...] = tuple(r for r in RULES if not r.pedantic)
"""What runs when nothing is selected: every rule but the pedantic tier."""

PASS_RULE = "PASS"
"""The rule id of the synthetic finding a clean tool gets (not a rule: nothing to select or ignore)."""


def get_rule(code: str) -> Rule:
    """The rule with this code (case-insensitive); an unknown code is a UserError with a suggestion."""
    return rule_by_code(RULES, code)


def select_rules(select: Sequence[str] = (), ignore: Sequence[str] = (), *, strict: bool = False) -> tuple[Rule, ...]:
    """The rules chosen by `--select`/`--ignore`/`--strict`: exact codes or prefixes (`DESC`, `SCH-00`).

    With no `select`, every rule of the default tier runs (and the pedantic ones too under `strict`). A pedantic
    rule joins a selection only when `strict` is set or `select` names its exact code: a prefix such as `DESC`
    picks the default-tier rules it matches (ruff's rule for its opt-in rules).
    """
    codes = _codes(select)
    chosen = [r for r in RULES if (not codes or any(_matches(r, s) for s in codes)) and _tier_allows(r, codes, strict)]
    kept = tuple(r for r in chosen if not any(_matches(r, i) for i in _codes(ignore)))
    return with_settings(kept, STRICT_SETTINGS) if strict else kept


STRICT_SETTINGS = {"long_chars": LONG_CHARS}
"""What `--strict` changes in a default-tier rule besides adding the pedantic ones: DESC-002 at document 000's
500 characters instead of 1,000."""


def selection_label(select: Sequence[str] = (), ignore: Sequence[str] = (), *, strict: bool = False) -> str:
    """How a selection reads in a report: `default`, `strict`, plus any `select`/`ignore` codes."""
    parts = ["strict" if strict else "default"]
    parts += [f"select {','.join(_codes(select))}"] if select else []
    parts += [f"ignore {','.join(_codes(ignore))}"] if ignore else []
    return "; ".join(parts)


def _tier_allows(rule: Rule, codes: list[str], strict: bool) -> bool:
    return strict or not rule.pedantic or rule.code in codes


def configure(rules: Sequence[Rule], *, server_managed: Sequence[str] | None = None) -> tuple[Rule, ...]:
    """The rules with their settings applied (each rule receives those its function accepts); None keeps a default."""
    settings = {"server_managed": tuple(server_managed)} if server_managed is not None else {}
    return with_settings(rules, settings)


def _codes(values: Sequence[str]) -> list[str]:
    return selected_codes(RULES, values)


def _matches(rule: Rule, code: str) -> bool:
    return rule.code.startswith(code)
