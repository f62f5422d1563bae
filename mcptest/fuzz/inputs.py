"""Inputs for a tool from its inputSchema: valid ones at the edges (empty strings, boundaries, unicode, large numbers
within bounds, optional keys absent and present) and invalid ones (a required key missing, a wrong type, a value out
of range, an extra key where none is allowed, a null), at the top level and inside nested objects and arrays,
deterministic for a seed.

mcptest generates them itself rather than through hypothesis-jsonschema (0.23.1 fails on object schemas with the
Hypothesis releases of 2026): every input is checked against the schema by the same validator the rest of mcptest
uses, so a case said valid is valid and one said invalid is invalid.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

_MAX_DEPTH = 4
_TRIES = 8
_REPEAT_TRIES = 2
_REMEMBERED = 20_000
"""At most this many inputs' validity is remembered per schema (then the memory starts over)."""
_UNICODE = ("é", "Ωmega", "日本語", "😀", "a\u0301", "\u202etxt", "Zero\u200bwidth")
_PLAIN = ("a", "x", "test", "1", "hello world", "A_b-9", "/tmp", "null", "0")
_FORMATS = {
    "date-time": "2024-02-29T23:59:59Z",
    "date": "2024-02-29",
    "time": "23:59:59Z",
    "email": "a@example.com",
    "uri": "https://example.com/a",
    "url": "https://example.com/a",
    "uuid": "00000000-0000-4000-8000-000000000000",
    "ipv4": "127.0.0.1",
    "hostname": "example.com",
}


@dataclass(frozen=True)
class Case:
    """One input to send: the arguments, whether the schema accepts them, and how they were made."""

    args: dict[str, Any]
    valid: bool
    how: str
    """`valid`, `valid (edge: ...)`, or the mutation: `missing required 'x'`, `wrong type at 'x'`, ..."""


class Schema:
    """A tool's inputSchema with its validator and local `$ref` resolution."""

    def __init__(self, schema: dict[str, Any]) -> None:
        from mcptest.core.json_schema import validator

        self.root = schema if isinstance(schema, dict) else {"type": "object"}
        self._known: dict[str, bool] = {}
        try:
            self._validator: Any = validator(self.root)
        except Exception:  # a schema jsonschema cannot read: nothing is known valid  # noqa: BLE001
            self._validator = None

    def valid(self, value: Any) -> bool:
        """Whether the schema accepts `value` (False when the schema cannot be read). Answers are remembered per
        input: a run asks again of repeats (a small schema has few inputs) and of each input it sends."""
        if self._validator is None:
            return False
        try:
            key = json.dumps(value, sort_keys=True)
        except (TypeError, ValueError):
            return self._check(value)
        known = self._known.get(key)
        if known is None:
            known = self._known[key] = self._check(value)
            if len(self._known) > _REMEMBERED:
                self._known.clear()
        return known

    def _check(self, value: Any) -> bool:
        try:
            return bool(self._validator.is_valid(value))
        except Exception:  # noqa: BLE001 (a schema jsonschema chokes on: nothing is known valid)
            return False

    def resolve(self, node: Any) -> dict[str, Any]:
        """The node with a local `$ref` followed (a few hops at most), as a mapping."""
        for _ in range(8):
            if not isinstance(node, dict):
                return {}
            ref = node.get("$ref")
            if not isinstance(ref, str) or not ref.startswith("#"):
                return node
            target: Any = self.root
            for part in ref[1:].lstrip("/").split("/"):
                if not part:
                    continue
                part = part.replace("~1", "/").replace("~0", "~")
                target = target.get(part) if isinstance(target, dict) else None
            merged = {k: v for k, v in node.items() if k != "$ref"}
            node = {**(target if isinstance(target, dict) else {}), **merged}
        return node if isinstance(node, dict) else {}

    def properties(self, node: Any = None) -> tuple[dict[str, Any], list[str], Any]:
        """An object node's properties, required names and `additionalProperties` (allOf branches merged)."""
        node = self.resolve(self.root if node is None else node)
        props = dict(node.get("properties") or {}) if isinstance(node.get("properties"), dict) else {}
        required = [r for r in node.get("required") or [] if isinstance(r, str)]
        for branch in node.get("allOf") or []:
            branch = self.resolve(branch)
            if isinstance(branch.get("properties"), dict):
                props.update(branch["properties"])
            required += [r for r in branch.get("required") or [] if isinstance(r, str)]
        return props, list(dict.fromkeys(required)), node.get("additionalProperties", True)


