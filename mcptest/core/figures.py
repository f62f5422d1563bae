"""How a figure is printed: whole numbers as they are, other numbers with the decimals that decide its verdict."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from decimal import Decimal

MAX_DECIMALS = 6


def shown(value: int | float, against: Iterable[int | float] = ()) -> str:
    """`value` as text: `80`, `79.5`, `66.7`; with as many decimals as it takes to fall on the same side of each
    threshold in `against` as the value itself (66.6667 against 66.67 prints `66.6667`, never `66.67`).

    A figure that is not whole gets at least one decimal, so 79.5 never prints as 80 next to an 80% floor.
    """
    if isinstance(value, int):  # bool included
        return str(value)
    if value != value or value in (float("inf"), float("-inf")):
        return str(value)
    from decimal import Decimal  # here: most callers want only `plural`; decimal costs ~3 ms to import

    exact = Decimal(value)
    if exact == exact.to_integral_value():
        return str(int(exact))
    limits = [Decimal(repr(t)) if isinstance(t, float) else Decimal(t) for t in against]
    for places in range(1, MAX_DECIMALS + 1):
        text = _rounded(exact, places)
        if all(_side(Decimal(text), t) == _side(exact, t) for t in limits):
            return text
    return repr(value)


def plural(n: int, one: str, many: str = "") -> str:
    """`1 tool`, `2 tools`; `many` for irregular plurals (`1 class`, `2 classes`)."""
    return f"{n} {one if n == 1 else many or one + 's'}"


def _rounded(exact: Decimal, places: int) -> str:
    from decimal import ROUND_HALF_EVEN, Decimal

    text = f"{exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN):f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def _side(a: Decimal, b: Decimal) -> int:
    return (a > b) - (a < b)
