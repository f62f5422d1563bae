"""The labelled real catalogs (tests/lint/real/labels/): every reported finding is labelled, and precision and recall
of the default rules stay at the figures reached (benchmarks/lint_precision.py prints them)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.lint.benchmark_module import load

ROOT = Path(__file__).resolve().parents[2]
LABELS = ROOT / "tests" / "lint" / "real" / "labels"

PRECISION_FLOOR = 0.99
"""Reached: 137 of 137 reported findings are true (100%; issue 19 left 93.2%, its baseline was 54.3%)."""
RECALL_FLOOR = 0.88
"""Reached: 102 of 115 true problems reported (88.7%): git_create_branch's `branch_name`, the name of the one object
the tool's name ends on, is no DESC-006 finding since issue 33's twenty-first round (git_checkout's, the same schema,
still is). 103 of 115 (89.6%) since issue 33's twenty-first round decided that DESC-009 does not
name again an undescribed required string DESC-006 reports (19 TP labels became FP, and 4 labels whose reasons name
another argument, `excludePatterns`' glob form or an `edits` record, are misses now: DESC-009 had been caught on them by
the `path` it no longer names). Before: 135 of 143 true problems reported (94.4%; 137 until issue 33's twelfth round,
when DESC-009 read a list of
records whose fields are each described as showing its form: server-memory's `relations` [{from, to, relationType}],
labelled true here, while the groups labelled by hand before the lint ran dismissed 17 such findings and called none
true; 138, 96.5%, until issue 33's ninth round moved DESC-007 to the
pedantic tier: server-everything's `messageType` is found under --strict, which the strict test below still holds).
Issue 19 reached 99.3%; issue 33 made DESC-009 treat described paths, shas and ids as self-evident and DESC-001 leave
a short but complete description ("List Git branches") alone, so four of the first labels (read_multiple_files,
git_branch twice, sequentialthinking) are no longer reported; DESC-008's one is in the pedantic tier."""


def _benchmark():
    return load("lint_precision")


def test_every_finding_of_the_default_and_the_strict_rules_carries_a_label() -> None:
    bench = _benchmark()
    assert bench.measure().unlabelled == []
    assert bench.measure(strict=True, group="tuned").unlabelled == []


def test_precision_and_recall_on_the_labelled_real_catalogs_stay_at_the_reached_figures() -> None:
    tally = _benchmark().measure(group="tuned")
    assert tally.precision >= PRECISION_FLOOR, tally
    assert tally.recall >= RECALL_FLOOR, tally


def test_the_strict_tier_reports_all_but_the_true_problems_issue_33_set_aside() -> None:
    # 0.97 until the twelfth round: DESC-009 reads records of described fields as shown (server-memory's relations)
    # 0.95 until the twenty-first round: DESC-009 leaves DESC-006's undescribed required strings (see RECALL_FLOOR)
    assert _benchmark().measure(strict=True, group="tuned").recall >= 0.90


@pytest.mark.parametrize("path", sorted(LABELS.glob("*.json")), ids=lambda p: p.stem)
def test_every_label_says_why_and_names_a_real_catalog(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert (ROOT / data["catalog"]).is_file()
    rows = data["findings"] + data.get("misses", []) + data.get("extra", [])
    clean = data.get("unlisted") == "FP" and bool(data.get("note", "").strip())  # a hand-labelled server with no defect
    assert (rows or clean) and all(row["reason"].strip() for row in rows)
    assert all(row["label"] in ("TP", "FP") for row in data["findings"] + data.get("extra", []))


def test_the_first_set_holds_the_four_shared_catalogs_and_three_more_real_servers() -> None:
    files = [json.loads(p.read_text(encoding="utf-8")) for p in LABELS.glob("*.json")]
    catalogs = {d["catalog"] for d in files if "half" not in d}
    assert len(catalogs) == 7
    assert sum(c.startswith("tests/lint/real/") for c in catalogs) == 3


def test_the_labelled_halves_are_the_recorded_random_split() -> None:
    split = json.loads((ROOT / "tests" / "lint" / "real" / "split.json").read_text(encoding="utf-8"))
    assert len(split["tuning"]) >= 6 and not set(split["tuning"]) & set(split["held_out"])
    for path in LABELS.glob("*.json"):
        half = json.loads(path.read_text(encoding="utf-8")).get("half")
        assert half is None or path.stem in split[half], path


SEEN_HALVES_FLOORS = {
    "tuning": (0.98, 0.89),  # recall: DESC-002 over 1,000 since the eleventh round (see below)
    "held_out": (0.98, 0.93),  # kubectl's `output` DESC-007 labels: --strict since the ninth round; 0.93: see below
    "held_out_2": (0.96, 0.90),  # 0.93 until the twenty-first round, 0.91 until the twenty-second: see below
    "held_out_3": (0.90, 0.82),  # 0.83: the fourteenth round; 0.82: the twentieth, see below
    "held_out_4": (0.93, 0.88),  # 0.88: the fourteenth round, see below
    "held_out_5": (0.97, 0.95),
    "held_out_6": (0.96, 0.95),
    "held_out_8": (0.84, 0.91),
    "held_out_9": (0.87, 0.93),
    "held_out_7": (0.94, 0.85),  # the stick no rule was tuned on: a floor now that the round is in
    "held_out_10": (0.80, 0.87),  # seen since its first sight (64.3% / 79.5%), tuned on in the eighth round
    "held_out_11": (0.78, 0.91),  # seen since the ninth round read its false classes (first sight 67.7% / 88.7%)
    "held_out_12": (0.94, 0.95),  # likewise (first sight 83.7% / 95.6%)
    "held_out_13": (0.87, 0.86),  # seen since the eleventh round (first sight 85.8% / 87.0%)
    "held_out_14": (0.80, 0.92),  # seen since the eleventh round (first sight 72.7% / 86.2%)
    "held_out_15": (0.72, 0.84),  # seen since the twelfth round (first sight 73.0% / 85.1%)
    "held_out_16": (0.79, 0.90),  # seen since the twelfth round (first sight 71.8% / 90.9%)
    "held_out_17": (0.80, 0.83),  # likewise (first sight 79.8% / 77.4%)
    "held_out_18": (0.73, 0.83),  # likewise (first sight 68.2% / 73.7%)
    "held_out_19": (0.85, 0.83),  # likewise (first sight with the round's rules then 75.3% / 74.9%)
    "held_out_20": (0.79, 0.73),  # likewise (first sight 79.3% / 74.2%)
    "held_out_21": (0.89, 0.92),  # likewise (first sight 87.3% / 83.6%)
    "held_out_22": (0.76, 0.85),  # seen since the thirteenth round (first sight 63.4% / 68.5%)
    "held_out_23": (0.84, 0.86),  # likewise (first sight 73.0% / 85.7%)
    "held_out_24": (0.80, 0.82),  # seen since the fourteenth round (first sight 71.3% / 83.3%)
    "held_out_25": (0.85, 0.82),  # likewise (first sight 79.9% / 82.7%)
    "held_out_26": (0.91, 0.93),  # floors of the groups seen since, set in the seventeenth round at what they read
    "held_out_27": (0.95, 0.86),
    "held_out_28": (0.97, 0.97),
    "held_out_29": (0.83, 0.89),
    "held_out_30": (0.89, 0.94),  # 0.96 until the twenty-first round, see below
    "held_out_31": (0.85, 0.90),
    "held_out_32": (0.92, 0.92),
    "held_out_33": (0.93, 0.96),  # first sight 92.7% / 92.8% (sixteenth round)
    "held_out_34": (0.85, 0.86),  # first sight 84.5% / 80.1% (sixteenth round); 0.87 until the twenty-first
    "held_out_35": (0.94, 0.94),  # first sight 93.7% / 88.6% (seventeenth round)
    "held_out_36": (0.92, 0.92),  # first sight 91.5% / 87.4% (seventeenth round)
    "held_out_37": (0.92, 0.91),  # first sight 91.0% / 86.1% (seventeenth round)
    "held_out_38": (0.89, 0.97),  # first sight 88.7% / 96.8% (seventeenth round); 0.98 until the twenty-first
    "held_out_39": (0.92, 0.87),  # first sight 92.5% / 83.3% (seventeenth round)
    "held_out_40": (0.88, 0.90),  # first sight 69.5% / 84.2% (seventeenth round; pve-mcp's params model, fixed after)
    "held_out_41": (0.95, 0.86),  # first sight 80.7% / 81.9% (eighteenth round; CloudBase's Chinese, fixed after)
    "held_out_43": (0.88, 0.93),  # first sight 83.3% / 91.0% (eighteenth round)
    "held_out_42": (0.93, 0.92),  # first sight 93.7% / 89.8% (nineteenth round)
    "held_out_44": (0.90, 0.91),  # first sight 82.1% / 80.9% (nineteenth round; agriculture's German, fixed after)
    "held_out_45": (0.95, 0.96),  # first sight 93.3% / 95.9% (nineteenth round)
    "held_out_46": (0.90, 0.82),  # first sight 88.2% / 75.8% (nineteenth round)
    "held_out_47": (0.97, 0.91),  # first sight 97.1% / 89.3% (nineteenth round)
    "held_out_48": (0.98, 0.97),  # first sight 98.2% / 97.3% (nineteenth round)
    "held_out_49": (0.98, 0.94),  # first sight 93.2% / 94.8% (nineteenth round)
    "held_out_50": (0.86, 0.80),  # first sight 78.5% / 81.0% (nineteenth round; Paddle's "This tool will", fixed after)
    "held_out_51": (0.96, 0.87),  # first sight 95.1% / 82.9% (twentieth round; codes with meanings, fixed after)
    "held_out_52": (0.96, 0.96),  # first sight 92.9% / 96.4% (twentieth round; the user's own words, decided after)
    "held_out_53": (0.97, 0.97),  # first sight 95.7% / 97.1% (twentieth round)
    "held_out_54": (0.85, 0.92),  # first sight 82.5% / 89.9% (twentieth round; DESC-014's two places, fixed after)
    "held_out_55": (0.87, 0.91),  # first sight 85.4% / 91.0% (twentieth round; noun phrases before a colon, after)
    "held_out_56": (0.77, 0.92),  # first sight 73.2% / 92.3% (twentieth round; Japanese object keys, fixed after)
    "held_out_57": (0.82, 0.89),  # first sight 80.1% / 89.4% (twentieth round; its labeller's line on local writes)
    "held_out_58": (0.93, 0.96),  # first sight 93.1% / 97.9% (twentieth round); 0.97 until the twenty-first
    "held_out_60": (0.80, 0.92),  # first sight 80.4% / 92.5% (twentieth round, after all its changes)
    "held_out_62": (0.92, 0.76),  # first sight 79.4% / 69.5% (twenty-first round; one-line `Args:`, fixed after)
    "held_out_63": (0.71, 0.90),  # first sight 70.7% / 90.6% (twenty-first round; its labeller's outputSchema line)
    "held_out_64": (0.91, 0.83),  # first sight 89.8% / 81.8% (twenty-first round; labelled in a hurry, see README)
    "held_out_66": (0.90, 0.82),  # first sight 86.6% / 82.9% (twenty-first round)
    "held_out_67": (0.83, 0.91),  # first sight 80.0% / 91.2% (twenty-first round; DESC-004 pedantic after)
    "held_out_68": (0.86, 0.93),  # first sight 86.4% / 93.1% (twenty-first round, as it closed)
    "held_out_70": (0.94, 0.93),  # first sight 94.9% / 90.2% (twenty-second round)
    "held_out_71": (0.90, 0.90),  # first sight 90.2% / 89.7% (twenty-second round)
    "held_out_69": (0.84, 0.83),  # first sight 84.1% / 83.1% (twenty-second round, late)
    "held_out_73": (0.93, 0.94),  # first sight 93.4% / 94.4% (twenty-second round, late)
    "held_out_74": (0.94, 0.89),  # first sight 94.9% / 89.4% (twenty-second round, late)
    "held_out_75": (0.95, 0.93),  # first sight 94.9% / 92.8% (twenty-third round)
    "held_out_76": (0.84, 0.86),  # first sight 82.9% / 84.0% (twenty-third round)
    "held_out_77": (0.94, 0.92),  # first sight 94.7% / 92.8% (twenty-third round)
    "held_out_78": (0.93, 0.95),  # first sight 93.2% / 94.5% (twenty-third round)
    "held_out_79": (0.91, 0.81),  # first sight 91.5% / 81.8% (twenty-third round)
    "held_out_80": (0.88, 0.92),  # first sight 88.9% / 92.3% (twenty-third round)
    "held_out_81": (0.97, 0.94),  # first sight 97.8% / 94.7% (twenty-third round)
    "held_out_82": (0.95, 0.95),  # first sight 96.0% / 95.0% (twenty-third round)
    "held_out_84": (0.96, 0.92),  # first sight 96.4% / 92.1% (twenty-third round, late)
    "held_out_85": (0.93, 0.90),  # first sight 93.8% / 90.7% (twenty-third round, late)
    "held_out_86": (0.95, 0.91),  # first sight 95.0% / 91.9% (twenty-third round, late)
}
"""Reached on issue 33's groups: tuning 92.7% / 94.1%; the first held-out half 97.4% / 96.7% after its
false-positive classes were fixed (it was 73.1% / 96.2% when first measured; once looked at, it counts as seen); the
second held-out set 90.0% / 97.3% after the third round fixed its classes (74.6% / 97.3% when first measured); the
third (nine servers whose defects were written down by hand before the lint ran on them) 77.0% / 84.5%, measured
once: a floor against regressions, not a goal (the goal is 90%). The fourth round fixed held_out_3's and mapbox's
classes (held_out_3 84.5% / 84.1%, held_out_2 92.5% / 97.1%) and measured held_out_4 (mapbox and three servers
labelled by hand before the lint ran on them) at 76.1% / 90.9%. Its DESC-006 change (an argument the tool's prose
names in quotes or backticks is documented there) costs the first held-out half three labels written before that
principle (firecrawl's "Pass the `searchId` returned by ..."): 96.7% -> 95.4% recall. The fourth round's new rules
added true labels: DESC-017 (default) 7 (tuning 94.4%, held_out 95.5%), DESC-016 (pedantic) one on held_out_2
(96.9% with the default rules, 97.1% with --strict). The fifth round measured held_out_5 (five servers labelled by
hand, and the labels committed, before the lint ran on them) once with main's rules: 85.1% / 94.5%. It then decided
the undescribed `id`/`name` once (PRINCIPLE.md; 15 TP labels became FP, which lowers held_out's and held_out_3's
recall by the caught labels they lose) and read another tool's "response" as no result word (DESC-010, 3 hubspot
misses caught), then fixed classes seen across groups, each with a case file: DESC-005 on tools in general ("any
other tool", "slower than other tools"), DESC-010 on searches and read-only queries, SCH-001 on filters described
by what they match, SCH-005 on read tools behind a server prefix (`linear_search_issues`), DESC-009 on arguments
that name the documented syntax they follow. Reached: tuning 93.7% / 94.4%, held_out 97.8% / 95.3%, held_out_2
93.3% / 96.9%, held_out_3 84.6% / 84.8%, held_out_4 83.8% / 90.9%, held_out_5 (now seen) 95.6% / 94.5%.
The sixth round measured held_out_6 (nine PyPI servers labelled by hand, capture and labels committed before the lint
ran on them) once with main's rules: 64.8% / 90.5%. It then read a docstring `Args:` line as the argument's
description (DESC-006, -009, -013; PRINCIPLE.md's sixth-round decision relabels three duckduckgo labels TP -> FP),
counted whitespace runs once in DESC-002 (held_out_2 loses two desktop-commander labels whose text is 411 and 487
characters once the indentation is collapsed: 96.9% -> 96.5% recall), took time spans and spelled-out
abbreviations as self-describing (DESC-007), analysis and comparison verbs as naming their result (DESC-010),
upper-case constants in parentheses as a value set (DESC-013), and nullable caps and mixed unions as hiding no bound
(SCH-007), then read "This tool retrieves ..." and "a table will be displayed showing ..." as a result (DESC-010)
and a Django text lookup as free text (DESC-009), and "Capture ..." as a read verb. Reached: held_out_3 86.4% / 84.8%,
held_out_4 85.7% / 90.9% (86.9% with a concurrent SCH-001 change), held_out_5 96.6% / 94.5%, held_out_6 (now seen)
96.6% / 91.1%; the others unchanged.
The integrator then took held_out_8 and held_out_9 as seen (their first-sight figures recorded in docs/quality.md:
39.9% / 73.7% and 60.9% / 93.6%) and fixed their classes: MCP Apps app-only tools, descriptions in scripts the word
tests cannot read (DESC-001), described wrapper objects (DESC-006, DESC-009), SCH-001 on objects whose need is not
plain, and one finding per argument schema repeated word for word across tools for the DESC rules too (as for the SCH
rules): held_out_8 62.6% / 72.8%, held_out_9 72.4% / 93.6%. Merging repeats merges true findings as well, so
held_out_3 reads 85.7% (197 true of 230, 33 false) where it read 86.1% (247 of 286, 39 false): fewer false
findings and fewer findings in all, the floor moved with the count (0.86 -> 0.85); held_out_2 reads 93.5% (433 of
463, 30 false; was 528 of 559, 31 false).
The seventh round (lint6b) took as evident a number key of an object the tool names, the fields every sign-up or map
form has and a tagged request (DESC-006; PRINCIPLE.md's seventh-round decision relabels github's three
`issue_number` and datadog's `downtimeId`, 4 labels), and read "Extract ...", "Use this tool to get ...", a
bracketed tag and a screenshot with nowhere to keep it as naming the result (DESC-010): held_out_4 88.5% -> 90.3%,
held_out_9 72.4% -> 79.4%, held_out_3 85.7% -> 86.0%; held_out_2 loses one DESC-010 label (youtube's "Extract
transcript ...": 96.5% -> 96.3% recall). Then SCH-004 reported the same field in several variants of one union once
(line-bot's nine action `label`s), SCH-001 took a plain field beside two or more options as one more option (git
tools' `depth`, `remoteBranch`) and a continuation token as paging, and DESC-007 took MIME types, languages by name,
Y/yes and an `order` described as a sort as self-describing: tuning 95.2%, held_out_5 97.7%, held_out_8 62.6% ->
71.9%, held_out_9 80.4%, no recall lost. SCH-010 then joined the default tier (no longer reading an item's length,
another noun's count or an integer type's range as a limit; 7 true findings in earlier groups labelled as `extra`):
recall tuning 96.0%, held_out 97.4%, held_out_5 96.7%, held_out_6 91.1% -> 96.8%, held_out_8 76.3%, held_out_9
94.3%; held_out_8 precision 72.9%. Then severity followed what fails calls (DESC-006 and DESC-001 lower to a warning
where an agent would not fail: no precision change) and DESC-009 took a record's string fields named as free text
(`content`, described or not) as showing their form: held_out_2 95.2%, held_out_3 86.5%, held_out_8 75.7%, held_out_9
82.0% (with the eighth round's changes merged).
The ninth round moved DESC-007, SCH-005, SCH-006 and SCH-007 to the pedantic tier (3 true of 52 findings on the
labelled sets, none of the 28 on servers no rule was tuned on), read a union of numbers or null as a number, a
typed map (`additionalProperties: {"type": "string"}`) and a named standard (IANA, ISO 4217, a MIME type) as showing
their form, and a "JSON document" or "JSON file" as the referent, not the argument's form (DESC-009): held_out_3
87.6%, held_out_4 91.3%, held_out_7 91.9%, held_out_8 77.7%, held_out_9 86.3%, held_out_10 75.6%, held_out_11 73.8%,
held_out_12 91.5%; recall lost only the three DESC-007 labels (tuned 95.8%, held_out 96.5%). SCH-010 then read a
file-name suffix demanded in prose ("must end with .png, .jpg or .jpeg"): held_out_11 recall 90.5%, held_out_7 85.6%.
The eleventh round found Chinese and Japanese writes that never say what comes back (DESC-010: chatwork's 16 labels,
held_out_8 recall 91.2%) and moved DESC-002's default bound to 1,000 characters (500 stays under --strict): of the
descriptions of 500 to 1,000 characters, the groups labelled by hand before the lint ran (held_out_3 to held_out_13)
called 13 of 73 worth shortening, the earlier labellers 24 of 29. Precision rose wherever the hand labellers' line held
(held_out_3 90.7%, held_out_7 94.6%, held_out_10 78.6%, held_out_11 78.6%, held_out_12 94.7%) and recall fell where
the earlier line did (tuning 96.0% -> 89.7%, held_out 96.5% -> 95.2%, held_out_2 96.3% -> 94.0%, held_out_3 86.1% ->
84.8%, held_out_4 90.6% -> 89.5%, held_out_5 96.7% -> 95.6%, held_out_6 96.8% -> 95.6%, held_out_9 94.3% -> 93.6%):
over the fifteen groups, 89.2% / 92.3% -> 91.0% / 91.1%. The twelfth round read "required if/when B is set" as a
dependency between two arguments, not a choice of one (SCH-009 had reported "asks for one of A, B" on it): the labellers
of held_out_11, held_out_15 and held_out_16 left such dependencies alone (10 of held_out_16's first-sight false
findings); earlier ones had labelled some true under the rule's reading (firecrawl's `goal`, "required when `queries`
are set": held_out recall 95.2% -> 94.8%; CircleCI's `branch`, "required when using projectSlug": held_out_2 recall
94.9% -> 94.0%). The fourteenth round stopped reading a name inside a list of a record's parts as a record to bound
(SCH-004: 24 findings the labellers dismissed, 4 they kept, three of them held_out_3's: hubspot's option `label`s and
a task planner's `tasks[].title`): held_out_3 recall 85.1% -> 83.6%, its floor 0.84 -> 0.83. It then decided that an
open nested record whose every field is required is no SCH-002 defect (PRINCIPLE.md; 80 TP labels became FP, 31 of
them mapbox's, which lowers held_out_4's recall by the caught labels it loses: 89.5% -> 88.8%, floor 0.89 -> 0.88).
The twentieth round decided that an undescribed required string of the user's own words (`query`, `title`, `message`)
in a tool that says what it does is no DESC-006 defect (PRINCIPLE.md; 35 TP labels became FP, 23 of them held_out_3's
wikipedia and pinecone labels, all caught, which lowers held_out_3's recall by the caught labels it loses: 84.2% ->
82.7%, floor 0.83 -> 0.82). The twenty-first round decided that DESC-009 does not name again an undescribed required
string DESC-006 reports, or one the tool description names, whose form any description would give (PRINCIPLE.md): the
groups labelled by hand since held_out_4 had dismissed 94 such findings and kept 21. 77 TP labels became FP (42 of
them held_out_2's excel and desktop-commander labels, 19 the tuned set's), and the labels whose reasons name another
argument the old finding never named (an `excludePatterns` glob, sec-edgar's untyped `metrics` list, shelly's
free-form `config`) stay, now misses: held_out recall 94.7% -> 93.2%, held_out_2 93.3% -> 91.3%, held_out_30 96.7% ->
94.3%, held_out_34 88.3% -> 86.4%, held_out_38 98.1% -> 97.4%, held_out_58 97.9% -> 96.9%, each floor down by what
it lost. The twenty-second round read a call written with keywords in the description (`value='#ff0000'
source='hex'`) as showing the arguments it sets (DESC-006, DESC-009): desktop-commander's `get_prompts.action`, a
one-value enum that its description sets to 'get_prompt' five times, was labelled "the agent guesses its form"
before that reading and is a miss now: held_out_2 91.3% -> 90.8% (floor 0.91 -> 0.90)."""


@pytest.mark.parametrize("group", sorted(SEEN_HALVES_FLOORS))
def test_the_seen_halves_keep_their_reached_figures(group: str) -> None:
    tally = _benchmark().measure(group=group)
    precision, recall = SEEN_HALVES_FLOORS[group]
    assert tally.precision >= precision and tally.recall >= recall, (tally.precision, tally.recall)
