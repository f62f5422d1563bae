"""`${VAR}` and `${VAR:-default}` from the environment in every string of a suite; `$${` is a literal `${`.

A default may itself hold references, as in a shell: `${A:-${B:-none}}` is A, else B, else `none`. A default is
only evaluated when its variable is unset, so an unset variable inside an unused default is no error. References
nest at most `MAX_NESTING` levels deep; the first `}` closes the innermost open reference.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any, Union

from mcptest.core.errors import Problem
from mcptest.core.secrets import is_secret_name, secret_parts
from mcptest.core.yaml_source import Loc, SourceDoc

MAX_NESTING = 8
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_TOKEN = re.compile(r"\$\$\{|\$\{|\}")
_UNDECODABLE = re.compile("[\ud800-\udfff]")  # os.environ keeps bytes that are not UTF-8 as lone surrogates


@dataclass
class _Ref:
    name: str
    default: list[_Part] | None


_Part = Union[str, _Ref]  # noqa: UP007  (a forward reference in a runtime alias)


class _Malformed(Exception):
    def __init__(self, what: str) -> None:
        self.what = what


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
    from mcptest.core.errors import where

    try:
        parts, _ = _parse(text, 0, 0)
    except _Malformed as exc:
        ctx.problems.append(ctx.doc.problem(loc, f"{where(loc)}: {exc.what} (write $${{ for a literal ${{)"))
        return text
    return _render(parts, loc, ctx)


def _parse(text: str, pos: int, depth: int) -> tuple[list[_Part], int]:
    """The parts of `text` from `pos` to its end (depth 0) or to the `}` closing the enclosing reference."""
    parts: list[_Part] = []
    while True:
        token = _TOKEN.search(text, pos)
        if token is None or (token.group(0) == "}" and depth == 0):
            end = len(text) if token is None else token.end()
            parts.append(text[pos:end])
            if token is None:
                return parts, end
            pos = end
            continue
        parts.append(text[pos : token.start()])
        if token.group(0) == "}":
            return parts, token.start()
        if token.group(0) == "$${":
            parts.append("${")
            pos = token.end()
            continue
        ref, pos = _parse_ref(text, token.start(), depth + 1)
        parts.append(ref)


def _parse_ref(text: str, at: int, depth: int) -> tuple[_Ref, int]:
    """The reference whose `${` is at `at`, and the position just past its `}`."""
    if depth > MAX_NESTING:
        raise _Malformed(f"references nested deeper than {MAX_NESTING} levels: flatten them")
    rest = text[at + 2 :]
    name = _NAME.match(rest)
    if rest.startswith("}"):
        raise _Malformed("empty `${}`: name an environment variable, e.g. ${HOME}")
    if "}" not in rest:
        raise _Malformed(f"unterminated `${{{name.group(0) if name else rest[:20]}`: close it with `}}`")
    if name is None:
        inner = rest.split("}")[0][:40]
        raise _Malformed(f"`${{{inner}}}` is not an environment variable name (letters, digits and _)")
    after = at + 2 + name.end()
    if text.startswith("}", after):
        return _Ref(name.group(0), None), after + 1
    if not text.startswith(":-", after):
        inner = rest.split("}")[0][:40]
        raise _Malformed(f"`${{{inner}}}` is not `${{NAME}}` or `${{NAME:-default}}`")
    default, end = _parse(text, after + 2, depth)
    if end >= len(text):
        raise _Malformed(f"unterminated `${{{name.group(0)}:-...`: close it with `}}`")
    return _Ref(name.group(0), default), end + 1


def _render(parts: list[_Part], loc: Loc, ctx: _Context) -> str:
    return "".join(part if isinstance(part, str) else _value(part, loc, ctx) for part in parts)


def _value(ref: _Ref, loc: Loc, ctx: _Context) -> str:
    from mcptest.core.errors import where

    value = ctx.env.get(ref.name)
    if value is not None and not value.isascii() and _UNDECODABLE.search(value):
        what = f"environment variable {ref.name} is not valid UTF-8 text (its undecodable bytes cannot be sent)"
        ctx.problems.append(ctx.doc.problem(loc, f"{where(loc)}: {what}"))
        return ""
    if value is None:
        if ref.default is None:
            fix = f"set it, or write ${{{ref.name}:-default}}"
            problem = f"{where(loc)}: environment variable {ref.name} is not set ({fix})"
            ctx.problems.append(ctx.doc.problem(loc, problem))
            return ""
        value = _render(ref.default, loc, ctx)
    if is_secret_name(ref.name) or ref.name in ctx.marked:
        ctx.secrets |= secret_parts(value)
    return value
