"""`${VAR}` and `${VAR:-default}` from the environment in every string of a suite; `$${` is a literal `${`."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from typing import Any

from mcptest.core.errors import Problem
from mcptest.core.secrets import is_secret_name, secret_parts
from mcptest.core.yaml_source import Loc, SourceDoc

_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")
_START = re.compile(r"\$\$\{|\$\{")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class _Context:
    def __init__(self, doc: SourceDoc, env: Mapping[str, str], marked: Collection[str], secrets: set[str]) -> None:
        self.doc, self.env, self.marked, self.secrets = doc, env, marked, secrets
        self.problems: list[Problem] = []


def interpolate(
    doc: SourceDoc, environ: Mapping[str, str], secrets: set[str], marked: Collection[str] = ()
) -> list[Problem]:
    """Substitute in place; return a problem for each unset variable without a default and each malformed `${`.

    The value of a variable whose name says secret (`is_secret_name`) or that the suite lists under `secrets:`
    (`marked`) is added to `secrets`, so reports and cassettes can mask it.
    """
    ctx = _Context(doc, environ, marked, secrets)
    doc.data = _walk(doc.data, (), ctx)
    return ctx.problems


def _walk(node: Any, loc: Loc, ctx: _Context) -> Any:
    if isinstance(node, dict):
        return {k: _walk(v, (*loc, k), ctx) for k, v in node.items()}
    if isinstance(node, list):
        return [_walk(v, (*loc, i), ctx) for i, v in enumerate(node)]
    if isinstance(node, str) and "${" in node:
        return _substitute(node, loc, ctx)
    return node


def _substitute(text: str, loc: Loc, ctx: _Context) -> str:
    out, pos = [], 0
    for start in _START.finditer(text):
        if start.start() < pos:
            continue
        out.append(text[pos : start.start()])
        if start.group(0) == "$${":
            out.append("${")
            pos = start.end()
            continue
        ref = _REF.match(text, start.start())
        if ref is None:
            ctx.problems.append(_malformed(text, start.start(), loc, ctx.doc))
            return text
        out.append(_value(ref, loc, ctx))
        pos = ref.end()
    out.append(text[pos:])
    return "".join(out)


def _value(ref: re.Match[str], loc: Loc, ctx: _Context) -> str:
    from mcptest.core.validation import where

    name, default = ref.group(1), ref.group(2)
    value = ctx.env.get(name)
    if value is None:
        if default is None:
            fix = f"set it, or write ${{{name}:-default}}"
            ctx.problems.append(ctx.doc.problem(loc, f"{where(loc)}: environment variable {name} is not set ({fix})"))
            return ""
        value = default
    if is_secret_name(name) or name in ctx.marked:
        ctx.secrets |= secret_parts(value)
    return value


def _malformed(text: str, at: int, loc: Loc, doc: SourceDoc) -> Problem:
    from mcptest.core.validation import where

    rest = text[at + 2 :]
    name = _NAME.match(rest)
    if rest.startswith("}"):
        what = "empty `${}`: name an environment variable, e.g. ${HOME}"
    elif "}" not in rest:
        what = f"unterminated `${{{name.group(0) if name else rest[:20]}`: close it with `}}`"
    elif name is None:
        what = f"`${{{rest.split('}')[0]}}}` is not an environment variable name (letters, digits and _)"
    else:
        inner = rest.split("}")[0]
        what = f"`${{{inner}}}` is not `${{NAME}}` or `${{NAME:-default}}`"
    return doc.problem(loc, f"{where(loc)}: {what} (write $${{ for a literal ${{)")
