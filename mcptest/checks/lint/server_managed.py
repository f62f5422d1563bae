"""Server-managed fields: ids and owners the server assigns, found in an input schema (SCH-005, the model view)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from mcptest.checks.findings import Hit, pointer
from mcptest.checks.lint.shapes import Prop, properties
from mcptest.checks.lint.text import COMMON_VERBS
from mcptest.core.re_cache import compiled
from mcptest.records.catalog import Tool

DEFAULT_SERVER_MANAGED = ("id", "nano_id", "user_id", "organization_id", "owner_id", "assignee_id", "status_id")
"""The fields document 002 found exposed and never to be filled by the agent; `--server-managed` or a
`tool_quality:` block's `server_managed:` replaces the list."""

READ_VERBS = frozenset(
    ["get", "list", "search", "find", "read", "query", "fetch", "describe", "show", "count", "lookup", "view", "browse"]
)
"""A tool whose name starts with one of these reads: an `owner_id` there is a filter the agent may choose."""

_CAMEL = compiled(r"(?<=[a-z0-9])(?=[A-Z])")


def field_key(name: str) -> str:
    """The comparable form of a field name: camelCase to snake_case, lowercase (`ownerId` -> `owner_id`)."""
    return _CAMEL.sub("_", name).lower()


def reads_only(tool: Tool) -> bool:
    """Whether the tool only reads: annotated `readOnlyHint: true`, or its name starts with a read verb."""
    if (tool.annotations or {}).get("readOnlyHint") is True:
        return True
    return field_key(tool.name).replace("-", "_").split("_")[0] in READ_VERBS


def _reads_after_prefix(name: str) -> bool:
    """Whether a tool name starts with a server prefix, then a read verb, then its object (`linear_search_issues`,
    `hubspot-list-objects`): the prefix is no verb (`create_list_item` is a write). Used by SCH-005 only: what fuzz
    and init may call stays decided by `cannot_change_state`."""
    parts = field_key(name).replace("-", "_").split("_")
    return len(parts) > 2 and parts[0] not in COMMON_VERBS and parts[0] not in _NOT_PREFIXES and parts[1] in READ_VERBS


_NOT_PREFIXES = frozenset(["bulk", "batch", "kill", "mass", "auto"])
"""First words that qualify the action rather than name the server (`bulk_get_...` may still write)."""


def cannot_change_state(tool: Tool) -> bool:
    """Whether a tool is taken not to change state: it only reads (`reads_only`) and is not annotated
    `destructiveHint: true` or `readOnlyHint: false`. `mcptest init` writes smoke tests of these only, and
    `mcptest fuzz` fuzzes these only unless told `--allow-writes`."""
    hints = tool.annotations or {}
    return reads_only(tool) and hints.get("destructiveHint") is not True and hints.get("readOnlyHint") is not False


def managed_properties(tool: Tool, names: Iterable[str] = DEFAULT_SERVER_MANAGED) -> list[Prop]:
    """The optional properties, at any depth, named like a server-managed field, on a tool that writes."""
    keys = {field_key(n) for n in names}
    if not keys or reads_only(tool) or _reads_after_prefix(tool.name):
        return []
    return [p for p in properties(tool.input_schema) if not p.required and field_key(p.name) in keys]


def sch_005_server_managed_field(tool: Tool, server_managed: Iterable[str] = DEFAULT_SERVER_MANAGED) -> Iterator[Hit]:
    """An input schema exposes a field the server assigns (an id, an owner, a status).

    What it flags: an optional property, at any depth (nested objects, array `items`, `anyOf` branches, `$defs`),
    whose name is in the server-managed list: `id`, `nano_id`, `user_id`, `organization_id`, `owner_id`,
    `assignee_id`, `status_id` by default (`--server-managed a,b,c` or a `tool_quality:` block's
    `server_managed: [...]` replaces it). Names compare in snake_case, so `ownerId` is `owner_id`. Two cases are
    left alone because there the field is a real input: a required property (a lookup key such as
    `get_test_run(id)`), and a tool that only reads (`readOnlyHint: true`, or a name starting with get, list,
    search, find, read, query, fetch, describe, show, count, lookup, view or browse, also after a server prefix
    that is no verb: `linear_search_issues`, `hubspot-list-objects`), where an `owner_id` is a filter.
    Worth acting on: when the server really assigns the field (an id it generates, the caller's own user id from
    the session); a client-chosen id that happens to have one of these names is not a defect.
    Why it matters: document 002's agent spent tokens filling `id`, `owner_id` and `assignee_id` on create calls
    and sent `""` or `null`, which the server rejected: a validation loop over a field it should never have
    seen. Every exposed field is also paid for on every model call (`mcptest doctor --model-view` shows how
    much). It is a warning: the rule judges by name, and a server may accept a client-chosen id on purpose. It is
    pedantic (off by default) since issue 33's ninth round: none of its 7 findings on labelled real catalogs was
    true; document 002's catalog, which it was written against, is where it pays.
    Example: `create_project` with `"owner_id": {"anyOf": [{"type": "string"}, {"type": "null"}]}`
    Fix: drop the field from the inputSchema and fill it on the server (from the session or the auth context).
    """
    for prop in managed_properties(tool, server_managed):
        where = ".".join(str(p) for p in prop.path)
        yield Hit(
            f"{where}: '{prop.name}' is server-managed but exposed as an input",
            "Drop it from inputSchema and fill it on the server.",
            pointer("inputSchema", *prop.path),
        )
