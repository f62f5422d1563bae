"""`${VAR}` and `${VAR:-default}` from the environment in every string of a suite; `$${` is a literal `${`."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from mcptest.errors import Problem
from mcptest.yaml_source import Loc, SourceDoc

_REF = re.compile(r"\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")
_SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|PASSWD|AUTH|CREDENTIAL", re.IGNORECASE)


def interpolate(doc: SourceDoc, environ: Mapping[str, str], secrets: set[str]) -> list[Problem]:
    """Substitute in place; return a problem for each unset variable without a default.

    Values of variables whose names look secret are added to `secrets`, so reports can redact them.
    """
    problems: list[Problem] = []
    doc.data = _walk(doc.data, (), doc, environ, secrets, problems)
    return problems


def _walk(node: Any, loc: Loc, doc: SourceDoc, env: Mapping[str, str], secrets: set[str], out: list[Problem]) -> Any:
    if isinstance(node, dict):
        return {k: _walk(v, (*loc, k), doc, env, secrets, out) for k, v in node.items()}
    if isinstance(node, list):
        return [_walk(v, (*loc, i), doc, env, secrets, out) for i, v in enumerate(node)]
    if isinstance(node, str) and "$" in node:
        return _substitute(node, loc, doc, env, secrets, out)
    return node


def _substitute(
    text: str, loc: Loc, doc: SourceDoc, env: Mapping[str, str], secrets: set[str], out: list[Problem]
) -> str:
    from mcptest.suite.validation import where

    def replace(m: re.Match[str]) -> str:
        if m.group(0) == "$${":
            return "${"
        name, default = m.group(1), m.group(2)
        value = env.get(name)
        if value is None:
            if default is None:
                out.append(
                    doc.problem(
                        loc,
                        f"{where(loc)}: environment variable {name} is not set (set it, or write ${{{name}:-default}})",
                    )
                )
                return ""
            value = default
        if _SECRET_NAME.search(name) and value:
            secrets.add(value)
        return value

    return _REF.sub(replace, text)


def is_secret_name(name: str) -> bool:
    """Whether an environment variable's name suggests its value is a credential."""
    return bool(_SECRET_NAME.search(name))
