"""The SEC rule registry: one plain tuple, codes stable and never reused, beside the lint rules' registry."""

from __future__ import annotations

from collections.abc import Sequence

from mcptest.checks.findings import Rule
from mcptest.checks.findings import Severity as S
from mcptest.checks.registry import rule_by_code, selected_codes, with_settings
from mcptest.checks.security import effect_rules as eff
from mcptest.checks.security import exfiltration_rules as exf
from mcptest.checks.security import injection_rules as inj
from mcptest.checks.security import unicode_rules as uni
from mcptest.checks.security.scope import Scope

SEC_RULES: tuple[Rule, ...] = (
    Rule("SEC-001", S.CRITICAL, inj.sec_001_instructions_to_the_model),
    Rule("SEC-002", S.WARNING, inj.sec_002_capability_claims),
    Rule("SEC-003", S.CRITICAL, inj.sec_003_shadowing),
    Rule("SEC-004", S.CRITICAL, exf.sec_004_exfiltration_directive),
    Rule("SEC-005", S.WARNING, exf.sec_005_address_in_description),
    Rule("SEC-006", S.CRITICAL, uni.sec_006_hidden_or_confusable_unicode),
    Rule("SEC-007", S.CRITICAL, exf.sec_007_secret_in_catalog),
    Rule("SEC-008", S.WARNING, eff.sec_008_undeclared_side_effect),
    Rule("SEC-009", S.WARNING, eff.sec_009_name_collision),
    Rule("SEC-010", S.WARNING, uni.sec_010_text_hidden_by_layout),
)


def get_sec_rule(code: str) -> Rule:
    """The SEC rule with this code (case-insensitive); an unknown code is a UserError with a suggestion."""
    return rule_by_code(SEC_RULES, code)


def select_sec_rules(select: Sequence[str] = (), ignore: Sequence[str] = ()) -> tuple[Rule, ...]:
    """The rules chosen by `--select`/`--ignore` (exact codes or prefixes such as `SEC-00`); select empty = all."""
    chosen = [r for r in SEC_RULES if not select or any(r.code.startswith(s) for s in _codes(select))]
    return tuple(r for r in chosen if not any(r.code.startswith(i) for i in _codes(ignore)))


def with_scope(rules: Sequence[Rule], scope: Scope) -> tuple[Rule, ...]:
    """The rules with the scan's scope passed to those whose function takes one (as `configure` does for lint)."""
    return with_settings(rules, {"scope": scope})


def _codes(values: Sequence[str]) -> list[str]:
    return selected_codes(SEC_RULES, values)
