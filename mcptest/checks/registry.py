"""What every rule registry does over its plain tuple of rules: find a rule by code, read `--select`/`--ignore`
codes and prefixes, and hand each rule the settings its function accepts. The lint (DESC, SCH) and the SEC scan
each keep their own tuple and call these."""

from __future__ import annotations

import inspect
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from mcptest.checks.findings import Rule
from mcptest.core.errors import did_you_mean, usage_error


def rule_by_code(rules: Sequence[Rule], code: str) -> Rule:
    """The rule with this code (case-insensitive); an unknown code is a UserError with a suggestion."""
    by_code = {r.code: r for r in rules}
    found = by_code.get(code.strip().upper())
    if found is None:
        raise usage_error(f"unknown rule {code!r}{did_you_mean(code.upper(), list(by_code))}")
    return found


def selected_codes(rules: Sequence[Rule], values: Sequence[str]) -> list[str]:
    """The codes and prefixes of `--select`/`--ignore` values (comma lists allowed), upper-cased; one that names no
    rule is a UserError with a suggestion."""
    codes = [c.strip().upper() for v in values for c in v.split(",") if c.strip()]
    for code in codes:
        if not any(r.code.startswith(code) for r in rules):
            raise usage_error(f"unknown rule or prefix {code!r}{did_you_mean(code, [r.code for r in rules])}")
    return codes


def with_settings(rules: Sequence[Rule], settings: Mapping[str, Any]) -> tuple[Rule, ...]:
    """The rules, each given the settings its function takes as keyword parameters (the others it never sees), on top
    of those it already has."""
    out = []
    for r in rules:
        given = {k: v for k, v in settings.items() if k in _accepts(r)}
        out.append(replace(r, options=tuple((dict(r.options) | given).items())) if given else r)
    return tuple(out)


def _accepts(rule: Rule) -> set[str]:
    return set(inspect.signature(rule.check).parameters) - {"tool"}