def types_of(node: dict[str, Any]) -> list[str]:
    """The JSON types a schema node allows, guessed from its keywords when it names none."""
    declared = node.get("type")
    if isinstance(declared, str):
        return [declared]
    if isinstance(declared, list):
        return [t for t in declared if isinstance(t, str)]
    if "properties" in node or "required" in node:
        return ["object"]
    if "items" in node:
        return ["array"]
    if any(k in node for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")):
        return ["number"]
    if any(k in node for k in ("minLength", "maxLength", "pattern", "format")):
        return ["string"]
    return []


class Generator:
    """Values for schema nodes, drawn from one seeded random source."""

    def __init__(self, schema: Schema, rng: random.Random) -> None:
        self.schema = schema
        self.rng = rng

    def value(self, node: Any, depth: int = 0, edge: str | None = None) -> Any:
        """A value the node accepts (most of the time: the caller checks); `edge` is `min` or `max` to lean on
        the bounds and on optional keys absent (`min`) or all present (`max`)."""
        node = self.schema.resolve(node)
        rng = self.rng
        if "const" in node:
            return copy.deepcopy(node["const"])
        given = [
            *(node.get("examples") or [] if isinstance(node.get("examples"), list) else []),
            *([node["default"]] if "default" in node else []),
        ]
        if given and edge is None and rng.random() < 0.3:  # what the schema says a value looks like
            return copy.deepcopy(rng.choice(given))
        if isinstance(node.get("enum"), list) and node["enum"]:
            return copy.deepcopy(rng.choice(node["enum"]))
        for key in ("anyOf", "oneOf"):
            if isinstance(node.get(key), list) and node[key]:
                branches = [b for b in node[key] if self.schema.resolve(b).get("type") != "null"] or node[key]
                base = {k: v for k, v in node.items() if k != key}
                return self.value({**base, **self.schema.resolve(rng.choice(branches))}, depth, edge)
        kinds = [t for t in types_of(node) if t != "null"] or types_of(node) or ["string", "integer", "boolean"]
        kind = rng.choice(kinds)
        if kind == "object" or (kind == "array" and depth >= _MAX_DEPTH and node.get("minItems")):
            return self.object(node, depth, edge) if kind == "object" else []
        return getattr(self, f"_{kind}", self._string)(node, depth, edge)

    def object(self, node: Any, depth: int = 0, edge: str | None = None) -> dict[str, Any]:
        """An object with every required key and a random choice of the optional ones."""
        props, required, _ = self.schema.properties(node)
        out: dict[str, Any] = {}
        for name, sub in props.items():
            present = name in required or (edge == "max") or (edge is None and self.rng.random() < 0.5)
            if present and depth < _MAX_DEPTH:
                out[name] = self.value(sub, depth + 1, edge)
        for name in required:
            out.setdefault(name, self.value({}, depth + 1, edge))
        return out

    def _string(self, node: dict[str, Any], depth: int, edge: str | None) -> str:
        low = int(node.get("minLength") or 0)
        high = node.get("maxLength")
        high = int(high) if isinstance(high, int) else max(low, 64)
        fmt = node.get("format")
        if isinstance(fmt, str) and fmt in _FORMATS and edge != "min":
            return _FORMATS[fmt]
        if edge == "min":
            return "a" * low
        if edge == "max":
            return ("x" * high)[:high] if high <= 4096 else "x" * 4096
        pick = self.rng.random()
        text = self.rng.choice(_UNICODE) if pick < 0.3 else self.rng.choice(_PLAIN) if pick < 0.8 else ""
        if len(text) < low:
            text += "a" * (low - len(text))
        return text[:high]

    def _integer(self, node: dict[str, Any], depth: int, edge: str | None) -> int:
        low, high = _bounds(node, integer=True)
        step = node.get("multipleOf")
        if edge == "min" and low is not None:
            value = low
        elif edge == "max" and high is not None:
            value = high
        else:
            lo = low if low is not None else -(2**31) if self.rng.random() < 0.2 else -10
            hi = high if high is not None else 2**53 - 1 if self.rng.random() < 0.2 else 100
            choices = [lo, hi, 0, 1, -1, self.rng.randint(min(lo, hi), max(lo, hi))]
            value = self.rng.choice([c for c in choices if lo <= c <= hi] or [lo])
        if isinstance(step, int) and step > 0:
            value -= value % step
            if low is not None and value < low:
                value += step
        return value

    def _number(self, node: dict[str, Any], depth: int, edge: str | None) -> float | int:
        low, high = _bounds(node, integer=False)
        if edge == "min" and low is not None:
            return low if "exclusiveMinimum" not in node else low + 1e-6
        if edge == "max" and high is not None:
            return high if "exclusiveMaximum" not in node else high - 1e-6
        lo = low if low is not None else -1e9
        hi = high if high is not None else 1e308 if self.rng.random() < 0.1 else 1e6
        if "exclusiveMinimum" in node:
            lo += 1e-6
        if "exclusiveMaximum" in node:
            hi -= 1e-6
        choices = [lo, hi, 0, 0.5, -1.5, self.rng.uniform(lo, hi)]
        return self.rng.choice([c for c in choices if lo <= c <= hi] or [lo])

    def _boolean(self, node: dict[str, Any], depth: int, edge: str | None) -> bool:
        return edge != "min" and (edge == "max" or self.rng.random() < 0.5)

    def _null(self, node: dict[str, Any], depth: int, edge: str | None) -> None:
        return None

    def _array(self, node: dict[str, Any], depth: int, edge: str | None) -> list[Any]:
        low = int(node.get("minItems") or 0)
        high = node.get("maxItems")
        high = int(high) if isinstance(high, int) else low + 3
        count = low if edge == "min" else min(high, low + 3) if edge == "max" else self.rng.randint(low, high)
        items = node.get("items") if isinstance(node.get("items"), dict) else {}
        out = [self.value(items, depth + 1, edge) for _ in range(min(count, 64))]
        if node.get("uniqueItems"):
            unique = list({json.dumps(v, sort_keys=True): v for v in out}.values())
            out = unique if len(unique) >= low else out
        return out


def _bounds(node: dict[str, Any], *, integer: bool) -> tuple[Any, Any]:
    """The inclusive bounds a number node sets (exclusive ones moved in by one for integers)."""
    low, high = node.get("minimum"), node.get("maximum")
    emin, emax = node.get("exclusiveMinimum"), node.get("exclusiveMaximum")
    if isinstance(emin, int | float) and not isinstance(emin, bool):
        low = emin + 1 if integer else emin
    if isinstance(emax, int | float) and not isinstance(emax, bool):
        high = emax - 1 if integer else emax
    if integer:
        import math

        low = math.ceil(low) if isinstance(low, int | float) and not isinstance(low, bool) else None
        high = math.floor(high) if isinstance(high, int | float) and not isinstance(high, bool) else None
    else:
        low = low if isinstance(low, int | float) and not isinstance(low, bool) else None
        high = high if isinstance(high, int | float) and not isinstance(high, bool) else None
    return low, high


DROP = object()
"""A mutation's value that removes its key."""

_MUTATE_DEPTH = 3
"""How deep inside nested objects and arrays invalid values are planted (the top level is depth 1)."""

Where = tuple[str | int, ...]
"""Where a mutation lands: object keys, and 0 for an array's first item."""


@dataclass(frozen=True)
class Mutation:
    """One way to break a valid input: set the value at `path` to `value` (or remove it: `DROP`). The path may lead
    into nested objects and arrays (0 is an array's first item); an input that has nothing there is left as it is."""

    how: str
    path: Where
    value: Any

    @property
    def key(self) -> str:
        """The top-level key the mutation lands under."""
        return str(self.path[0])

    def reaches(self, args: Any) -> bool:
        """Whether `args` has a place for this mutation: every container on the path is there (an empty array
        takes a new first item)."""
        node = args
        for step in self.path[:-1]:
            if isinstance(step, int):
                if not isinstance(node, list) or not node:
                    return False
                node = node[0]
            elif isinstance(node, dict) and step in node:
                node = node[step]
            else:
                return False
        return isinstance(node, list) if isinstance(self.path[-1], int) else isinstance(node, dict)

    def apply(self, args: dict[str, Any]) -> dict[str, Any]:
        """The input with this change made (a copy; unchanged when the path is not there)."""
        if not self.reaches(args):
            return args
        out = copy.deepcopy(args)
        node: Any = out
        for step in self.path[:-1]:
            node = node[step]
        end = self.path[-1]
        if self.value is DROP:
            node.pop(end, None)
        elif isinstance(end, int) and not node:
            node.append(copy.deepcopy(self.value))
        else:
            node[end] = copy.deepcopy(self.value)
        return out


def label(path: Where) -> str:
    """A path as the cases name it: `filter.status`, `items[0].id`."""
    out = ""
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else f".{step}" if out else step
    return out


def mutations(schema: Schema) -> list[Mutation]:
    """Every way to break a valid input of this schema, each named: at the top level and inside nested objects
    and arrays (a nested required key missing, a nested wrong type, a nested value out of range or off its enum).
    The top level's come first, then each level below in turn (a small budget still tries every top-level one)."""
    return sorted(_mutations(schema, schema.root, (), 1), key=lambda m: len(m.path))


def _mutations(schema: Schema, node: Any, at: Where, depth: int) -> list[Mutation]:
    props, required, extra = schema.properties(node)
    out = [Mutation(f"missing required '{label((*at, n))}'", (*at, n), DROP) for n in required]
    for name, sub in props.items():
        path = (*at, name)
        out += _value_mutations(schema, schema.resolve(sub), path, depth)
    if extra is False:
        out.append(Mutation(f"extra key '{label((*at, 'mcptest_extra'))}'", (*at, "mcptest_extra"), "x"))
    return out


def _value_mutations(schema: Schema, node: dict[str, Any], path: Where, depth: int) -> list[Mutation]:
    """The ways to break the value at `path`, then (below the depth limit) the values inside it."""
    where = label(path)
    kinds = types_of(node)
    out = [Mutation(f"wrong type at '{where}' ({_json(w)})", path, w) for w in _wrong_values(kinds)]
    out.append(Mutation(f"null at '{where}'", path, None))
    out += [Mutation(f"{what} at '{where}'", path, bad) for what, bad in _out_of_range(node, kinds)]
    if depth >= _MUTATE_DEPTH:
        return out
    if "object" in kinds:
        out += _mutations(schema, node, path, depth + 1)
    if "array" in kinds and isinstance(node.get("items"), dict):
        out += _value_mutations(schema, schema.resolve(node["items"]), (*path, 0), depth + 1)
    return out


def _wrong_values(kinds: list[str]) -> list[Any]:
    """Values of other JSON types than `kinds`: a number-like string for a number (a mere coercion) and a plain one,
    a number for a string, an object, a list, a boolean."""
    out: list[Any] = []
    if {"integer", "number"} & set(kinds):
        out += ["5", "abc", 1.5] if "number" not in kinds else ["5", "abc"]
    if "string" in kinds:
        out.append(5)
    if "boolean" in kinds:
        out.append("true")
    out += [v for v, t in (({"a": 1}, "object"), ([1], "array"), (True, "boolean")) if t not in kinds]
    return out


def _out_of_range(node: dict[str, Any], kinds: list[str]) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    integer = "integer" in kinds and "number" not in kinds
    low, high = _bounds(node, integer=integer)
    if low is not None:
        out.append((f"below minimum ({low})", low - 1))
    if high is not None:
        out.append((f"above maximum ({high})", high + 1))
    if isinstance(node.get("minLength"), int) and node["minLength"] > 0:
        out.append(("shorter than minLength", "a" * (node["minLength"] - 1)))
    if isinstance(node.get("maxLength"), int):
        out.append(("longer than maxLength", "x" * (node["maxLength"] + 1)))
    if isinstance(node.get("enum"), list) and node["enum"]:
        sample = node["enum"][0]
        out.append(("not in enum", "mcptest-not-a-member" if isinstance(sample, str) else 987654321))
    if isinstance(node.get("pattern"), str):
        out.append(("against pattern", "\u0000 !"))
    if isinstance(node.get("minItems"), int) and node["minItems"] > 0:
        out.append(("fewer than minItems", []))
    return out


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def cases(
    schema_json: dict[str, Any], count: int, seed: int, salt: str = "", schema: Schema | None = None
) -> list[Case]:
    """`count` inputs for the schema, about half valid and half invalid, the same for the same seed and salt (the
    tool's name): the edge cases first (required keys only, every key at its bounds), then random ones. `schema`:
    the same schema already read, whose memory of valid inputs the caller goes on using."""
    schema = schema if schema is not None else Schema(schema_json)
    rng = random.Random(f"{seed}:{salt}")
    gen = Generator(schema, rng)
    broken = mutations(schema)
    out: list[Case] = []
    seen: set[str] = set()
    misses = 0
    plan = iter(_plan(count, broken))
    budget = count * _TRIES
    while len(out) < count and budget > 0:
        budget -= 1
        step = next(plan)
        edge = step if step in ("min", "max") else None
        base = gen.object(schema.root, 0, edge)
        if isinstance(step, Mutation) and not step.reaches(base):
            base = gen.object(schema.root, 0, "max")  # every optional key present, arrays filled
        if not schema.valid(base):
            continue
        if isinstance(step, Mutation):
            args = step.apply(base)
            if schema.valid(args):
                continue
            case = Case(args, False, step.how)
        else:
            case = Case(base, True, f"valid (edge: {edge})" if edge else "valid")
        key = _json(case.args)
        if key in seen and misses < _REPEAT_TRIES:  # a few tries for a new input, then a repeat is fine
            misses += 1
            continue
        seen.add(key)
        out.append(case)
        misses = 0
    return out


def _plan(count: int, broken: list[Mutation]) -> Iterator[Any]:
    """What each case is: the two edges, then valid and mutated inputs in turn, the mutations round-robin."""
    yield "min"
    yield "max"
    i = 0
    while True:
        yield "random"
        if broken:
            yield broken[i % len(broken)]
            i += 1


def coerced(args: Any, schema: Schema, node: Any = None) -> Any:
    """The input with each value, nested ones too, read the way a lax server reads JSON types (`"5"` as 5, 5 as
    `"5"`, `"true"` as true): when that version is valid, an invalid input accepted was a mere coercion."""
    node = schema.resolve(schema.root if node is None else node)
    if isinstance(args, dict):
        props, _, _ = schema.properties(node)
        out: dict[str, Any] = {}
        for name, value in args.items():
            sub = schema.resolve(props.get(name, {}))
            out[name] = coerced(value, schema, sub) if isinstance(value, dict | list) else _coerce(value, types_of(sub))
        return out
    if isinstance(args, list):
        items = schema.resolve(node.get("items")) if isinstance(node.get("items"), dict) else {}
        return [coerced(v, schema, items) if isinstance(v, dict | list) else _coerce(v, types_of(items)) for v in args]
    return args


def _coerce(value: Any, kinds: list[str]) -> Any:
    if isinstance(value, str):
        if "integer" in kinds or "number" in kinds:
            try:
                number = float(value)
            except ValueError:
                return value
            return int(number) if number.is_integer() and "integer" in kinds else number
        if "boolean" in kinds and value in ("true", "false"):
            return value == "true"
    if isinstance(value, bool) and ("integer" in kinds or "number" in kinds):
        return int(value)
    if isinstance(value, int | float) and not isinstance(value, bool) and "string" in kinds:
        return str(value)
    return value
