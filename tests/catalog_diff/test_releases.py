"""`mcptest diff` on real releases of server-everything and server-filesystem (their `tools/list` as captured with
`mcptest tools --output` from the npm versions named in each file name): every rename found, none invented, every
change in the right class.

In 2026.1.14 server-everything renamed ten tools from camelCase to kebab-case and reworded, retitled and reshaped
them in the same release; `zip` became `gzip-file-as-resource` with other arguments (a new tool, not a rename).
In 2026.7.10 server-filesystem's `read_media_file` output became `anyOf` [the old content block without "blob",
a resource block].
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from mcptest.diff.classify import diff
from mcptest.records.entries import from_json

RELEASES = Path(__file__).parent / "releases"

RENAMES = [
    ("add", "get-sum"),
    ("annotatedMessage", "get-annotated-message"),
    ("getResourceLinks", "get-resource-links"),
    ("getResourceReference", "get-resource-reference"),
    ("getTinyImage", "get-tiny-image"),
    ("longRunningOperation", "trigger-long-running-operation"),
    ("printEnv", "get-env"),
    ("sampleLLM", "trigger-sampling-request"),
    ("startElicitation", "trigger-elicitation-request"),
    ("structuredContent", "get-structured-content"),
]

PAIRS = [
    (
        "server-everything-2025.11.25",
        "server-everything-2026.1.14",
        RENAMES,
        {
            "breaking:renamed": 10,
            "breaking:removed": 1,
            "breaking:enum_added": 1,
            "risky:description_rewritten": 9,
            "risky:title_changed": 11,
            "risky:argument_description_changed": 2,
            "compatible:added": 3,
            "compatible:argument_now_optional": 1,
            "compatible:extra_arguments_allowed": 3,
            "compatible:maximum_loosened": 1,
            "compatible:minimum_loosened": 1,
            "compatible:minLength_loosened": 1,
            "compatible:optional_argument_added": 1,
        },
    ),
    ("server-everything-2026.1.14", "server-everything-2026.1.26", [], {"compatible:added": 1}),
    (
        "server-everything-2026.1.26",
        "server-everything-2026.8.18",
        [],
        {"compatible:added": 1, "compatible:annotation_changed": 47, "compatible:extra_arguments_allowed": 10},
    ),
    (
        "server-filesystem-2025.8.21",
        "server-filesystem-2025.11.25",
        [],
        {
            "breaking:required_argument_added": 17,
            "breaking:type_narrowed": 13,
            "risky:description_rewritten": 1,
            "risky:title_changed": 14,
            "compatible:annotation_changed": 14,
            "compatible:optional_argument_added": 8,
            "compatible:output_schema_added": 14,
        },
    ),
    (
        "server-filesystem-2025.11.25",
        "server-filesystem-2026.7.10",
        [],
        {
            "breaking:anyOf_branch_added": 1,
            "risky:annotation_changed": 1,
            "risky:description_rewritten": 1,
            "compatible:annotation_changed": 14,
            "compatible:output_enum_value_removed": 1,
        },
    ),
]


def _diff(old: str, new: str):
    read = lambda name: from_json(json.loads((RELEASES / f"{name}.json").read_text(encoding="utf-8")), name)  # noqa: E731
    return diff(read(old), read(new))


@pytest.mark.parametrize(("old", "new", "renames", "classes"), PAIRS, ids=[f"{p[0]}..{p[1][-9:]}" for p in PAIRS])
def test_every_rename_is_found_none_is_invented_and_every_change_is_classed(
    old: str, new: str, renames: list[tuple[str, str]], classes: dict[str, int]
) -> None:
    report = _diff(old, new)
    assert sorted((c.name, c.new_name) for c in report.changes if c.code == "renamed") == renames
    assert Counter(f"{c.impact.value}:{c.code}" for c in report.changes) == Counter(classes)


def test_a_rename_that_came_with_changes_says_so_with_each_change_classed() -> None:
    report = _diff("server-everything-2025.11.25", "server-everything-2026.1.14")
    [message] = [c.message for c in report.changes if c.name == "getResourceReference" and c.code == "renamed"]
    assert message == (
        "tool 'getResourceReference' renamed to 'get-resource-reference', and title changed (risky); "
        "argument 'resourceId' required → optional (compatible); argument 'resourceId': maximum 100 → none "
        "(compatible); argument 'resourceId': minimum 1 → none (compatible); argument 'resourceId': description "
        "changed (risky); optional argument 'resourceType' added (compatible)"
    )
    [zip_gone] = [c for c in report.changes if c.name == "zip"]
    assert (zip_gone.code, zip_gone.impact.value) == ("removed", "breaking")


def test_an_output_that_became_any_of_names_the_branch_added_and_the_enum_value_lost() -> None:
    changes = [c for c in _diff("server-filesystem-2025.11.25", "server-filesystem-2026.7.10").changes if c.pointer]
    outputs = [(c.code, c.pointer, c.message) for c in changes if c.pointer.startswith("/outputSchema")]
    assert outputs == [
        (
            "anyOf_branch_added",
            "/outputSchema/properties/content/items/anyOf/1",
            "tool 'read_media_file': output field 'content[]': anyOf branch 1 added (object; type \"resource\"; "
            "fields type, resource)",
        ),
        (
            "output_enum_value_removed",
            "/outputSchema/properties/content/items/anyOf/0/properties/type",
            "tool 'read_media_file': output field 'content[] (anyOf[0]).type': enum lost \"blob\"",
        ),
    ]
