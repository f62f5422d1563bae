"""A failing input shrunk to a minimal one by Hypothesis's shrinker.

The input is described as a Hypothesis strategy shaped like it (every object key and array item kept or dropped,
each string, integer, float and boolean free to change within its JSON type), the input itself is put in an
in-memory example database as the strategy's choices, and `hypothesis.find` replays it and shrinks it while the
finding still shows. Hypothesis does this better than a list of simpler variants: it searches integers by bisection
down to a boundary (an id accepted above 100 shrinks to exactly 101, where halving stops anywhere between 101 and
200), shrinks strings character by character towards short and simple ones, drops keys and items in any
combination, and stops when no pass makes progress, so the result is a local minimum of its order, not the first
variant that happened to fail.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

_KEY = b"mcptest-fuzz-shrink"


def size(value: Any) -> int:
    """How big an input is: the length of its JSON text."""
    return len(json.dumps(value, ensure_ascii=False, sort_keys=True))


def key(value: Any) -> str:
    """One text per distinct input (key order aside): what a shrink remembers answers by."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def shrink(value: Any, holds: Callable[[Any], bool], *, calls: int, seen: bool = False) -> tuple[Any, int]:
    """The smallest variant of `value` found on which `holds` is still true, and how many times `holds` ran: at most
    `calls` (an input asked twice is answered from memory; once the budget is spent, untried inputs count as not
    holding). `value` itself is returned when it does not hold on replay or cannot be expressed (a lone surrogate).

    `seen`: the caller has just watched `holds(value)` come true, so the replay is answered from memory instead of
    asking again (a fuzzer's finding: one timeout or one server restart less per shrink)."""
    from hypothesis import HealthCheck, Phase, find, settings
    from hypothesis.database import InMemoryExampleDatabase, choices_to_bytes
    from hypothesis.errors import HypothesisException

    db = InMemoryExampleDatabase()
    # The secondary corpus: Hypothesis replays it and then shrinks (an entry in the primary corpus counts as
    # already shrunk and is only replayed).
    db.save(_KEY + b".secondary", choices_to_bytes(_choices(value)))
    memory: dict[str, bool] = {key(value): True} if seen else {}
    made = 0

    def condition(candidate: Any) -> bool:
        nonlocal made
        known = memory.get(key(candidate))
        if known is None:
            if made >= calls:
                return False
            made += 1
            known = memory[key(candidate)] = bool(holds(candidate))
        return known

    options = settings(
        database=db,
        phases=[Phase.reuse, Phase.shrink],
        deadline=None,
        max_examples=max(calls, 1) * 10,
        suppress_health_check=list(HealthCheck),
    )
    try:
        return find(_strategy(value), condition, settings=options, database_key=_KEY), made
    except HypothesisException:  # it did not hold on replay (a flaky server), or the input has no strategy
        return value, made


def _strategy(value: Any) -> Any:
    """A strategy whose choices can spell `value` (see `_choices`) and every simpler input of the same shape."""
    from hypothesis import strategies as st

    if isinstance(value, dict):
        parts = [(name, _strategy(item)) for name, item in value.items()]
        return st.composite(lambda draw: {name: draw(s) for name, s in parts if draw(st.booleans())})()
    if isinstance(value, list):
        items = [_strategy(item) for item in value]
        return st.composite(lambda draw: [draw(s) for s in items if draw(st.booleans())])()
    if isinstance(value, bool):
        return st.booleans()
    if isinstance(value, int):
        return st.integers()
    if isinstance(value, float):
        return st.floats()
    if isinstance(value, str):
        return st.text()
    return st.just(value)


def _choices(value: Any) -> list[Any]:
    """The choices `_strategy(value)` makes to produce `value` itself: for each key or item a `True` (kept), then the
    value's own choices; one choice per string, number or boolean; none for null."""
    if isinstance(value, dict):
        return [c for item in value.values() for c in (True, *_choices(item))]
    if isinstance(value, list):
        return [c for item in value for c in (True, *_choices(item))]
    if isinstance(value, bool | int | str):
        return [value]
    if isinstance(value, float):
        return [value]
    return []
