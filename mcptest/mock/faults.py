"""`--fault`: misbehaviour injected into `tools/call` only, so clients can be tested against bad servers."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass

from mcptest.core.errors import usage_error

KINDS = "none, hang, slow:<ms>, error, recover-after:<n>, crash-after:<n>"
INJECTED_MESSAGE = "Injected fault: tools/call failed (mcptest mock --fault {spec})"


@dataclass(frozen=True)
class Fault:
    """A parsed `--fault` value; `amount` is milliseconds for `slow`, a call count otherwise."""

    kind: str = "none"
    amount: int = 0

    def __str__(self) -> str:
        return f"{self.kind}:{self.amount}" if self.kind in _COUNTED else self.kind


_PLAIN = ("none", "hang", "error")
_COUNTED = ("slow", "recover-after", "crash-after")


def parse_fault(text: str) -> Fault:
    """Parse `--fault`, or raise a usage error listing the valid kinds."""
    kind, sep, amount = text.strip().partition(":")
    if not sep and kind in _PLAIN:
        return Fault(kind)
    if sep and kind in _COUNTED and amount.isdigit():
        return Fault(kind, int(amount))
    raise usage_error(f"invalid --fault '{text}': expected one of {KINDS}")


@dataclass
class Action:
    """What to do with one call: wait `delay` seconds (None: forever), then crash, fail or answer normally."""

    delay: float | None = 0.0
    fail: bool = False
    crash: bool = False


class FaultState:
    """Counts `tools/call` requests and decides, per call, what the fault does to it."""

    def __init__(self, fault: Fault) -> None:
        self.fault = fault
        self.calls = 0

    def next_call(self) -> Action:
        """The action for the next call."""
        self.calls += 1
        kind, n = self.fault.kind, self.fault.amount
        if kind == "hang":
            return Action(delay=None)
        if kind == "slow":
            return Action(delay=n / 1000)
        if kind == "error" or (kind == "recover-after" and self.calls <= n):
            return Action(fail=True)
        if kind == "crash-after" and self.calls > n:
            return Action(crash=True)
        return Action()

    def message(self) -> str:
        """The JSON-RPC error message of an injected failure."""
        return INJECTED_MESSAGE.format(spec=self.fault)

    def crash_line(self) -> str:
        """The stderr line a crash writes."""
        return f"mcptest mock: injected crash on tools/call #{self.calls} (--fault {self.fault})"


def crash(line: str) -> None:
    """Write one line to stderr and exit with status 1 at once, as a crashing server would."""
    sys.stderr.write(line + "\n")
    sys.stderr.flush()
    os._exit(1)
