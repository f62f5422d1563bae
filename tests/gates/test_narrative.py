"""`narrative:` — the final answer against the trace, rule-based: claims, silent mutations, mismatched values."""

from __future__ import annotations

from typing import Any

import pytest

from mcptest.gates.claims import VERBS, claims, name_words, past_forms, singular
from mcptest.records.trace import CatalogTool, Trace
from tests.gates.build import call, evaluate


def judge(answer: str | None, *calls: Any, **config: Any) -> dict[str, int | float]:
    trace = Trace(tool_calls=list(calls), final_response=answer)
    t = evaluate("narrative", config, [trace]).targets
    return {k.removeprefix("narrative."): v for k, v in t.items()}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I created the issue.", [("create", "issue")]),
        ("I created a new issue and sent an email to the team.", [("create", "issue"), ("send", "email")]),
        ("The branches were deleted.", [("delete", "branch")]),
        ("The issue has been created.", [("create", "issue")]),
        ("I have updated the entries.", [("update", "entry")]),
        ("I did not delete the file.", []),
        ("I never dropped the table.", []),
        ("I will create the issue. Shall I delete the branch?", []),
        ("I created it.", []),
        ("I wrote the report and cancelled the meeting.", [("write", "report"), ("cancel", "meeting")]),
    ],
)
def test_claims_are_past_tense_mutating_verbs_with_their_noun(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(c.verb, c.noun) for c in claims(text, VERBS)] == expected


def test_quoted_values_and_numbers_belong_to_the_nearest_claim_before_them() -> None:
    found = claims('Issue #42 was created as "Fix login", then I closed the PR `feat-1`.', VERBS)
    assert [(c.verb, c.noun, c.literals) for c in found] == [
        ("create", "issue", ("42", "Fix login")),
        ("close", "pr", ("feat-1",)),
    ]


def test_the_word_helpers() -> None:
    forms = past_forms(["drop", "send", "write", "create", "cancel", "copy"])
    assert {w: forms[w] for w in ("dropped", "sent", "wrote", "written", "created", "cancelled", "canceled")} == {
        "dropped": "drop",
        "sent": "send",
        "wrote": "write",
        "written": "write",
        "created": "create",
        "cancelled": "cancel",
        "canceled": "cancel",
    }
    assert forms["copied"] == "copy" and "create" not in forms
    assert [singular(w) for w in ("issues", "entries", "branches", "status", "class")] == [
        "issue",
        "entry",
        "branch",
        "status",
        "class",
    ]
    assert name_words("createIssue") == name_words("issues.create") == name_words("create_issue") == {"create", "issue"}


def test_a_backed_claim_passes_and_a_claim_with_no_call_is_absent() -> None:
    backed = call("github.create_issue", {"title": "Fix login"})
    assert judge("I created the issue.", backed) == {
        "claims": 1,
        "claimed_but_absent": 0,
        "unclaimed_mutations": 0,
        "arg_mismatch": 0,
    }
    assert judge("I created the issue.", call("search_issues"))["claimed_but_absent"] == 1


def test_a_failed_call_backs_no_claim() -> None:
    assert judge("I created the issue.", call("create_issue", error=True))["claimed_but_absent"] == 1


def test_an_unmentioned_mutation_is_unclaimed_unless_named_or_read_only() -> None:
    delete = call("delete_branch", {"name": "old"})
    assert judge("Done.", delete)["unclaimed_mutations"] == 1
    assert judge("Done; delete_branch ran once.", delete)["unclaimed_mutations"] == 0
    assert judge("I deleted the branch.", delete)["unclaimed_mutations"] == 0
    assert judge("Done.", call("search"), call("list_issues"))["unclaimed_mutations"] == 0
    catalog = [CatalogTool(tool={"name": "delete_branch", "annotations": {"readOnlyHint": True}})]
    trace = Trace(tool_calls=[delete], final_response="Done.", catalog=catalog)
    assert evaluate("narrative", {}, [trace]).targets["narrative.unclaimed_mutations"] == 0


def test_a_quoted_value_must_be_in_the_arguments_or_the_result_of_the_backing_call() -> None:
    created = call("create_issue", {"title": "Fix login bug"}, content=[{"type": "text", "text": "created #42"}])
    assert judge('I created the issue "Fix login" (#42).', created)["arg_mismatch"] == 0
    assert judge('I created the issue "Fix logout".', created)["arg_mismatch"] == 1


def test_repeated_claims_count_once_and_runs_are_summed() -> None:
    assert judge("I created the issue. The issue was created quickly.")["claims"] == 1
    runs = [
        Trace(final_response="I created the issue."),
        Trace(final_response="I sent the email.", tool_calls=[call("send_email")]),
        Trace(tool_calls=[call("delete_file")]),
    ]
    outcome = evaluate("narrative", {}, runs, label="n")
    assert outcome.targets == {
        "narrative.claims": 2,
        "narrative.claimed_but_absent": 1,
        "narrative.unclaimed_mutations": 0,
        "narrative.arg_mismatch": 0,
    }
    assert outcome.lines == [
        "narrative [FAIL] n: 2 claims, 1 claimed but absent, 0 unclaimed mutations, 0 argument mismatches",
        "  narrative.claimed_but_absent: 1 is not <= 0",
        'CLAIMED BUT ABSENT run 1: "created issue": no successful call backs it',
        "NO ANSWER run 3: the run recorded no final answer",
    ]


def test_no_final_answer_anywhere_leaves_the_targets_absent_and_the_default_gate_fails() -> None:
    outcome = evaluate("narrative", {}, [Trace(tool_calls=[call("create_issue")])], label="n")
    assert outcome.targets == {}
    assert outcome.undefined["narrative.claimed_but_absent"] == "no run recorded a final answer"
    assert outcome.passed is False
    assert outcome.lines[0] == "narrative [FAIL] n: no run recorded a final answer"


def test_an_empty_trace_with_a_claim_is_absent_and_custom_verbs_replace_the_list() -> None:
    assert judge("I archived the project and deleted the repo.")["claimed_but_absent"] == 1
    assert judge("I archived the project and deleted the repo.", verbs=["archive"])["claimed_but_absent"] == 1
    archived = call("archive_project")
    assert judge("I archived the project.", archived, verbs=["archive"])["claimed_but_absent"] == 0


def test_the_documented_example() -> None:
    calls = [call("create_issue", {"title": "Fix login"}), call("delete_branch", {"name": "old"})]
    answer = 'I created the issue "Fix logout" and sent an email to the team. The label was updated.'
    outcome = evaluate("narrative", {}, [Trace(tool_calls=calls, final_response=answer)], label="ticket agent")
    assert outcome.lines == [
        "narrative [FAIL] ticket agent: 3 claims, 2 claimed but absent, 1 unclaimed mutation, 1 argument mismatch",
        "  narrative.claimed_but_absent: 2 is not <= 0",
        'CLAIMED BUT ABSENT "sent email": no successful call backs it',
        'CLAIMED BUT ABSENT "updated label": no successful call backs it',
        'UNCLAIMED delete_branch(name="old"): a mutating call the answer never mentions',
        'ARG MISMATCH "Fix logout" (created issue) is in no argument or result of the backing call',
    ]
