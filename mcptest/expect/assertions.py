"""Assertions: a target path into a result, a matcher, and the check that compares them."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, StrictFloat, StrictInt, field_validator, model_validator

from mcptest.expect.judge_spec import JudgeSpec, JurySpec

if TYPE_CHECKING:  # the failure model is built only when a check runs, not when a suite is loaded
    from mcptest.expect.failure import AssertionFailure

_SEGMENT = re.compile(r"""^([A-Za-z_$][\w$-]*)((?:\[(?:-?\d+|"[^"]*"|'[^']*')\])*)$""")
_INDEX = re.compile(r"""\[(?:(-?\d+)|"([^"]*)"|'([^']*)')\]""")
GRADED = ("judge", "jury")
MATCHER_KINDS = (
    "exact", "contains", "icontains", "contains-all", "regex", "schema", ">=", ">", "<=", "<", "snapshot",
) + GRADED  # fmt: skip


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True, frozen=True)


class Matcher(_Strict):
    """Exactly one way to compare the target's actual value with an expected value."""

    UNKNOWN_KEY_IS: ClassVar[str] = "matcher"
    """How a suite error names an unknown key here (`core.validation` reads it; it cannot import this layer)."""

    exact: Any = Field(None, description="Equal as JSON values (`null` included; `true` is not `1`).")
    contains: Any = Field(
        None, description="A substring of a string, an element of a list, a key (or sub-mapping) of a mapping."
    )
    icontains: str | None = Field(None, description="A substring, ignoring case.")
    contains_all: list[Any] | None = Field(None, alias="contains-all", description="Every item is `contains`-ed.")
    regex: str | None = Field(
        None, description="An RE2 regular expression (linear time, no backreferences) found anywhere in the string."
    )
    json_schema: dict[str, Any] | None = Field(
        None, alias="schema", description="A JSON Schema the value must satisfy, e.g. `{ minimum: 80 }`."
    )
    ge: StrictInt | StrictFloat | None = Field(None, alias=">=", description="A number at least this.")
    gt: StrictInt | StrictFloat | None = Field(None, alias=">", description="A number above this.")
    le: StrictInt | StrictFloat | None = Field(None, alias="<=", description="A number at most this.")
    lt: StrictInt | StrictFloat | None = Field(None, alias="<", description="A number below this.")
    snapshot: str | dict[str, Any] | None = Field(
        None,
        description="Equal to the stored `__snapshots__/NAME.json` once timestamps, UUIDs and durations are "
        "normalised: `NAME`, or `{ name, normalize: [{ pattern, replace }], volatile }`.",
    )
    judge: JudgeSpec | None = Field(None, description="A model grades the text against a rubric (agent tests).")
    jury: JurySpec | None = Field(None, description="Several models grade the text; a quorum must pass it.")

    @model_validator(mode="after")
    def _one_kind(self) -> Matcher:
        given = self.model_fields_set
        if len(given) != 1:
            got = f"got {len(given)}: {', '.join(self._alias(n) for n in sorted(given))}" if given else "got none"
            raise ValueError(f"a matcher takes exactly one kind ({', '.join(MATCHER_KINDS)}); {got}")
        return self

    @field_validator("regex")
    @classmethod
    def _compiles(cls, value: str | None) -> str | None:
        if value is not None:
            from mcptest.core.regexes import compile_regex

            compile_regex(value)  # a RegexError is a ValueError: `invalid regex '…': why`
        return value

    @field_validator("snapshot")
    @classmethod
    def _snapshot_spec(cls, value: Any) -> Any:
        if value is not None:
            from pydantic import ValidationError

            from mcptest.expect.snapshots import spec_of

            try:
                spec_of(value)
            except ValidationError as exc:
                raise ValueError(exc.errors()[0]["msg"].removeprefix("Value error, ")) from None
        return value

    @field_validator("json_schema")
    @classmethod
    def _valid_schema(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        if value is not None:
            from mcptest.core.json_schema import schema_problems
            from mcptest.core.schema_checks import schema_problem

            found = schema_problem(value)
            if found is not None:
                at = "/".join(str(p) for p in found[0])
                raise ValueError(f"invalid JSON Schema{f' at {at}' if at else ''}: {found[1]}")
            problems = schema_problems(value)
            if problems:
                raise ValueError(problems[0])
        return value

    @classmethod
    def _alias(cls, name: str) -> str:
        return cls.model_fields[name].alias or name

    @property
    def kind(self) -> str:
        """The matcher kind as written in YAML (`contains-all`, `>=`, ...)."""
        return self._alias(next(iter(self.model_fields_set)))

    @property
    def expected(self) -> Any:
        """The expected value as written."""
        return getattr(self, next(iter(self.model_fields_set)))

    @property
    def graded(self) -> bool:
        """A model decides (`judge`, `jury`): the verdict comes from the run, not from comparing values."""
        return self.kind in GRADED

    def test(self, actual: Any) -> str | None:
        """None when `actual` matches; otherwise why it does not."""
        return _MATCHERS[self.kind](actual, self.expected)


class Assertion(_Strict):
    """`{ target: PATH, matcher: { KIND: VALUE }, message?: TEXT }`, or the shorthand `{ PATH: { KIND: VALUE } }`."""

    target: str = Field(description="A dotted path with `[i]` indexes, e.g. `result.content[0].text`.")
    matcher: Matcher
    message: str | None = Field(None, description="Shown when the assertion fails.")
    _pos: tuple[int, int] | None = PrivateAttr(None)

    @model_validator(mode="before")
    @classmethod
    def _shorthand(cls, data: Any) -> Any:
        if isinstance(data, dict) and len(data) == 1:
            ((key, value),) = data.items()
            if key not in ("target", "matcher", "message"):
                return {"target": key, "matcher": value}
        return data

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema: Any, handler: Any) -> dict[str, Any]:
        full = handler.resolve_ref_schema(handler(core_schema))
        shorthand = {
            "type": "object",
            "minProperties": 1,
            "maxProperties": 1,
            "additionalProperties": full["properties"]["matcher"],
            "description": "Shorthand: `{ TARGET: { KIND: VALUE } }`.",
        }
        return {"anyOf": [full, shorthand]}

    @field_validator("target")
    @classmethod
    def _parses(cls, value: str) -> str:
        parse_path(value)
        return value


class TargetMissing(Exception):
    """The target path does not lead to a value."""


def parse_path(path: str) -> list[str | int]:
    """`result.content[0].text` -> ['result', 'content', 0, 'text']; a malformed path is a ValueError."""
    out: list[str | int] = []
    for segment in path.split("."):
        m = _SEGMENT.match(segment)
        if not m:
            raise ValueError(f"malformed target path {path!r} (write it like result.content[0].text)")
        out.append(m.group(1))
        out.extend(int(i) if i else dq or sq for i, dq, sq in _INDEX.findall(m.group(2)))
    return out


@lru_cache(maxsize=4096)
def _parsed(path: str) -> tuple[str | int, ...]:
    return tuple(parse_path(path))


def resolve(root: dict[str, Any], path: str) -> Any:
    """The value at `path` in `root`, or TargetMissing saying where the path stops."""
    value: Any = root
    walked = ""
    for step in _parsed(path):
        if isinstance(step, int):
            if not isinstance(value, list) or not -len(value) <= step < len(value):
                size = f"has {len(value)} items" if isinstance(value, list) else "is not a list"
                raise TargetMissing(f"{walked or 'value'} {size}; no index [{step}]")
            value = value[step]
            walked += f"[{step}]"
        else:
            if not isinstance(value, dict) or step not in value:
                have = f"keys: {', '.join(map(str, value))}" if isinstance(value, dict) and value else "no such key"
                raise TargetMissing(f"{walked + '.' if walked else ''}{step} is absent ({have})")
            value = value[step]
            walked += f".{step}" if walked else step
    return value


def check(
    assertions: list[Assertion], lookup: Callable[[str], Any], grade: Callable[[int], str | None] | None = None
) -> list[AssertionFailure]:
    """Every assertion that fails, with the actual value it saw; `lookup` raises TargetMissing.

    `grade(i)` gives the verdict of a `judge`/`jury` assertion (index `i` in `assertions`), judged beforehand.
    """
    failures = []
    for i, a in enumerate(assertions):
        try:
            actual = lookup(a.target)
        except TargetMissing as missing:
            failures.append(_failure(a, None, f"target not found: {missing}"))
            continue
        why = (grade(i) if grade else _ungraded(a)) if a.matcher.graded else a.matcher.test(actual)
        if why is not None:
            failures.append(_failure(a, actual, why))
    return failures


def _failure(a: Assertion, actual: Any, why: str) -> AssertionFailure:
    from mcptest.expect.failure import AssertionFailure

    expected = a.matcher.expected
    return AssertionFailure(
        target=a.target,
        matcher=a.matcher.kind,
        expected=expected.model_dump(mode="json", exclude_none=True) if isinstance(expected, BaseModel) else expected,
        actual=actual,
        message=f"{a.message}: {why}" if a.message else why,
        line=a._pos[0] if a._pos else None,
        col=a._pos[1] if a._pos else None,
    )


def _ungraded(a: Assertion) -> str:
    return f"a `{a.matcher.kind}` matcher needs an agent test that calls a model (its verdict is recorded there)"


def json_equal(a: Any, b: Any) -> bool:
    """Equality as JSON values: `true` is not `1`, `1` is `1.0`, mappings ignore key order."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def show(value: Any, limit: int = 200) -> str:
    """A short JSON rendering of a value for messages."""
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _exact(actual: Any, expected: Any) -> str | None:
    return None if json_equal(actual, expected) else f"expected {show(expected)}, got {show(actual)}"


def _contained(actual: Any, item: Any) -> bool:
    if isinstance(actual, str):
        return isinstance(item, str) and item in actual
    if isinstance(actual, list):
        return any(json_equal(x, item) for x in actual)
    if isinstance(actual, dict):
        if isinstance(item, dict):
            return all(k in actual and json_equal(actual[k], v) for k, v in item.items())
        return item in actual
    return False


def _contains(actual: Any, expected: Any) -> str | None:
    return None if _contained(actual, expected) else f"{show(actual)} does not contain {show(expected)}"


def _icontains(actual: Any, expected: Any) -> str | None:
    texts = actual if isinstance(actual, list) else [actual]
    if any(isinstance(t, str) and expected.lower() in t.lower() for t in texts):
        return None
    return f"{show(actual)} does not contain {show(expected)} (ignoring case)"


def _contains_all(actual: Any, expected: list[Any]) -> str | None:
    missing = [item for item in expected if not _contained(actual, item)]
    return None if not missing else f"{show(actual)} is missing {show(missing)}"


def _regex(actual: Any, expected: str) -> str | None:
    if not isinstance(actual, str):
        return f"expected a string to match /{expected}/, got {show(actual)}"
    from mcptest.core.regexes import search

    return None if search(expected, actual) else f"{show(actual)} does not match /{expected}/"


def _schema(actual: Any, expected: dict[str, Any]) -> str | None:
    from mcptest.core.json_schema import validator

    try:
        errors = sorted(validator(expected).iter_errors(actual), key=lambda e: list(e.path))
    except RecursionError:
        return "the schema cannot be checked: its $ref refers back to itself without descending into the value"
    except Exception as exc:  # an unresolvable $ref, ...: the assertion fails, the run goes on
        return f"the schema cannot be checked: {type(exc).__name__}: {exc}"
    if not errors:
        return None
    at = "/".join(str(p) for p in errors[0].path)
    from mcptest.core.schema_text import error_text

    return f"{show(actual)} does not satisfy the schema{f' at {at}' if at else ''}: {error_text(errors[0])}"


def _compare(op: str, ok: Callable[[float, float], bool]) -> Callable[[Any, Any], str | None]:
    def compare(actual: Any, expected: float) -> str | None:
        # math.isnan on an int converts it to float, which overflows past 1e308: only floats can be NaN
        number = isinstance(actual, int | float) and not isinstance(actual, bool)
        number = number and not (isinstance(actual, float) and math.isnan(actual))
        if not number:
            return f"expected a number {op} {show(expected)}, got {show(actual)}"
        return None if ok(actual, expected) else f"{show(actual)} is not {op} {show(expected)}"

    return compare


_MATCHERS: dict[str, Callable[[Any, Any], str | None]] = {
    "exact": _exact,
    "contains": _contains,
    "icontains": _icontains,
    "contains-all": _contains_all,
    "regex": _regex,
    "schema": _schema,
    ">=": _compare(">=", lambda a, e: a >= e),
    ">": _compare(">", lambda a, e: a > e),
    "<=": _compare("<=", lambda a, e: a <= e),
    "<": _compare("<", lambda a, e: a < e),
    "snapshot": lambda actual, expected: _snapshot(actual, expected),
}


def _snapshot(actual: Any, expected: Any) -> str | None:
    from mcptest.expect.snapshots import check_snapshot

    return check_snapshot(actual, expected)
