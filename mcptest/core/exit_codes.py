"""The process exit codes: a public contract that CI scripts gate on."""

from enum import IntEnum


class ExitCode(IntEnum):
    """Why mcptest exited. Never renumber a member; add new ones at the end."""

    OK = 0
    """Everything checked passed, or there was nothing to check."""
    FAILED = 1
    """At least one test, gate or floor failed (a server that cannot be reached counts too)."""
    USAGE = 2
    """Invalid invocation or invalid suite: nothing ran."""
    NOT_READY = 3
    """A server did not come up within the wait budget."""
    POLICY = 5
    """Refused by policy, for example a cost cap tripped."""
    QUALITY_FLOOR = 6
    """A measured quality floor was not met (coverage-style gates)."""
    NOTHING_SELECTED = 7
    """No tests selected: the filters matched nothing."""
    INTERRUPTED = 130
    """Stopped by Ctrl-C or SIGTERM: servers were stopped, the tests that finished were reported (`interrupted`)."""
