"""Precision and recall of the default lint on the labelled real catalogs in tests/lint/real/labels/.

Every finding the default rule selection reports on a real third-party catalog must carry a label (TP: a careful
server author would act on it; FP: they would dismiss it), each with a reason. A label file holds:
- `findings`: the labels of what the lint reported when the set was labelled (before the rules were refined);
- `misses`: true problems a rule's own definition covers that the lint did not report then (always TP);
- `extra`: findings a refined rule reports that the first labelling had not seen, labelled the same way.

The label files fall in four groups (`half` in the file): `tuned` (no `half`: the seven catalogs the rules were
first tuned on), `tuning` (issue 33's tuning half), `held_out` (issue 33's first held-out half: measured once, then
its false-positive classes were fixed, so it is now seen) and `held_out_2` (twelve servers captured and labelled
only after the second round of rule changes, now seen too) and `held_out_3` (servers captured after the third
round, whose true defects were written down by hand from the catalogs before the lint was run on them: such a file
says `"unlisted": "FP"`, so a finding it does not list counts as a false positive) and `held_out_4` (labelled the
same way in the fourth round: mapbox, never linted before, and three servers captured then) and `held_out_5`
(five servers labelled the same way in the fifth round, their labels committed before the lint first ran on them)
and `held_out_6` (nine PyPI servers labelled the same way in the sixth round; a server with no defect has an empty
list), and `held_out_7` (ten servers labelled the same way in the sixth round by a helper that changes no rule: the
measuring stick no rule is tuned on), `held_out_8` and `held_out_9` (eleven and seven more, each labelled the same
way after the one before was measured), and `held_out_10` (thirteen npm and PyPI servers labelled the same way in the
eighth round), and `held_out_11` and `held_out_12` (six more, then Redis' server, labelled the same way in the ninth
round: the sticks the final rules are measured on), and `held_out_13` (seven npm and PyPI servers labelled the same
way in the tenth round), and `held_out_14` (nine npm and PyPI servers labelled the same way after held_out_13 was
measured), and `held_out_15` (six npm and PyPI servers labelled the same way after held_out_14 was measured),
and `held_out_16` (six npm servers labelled the same way after held_out_15 was measured), and `held_out_17`
(seven npm and PyPI servers labelled the same way after held_out_16 was captured), and `held_out_18` (five npm and
PyPI servers labelled the same way after held_out_17 was captured), and `held_out_19` (six npm and PyPI servers labelled
the same way after held_out_18 was captured), and `held_out_20` (five npm and PyPI servers labelled the same way after
held_out_19 was captured), and `held_out_21` (nine npm and PyPI servers labelled the same way after held_out_20 was
captured), and `held_out_22` (six npm and PyPI servers labelled the same way after held_out_21 was captured), and
`held_out_23` (six npm and PyPI servers labelled the same way alongside held_out_22), and `held_out_24` (four PyPI and
npm servers labelled the same way after held_out_23 was measured), and `held_out_25` (six PyPI and npm servers labelled
the same way alongside held_out_24), and `held_out_26` (four PyPI servers labelled the same way after held_out_25 was
captured), and `held_out_27` (four PyPI and npm servers labelled the same way alongside held_out_26), and
`held_out_28` (six PyPI servers labelled the same way alongside held_out_29), and `held_out_29` (six PyPI and npm
servers labelled the same way alongside held_out_28), and `held_out_30` (four PyPI servers labelled the same way
alongside held_out_29), and `held_out_31` (six PyPI and npm servers labelled the same way alongside held_out_32),
and `held_out_32` (seven PyPI servers labelled the same way alongside held_out_31), and `held_out_33` (four PyPI
servers labelled the same way alongside held_out_34), and `held_out_34` (six PyPI and two npm servers labelled the same
way alongside held_out_33), and `held_out_35` (six PyPI servers labelled the same way alongside held_out_36), and
`held_out_36` (four npm and three PyPI servers labelled the same way alongside held_out_35), and `held_out_37` (six
PyPI servers and one npm server labelled the same way alongside held_out_38), and `held_out_38` (five npm and two
PyPI servers labelled the same way alongside held_out_37), and `held_out_39` (five PyPI servers labelled the same way
alongside held_out_40), and `held_out_40` (five npm and two PyPI servers labelled the same way alongside held_out_39),
and `held_out_41` (five PyPI servers and one npm server labelled the same way alongside held_out_42 and held_out_43),
and `held_out_43` (three npm and three PyPI servers labelled the same way alongside held_out_41 and held_out_42),
and `held_out_44` (four npm and four PyPI servers labelled the same way alongside held_out_42 and held_out_45),
and `held_out_42` (five npm and three PyPI servers labelled the same way alongside held_out_44 and held_out_45),
and `held_out_45` (three npm and three PyPI servers labelled the same way alongside held_out_42 and held_out_44),
and `held_out_46` (two npm and three PyPI servers labelled the same way alongside held_out_47 and held_out_48),
and `held_out_47` (four PyPI servers labelled the same way alongside held_out_46 and held_out_48),
and `held_out_48` (two npm and two PyPI servers labelled the same way alongside held_out_46 and held_out_47),
and `held_out_49` (one npm and four PyPI servers labelled the same way alongside held_out_50 and held_out_51),
and `held_out_50` (one npm and one PyPI server labelled the same way alongside held_out_49 and held_out_51),
and `held_out_51` (two npm and three PyPI servers labelled the same way alongside held_out_52, held_out_53 and
    held_out_54),
and `held_out_52` (two npm and two PyPI servers labelled the same way alongside held_out_51, held_out_53 and
    held_out_54),
and `held_out_53` (one npm and three PyPI servers labelled the same way alongside held_out_51, held_out_52 and
    held_out_54),
and `held_out_54` (one npm and four PyPI servers labelled the same way alongside held_out_51, held_out_52 and
    held_out_53),
and `held_out_55` (five PyPI servers labelled the same way alongside held_out_56, held_out_57 and held_out_58),
and `held_out_56` (one npm and four PyPI servers labelled the same way alongside held_out_55, held_out_57 and
    held_out_58),
and `held_out_57` (one npm and four PyPI servers labelled the same way alongside held_out_55, held_out_56 and
    held_out_58),
and `held_out_58` (two npm and three PyPI servers labelled the same way alongside held_out_55, held_out_56 and
    held_out_57),
and `held_out_60` (three PyPI servers labelled the same way alongside held_out_59 and held_out_61),
and `held_out_62` (one npm and two PyPI servers labelled the same way alongside held_out_63 to held_out_66),
and `held_out_63` (three PyPI servers labelled the same way alongside held_out_62 and held_out_64 to held_out_66),
and `held_out_64` (three PyPI servers labelled the same way alongside held_out_62, held_out_63, held_out_65 and
    held_out_66),
and `held_out_66` (one npm and three PyPI servers labelled the same way alongside held_out_62 to held_out_65),
and `held_out_67` (three PyPI servers labelled the same way alongside held_out_63, held_out_64, held_out_65 and
    held_out_68),
and `held_out_68` (two npm and three PyPI servers labelled the same way alongside held_out_63, held_out_64, held_out_65
    and held_out_67),
and `held_out_69` (one npm and three PyPI servers labelled the same way alongside held_out_70, held_out_71 and
    held_out_72),
and `held_out_70` (two npm and two PyPI servers labelled the same way alongside held_out_69, held_out_71 and
    held_out_72),
and `held_out_71` (two npm and two PyPI servers labelled the same way alongside held_out_69, held_out_70 and
    held_out_72),
and `held_out_73` (one npm and three PyPI servers labelled the same way alongside held_out_69, held_out_72 and
    held_out_74),
and `held_out_74` (one npm and two PyPI servers labelled the same way alongside held_out_69, held_out_72 and
    held_out_73),
and `held_out_75` (one npm and three PyPI servers labelled the same way alongside held_out_76, held_out_77 and
    held_out_78),
and `held_out_76` (two npm and two PyPI servers labelled the same way alongside held_out_75, held_out_77 and
    held_out_78),
and `held_out_77` (one npm and five PyPI servers labelled the same way alongside held_out_75, held_out_76 and
    held_out_78),
and `held_out_78` (one npm and two PyPI servers labelled the same way alongside held_out_75, held_out_76 and
    held_out_77),
and `held_out_79` (three npm and one PyPI servers labelled the same way alongside held_out_80, held_out_81 and
    held_out_82),
and `held_out_80` (two npm and one PyPI server labelled the same way alongside held_out_79, held_out_81 and
    held_out_82),
and `held_out_81` (four PyPI servers labelled the same way alongside held_out_79, held_out_80 and
    held_out_82),
and `held_out_82` (three PyPI servers labelled the same way alongside held_out_79, held_out_80 and held_out_81),
and `held_out_84` (three PyPI servers labelled the same way alongside held_out_83, held_out_85 and
    held_out_86),
and `held_out_85` (one npm and three PyPI servers labelled the same way alongside held_out_83, held_out_84 and
    held_out_86),
and `held_out_86` (one npm and four PyPI servers labelled the same way alongside held_out_83, held_out_84 and
    held_out_85);
tests/lint/real/split.json records the groups. Each group's figures are printed apart.

precision = reported findings labelled TP / reported findings
recall    = TP labels (findings + misses) a reported finding still covers / all TP labels

A finding that concerns several fields (`pointers`) covers the label of each; one that reports a defect repeated
across tools (`also`) covers its label on each of them. Prints the figures, a per-rule
table, and any reported finding without a label (the test in tests/lint/test_real_precision.py fails on one).

    python benchmarks/lint_precision.py [--strict] [--select CODES] [--group GROUP (tuned, tuning, held_out, ...)]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LABELS = ROOT / "tests" / "lint" / "real" / "labels"

Key = tuple[str, str, str]
GROUPS = (
    "tuned",
    "tuning",
    "held_out",
    "held_out_2",
    "held_out_3",
    "held_out_4",
    "held_out_5",
    "held_out_6",
    "held_out_7",
    "held_out_8",
    "held_out_9",
    "held_out_10",
    "held_out_11",
    "held_out_12",
    "held_out_13",
    "held_out_14",
    "held_out_15",
    "held_out_16",
    "held_out_17",
    "held_out_18",
    "held_out_19",
    "held_out_20",
    "held_out_21",
    "held_out_22",
    "held_out_23",
    "held_out_24",
    "held_out_25",
    "held_out_26",
    "held_out_27",
    "held_out_28",
    "held_out_29",
    "held_out_30",
    "held_out_31",
    "held_out_32",
    "held_out_33",
    "held_out_34",
    "held_out_35",
    "held_out_36",
    "held_out_37",
    "held_out_38",
    "held_out_39",
    "held_out_40",
    "held_out_41",
    "held_out_42",
    "held_out_43",
    "held_out_44",
    "held_out_45",
    "held_out_46",
    "held_out_47",
    "held_out_48",
    "held_out_49",
    "held_out_50",
    "held_out_51",
    "held_out_52",
    "held_out_53",
    "held_out_54",
    "held_out_55",
    "held_out_56",
    "held_out_57",
    "held_out_58",
    "held_out_60",
    "held_out_62",
    "held_out_63",
    "held_out_64",
    "held_out_66",
    "held_out_67",
    "held_out_68",
    "held_out_69",
    "held_out_70",
    "held_out_71",
    "held_out_73",
    "held_out_74",
    "held_out_75",
    "held_out_76",
    "held_out_77",
    "held_out_78",
    "held_out_79",
    "held_out_80",
    "held_out_81",
    "held_out_82",
    "held_out_84",
    "held_out_85",
    "held_out_86",
)


@dataclass
class Tally:
    """The counts behind the figures, overall and per rule."""

    reported_tp: Counter[str] = field(default_factory=Counter)
    reported_fp: Counter[str] = field(default_factory=Counter)
    true_labels: Counter[str] = field(default_factory=Counter)
    caught: Counter[str] = field(default_factory=Counter)
    unlabelled: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float:
        """Reported findings labelled TP over reported findings (1.0 when nothing is reported)."""
        reported = sum(self.reported_tp.values()) + sum(self.reported_fp.values())
        return sum(self.reported_tp.values()) / reported if reported else 1.0

    @property
    def recall(self) -> float:
        """TP labels still covered by a reported finding over all TP labels."""
        total = sum(self.true_labels.values())
        return sum(self.caught.values()) / total if total else 1.0


def _labels(data: dict) -> dict[Key, str]:
    out: dict[Key, str] = {}
    for kind in ("findings", "misses", "extra"):
        for row in data.get(kind, []):
            out[(row["tool"], row["rule"], row["pointer"])] = "TP" if kind == "misses" else row["label"]
    return out


def group_of(data: dict) -> str:
    """Which group a label file belongs to: its `half`, or `tuned` for the first seven catalogs."""
    return str(data.get("half", "tuned"))


def measure(
    select: list[str] | None = None,
    strict: bool = False,
    group: str | None = None,
    labels_dir: Path = LABELS,
    names: Collection[str] | None = None,
) -> Tally:
    """Lint every labelled catalog (of one group, or all) with the chosen rules and tally findings against labels.

    `labels_dir` is where the label files are read from (another labeller's set, benchmarks/label_agreement.py);
    `names` keeps only the label files with these stems."""
    from mcptest.checks.lint import lint_tools, select_rules

    rules = select_rules(select or (), (), strict=strict)
    tally = Tally()
    for path in sorted(labels_dir.glob("*.json")):
        if names is not None and path.stem not in names:
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        if group is not None and group_of(data) != group:
            continue
        labels = _labels(data)
        covered: set[Key] = set()
        findings = [f for found in lint_tools(_tools(data["catalog"]), rules) for f in found]
        for finding in findings:  # the findings alone: scores and token counts are not needed here
            if finding.rule == "PASS":
                continue
            tools = (finding.tool, *finding.also)  # a defect repeated across tools is reported once, for all
            places = dict.fromkeys((finding.pointer or "", *finding.pointers))  # its place and each field it names
            keys = [(t, finding.rule, p) for t in tools for p in places]
            covered.update(keys)
            verdicts = {labels[k] for k in keys if k in labels}
            if not verdicts and data.get("unlisted") in ("TP", "FP"):
                verdicts = {data["unlisted"]}  # a set labelled before the lint ran: what it did not list
            if not verdicts:
                tally.unlabelled.append(f"{path.stem}: {finding.tool} {finding.rule} {finding.pointer}")
            elif "TP" in verdicts:
                tally.reported_tp[finding.rule] += 1
            else:
                tally.reported_fp[finding.rule] += 1
        for key, verdict in labels.items():
            if verdict == "TP":
                tally.true_labels[key[1]] += 1
                tally.caught[key[1]] += key in covered
    return tally


@cache
def _tools(catalog: str) -> tuple:
    """A catalog's tools, read once per process (loading validates every schema: the slow part of a measure)."""
    from mcptest.records.catalog import load_catalog

    return tuple(load_catalog(ROOT / catalog).tools)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strict", action="store_true", help="Also run the pedantic rules.")
    parser.add_argument("--select", action="append", help="Rule codes or prefixes (repeatable).")
    parser.add_argument("--group", choices=GROUPS, action="append", help="Only these groups (default: each apart).")
    args = parser.parse_args()
    for group in args.group or GROUPS:
        print(f"== {group}")
        report(measure(args.select, args.strict, group))
        print()


def report(tally: Tally) -> None:
    """Print one group's per-rule table, its figures and any unlabelled finding."""
    rules = sorted(set(tally.reported_tp) | set(tally.reported_fp) | set(tally.true_labels))
    print(f"{'rule':<10}{'TP':>5}{'FP':>5}{'true':>6}{'caught':>8}")
    for rule in rules:
        counters = (tally.reported_tp, tally.reported_fp, tally.true_labels, tally.caught)
        tp, fp, true, caught = (c[rule] for c in counters)
        print(f"{rule:<10}{tp:>5}{fp:>5}{true:>6}{caught:>8}")
    tp, fp = sum(tally.reported_tp.values()), sum(tally.reported_fp.values())
    print(f"\nreported {tp + fp} findings: {tp} TP, {fp} FP")
    print(
        f"precision {tally.precision:.1%}  recall {tally.recall:.1%} "
        f"({sum(tally.caught.values())} of {sum(tally.true_labels.values())} true problems)"
    )
    for line in tally.unlabelled:
        print(f"UNLABELLED {line}")


if __name__ == "__main__":
    main()
