"""How far two careful human labellers agree on the labelled real catalogs: the human ceiling for the lint's figures.

tests/lint/real/labels/ holds each catalog's first labels (A); tests/lint/real/labels_second/ holds a second,
blind labelling (B) of some of them (held_out_15's six), written by hand from a printout of each catalog alone,
without seeing A or the lint's output. For each catalog with a file in labels_second/, the two true sets are compared
by key (tool, rule, pointer), the key benchmarks/lint_precision.py matches a finding to a label by. A's true set is
its TP rows (`findings`, `misses` and `extra`, read with lint_precision's `_labels`); B's is the same of B's file.

B's precision against A = keys B lists as TP that A lists as TP too / all B's TP keys
B's recall against A    = A's TP keys that B lists as TP too / all A's TP keys
and the same with A and B swapped (A's precision against B is B's recall against A, and the other way round).

Printed: those figures per catalog and overall, and overall again without the labels read off the schema with no
judgment ("judged only": DESC-012, no annotations object; SCH-002 at the root, an open root); a per-rule table of
the disagreements (keys both list, keys only A lists, keys only B lists, and the "place" pairs: a tool and rule both
list at different pointers, one defect put in two places); and the lint's own figures on the same catalogs with
lint_precision's `measure` (a finding the label file does not list counts as FP: every file here says
`"unlisted": "FP"`) against A, against B, against their union (a finding either labeller calls true) and against their
intersection (the defects both list). The lint and the second human are so read on equal terms: a lint that reaches
against A what a second careful human reaches against A is at the ceiling the labels allow.

    python benchmarks/label_agreement.py [--strict] [--no-lint]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from lint_precision import LABELS, Key, Tally, _labels, measure  # noqa: E402

SECOND = ROOT / "tests" / "lint" / "real" / "labels_second"


def true_set(path: Path) -> set[Key]:
    """The (tool, rule, pointer) keys a label file calls TP: its TP findings and extra rows, and every miss."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return {key for key, verdict in _labels(data).items() if verdict == "TP"}


@dataclass(frozen=True)
class Agreement:
    """Two labellers' true sets for the same catalogs, and what they share."""

    a: frozenset[Key]
    b: frozenset[Key]

    @property
    def both(self) -> frozenset[Key]:
        return self.a & self.b

    @property
    def only_a(self) -> frozenset[Key]:
        return self.a - self.b

    @property
    def only_b(self) -> frozenset[Key]:
        return self.b - self.a

    @staticmethod
    def _share(part: int, whole: int) -> float:
        return part / whole if whole else 1.0

    @property
    def precision_b(self) -> float:
        """B's TP labels that A also lists as TP, over all B's TP labels."""
        return self._share(len(self.both), len(self.b))

    @property
    def recall_b(self) -> float:
        """A's TP labels that B also lists as TP, over all A's TP labels."""
        return self._share(len(self.both), len(self.a))

    precision_a = recall_b
    """A's precision against B is B's recall against A."""
    recall_a = precision_b
    """A's recall against B is B's precision against A."""

    @property
    def place_only(self) -> frozenset[tuple[str, str]]:
        """(tool, rule) pairs both list, each at a pointer the other does not name: one defect, two places."""
        return frozenset({k[:2] for k in self.only_a} & {k[:2] for k in self.only_b})

    def by_rule(self) -> dict[str, tuple[int, int, int, int]]:
        """Per rule code: (keys both list, keys only A lists, keys only B lists, of those the place-only pairs)."""
        parts = {"both": self.both, "only_a": self.only_a, "only_b": self.only_b, "place": self.place_only}
        counts = {name: Counter(key[1] for key in keys) for name, keys in parts.items()}
        rules = sorted(set(counts["both"]) | set(counts["only_a"]) | set(counts["only_b"]))
        both, only_a, only_b, place = (counts[name] for name in parts)
        return {rule: (both[rule], only_a[rule], only_b[rule], place[rule]) for rule in rules}

    def without(self, mechanical: Callable[[Key], bool]) -> Agreement:
        """The same comparison with the keys `mechanical` picks left out of both sets."""
        return Agreement(
            frozenset(k for k in self.a if not mechanical(k)), frozenset(k for k in self.b if not mechanical(k))
        )


def mechanical(key: Key) -> bool:
    """A label read off the schema with no judgment: a missing annotations object, an open root."""
    return key[1] == "DESC-012" or (key[1] == "SCH-002" and key[2] == "/inputSchema")


def compare(a: set[Key], b: set[Key]) -> Agreement:
    """The agreement of true set B with true set A."""
    return Agreement(frozenset(a), frozenset(b))


def catalogs() -> list[str]:
    """The catalogs labelled a second time: each labels_second/ file whose catalog has first labels too."""
    return [path.stem for path in sorted(SECOND.glob("*.json")) if (LABELS / path.name).is_file()]


def agreements(names: list[str]) -> dict[str, Agreement]:
    """Each catalog's agreement, keyed by name (tool names are only unique within a catalog)."""
    return {name: compare(true_set(LABELS / f"{name}.json"), true_set(SECOND / f"{name}.json")) for name in names}


def overall(per_catalog: dict[str, Agreement]) -> Agreement:
    """All catalogs' keys pooled, each key prefixed by its catalog so that equal tool names stay apart."""

    def pooled(side: str) -> set[Key]:
        return {(f"{name}:{k[0]}", k[1], k[2]) for name, ag in per_catalog.items() for k in getattr(ag, side)}

    return compare(pooled("a"), pooled("b"))


def lint_figures(names: list[str], strict: bool = False) -> dict[str, Tally]:
    """The lint's tally on these catalogs against A's labels, B's, their union and their intersection.

    Each is lint_precision's `measure` on a directory of label files; the union and the intersection are written
    as such files (every key TP, the rest unlisted, so FP) to a temporary directory first."""
    tallies = {
        "A (first)": measure(strict=strict, labels_dir=LABELS, names=names),
        "B (second)": measure(strict=strict, labels_dir=SECOND, names=names),
    }
    per_catalog = agreements(names)
    for who, side in (("A or B", "union"), ("A and B", "intersection")):
        with tempfile.TemporaryDirectory() as tmp:
            for name, ag in per_catalog.items():
                keys = ag.a | ag.b if side == "union" else ag.both
                catalog = json.loads((SECOND / f"{name}.json").read_text(encoding="utf-8"))["catalog"]
                rows = [{"tool": t, "rule": r, "pointer": p, "label": "TP", "reason": side} for t, r, p in sorted(keys)]
                data = {"catalog": catalog, "unlisted": "FP", "findings": rows}
                (Path(tmp) / f"{name}.json").write_text(json.dumps(data), encoding="utf-8")
            tallies[who] = measure(strict=strict, labels_dir=Path(tmp), names=names)
    return tallies


def _pct(value: float) -> str:
    return f"{value:.1%}"


def report(per_catalog: dict[str, Agreement], lint: dict[str, Tally] | None) -> None:
    """Print the per-catalog and overall agreement, the per-rule disagreements and the lint's figures."""
    head = f"{'catalog':<28}{'A':>5}{'B':>5}{'both':>6}{'A only':>8}{'B only':>8}"
    print(head + f"{'P(B|A)':>9}{'R(B|A)':>9}{'P(A|B)':>9}{'R(A|B)':>9}")
    total = overall(per_catalog)
    rows = {**per_catalog, "overall": total, "overall, judged only": total.without(mechanical)}
    for name, ag in rows.items():
        counts = f"{name:<28}{len(ag.a):>5}{len(ag.b):>5}{len(ag.both):>6}{len(ag.only_a):>8}{len(ag.only_b):>8}"
        figures = (ag.precision_b, ag.recall_b, ag.precision_a, ag.recall_a)
        print(counts + "".join(f"{_pct(f):>9}" for f in figures))
    print("\nP(B|A): B's precision against A (B's TP labels A lists too); R(B|A): B's recall against A.")
    print("P(A|B), R(A|B): the same with A and B swapped. 'judged only' leaves out the labels read off the schema")
    print("with no judgment (DESC-012: no annotations object; SCH-002 at /inputSchema: an open root).\n")
    print("disagreements by rule (keys, all catalogs; 'place' counts the tool-and-rule pairs both list at different")
    print("pointers, each also counted once under A only and once under B only)")
    print(f"{'rule':<10}{'both':>6}{'A only':>8}{'B only':>8}{'place':>7}")
    for rule, (both, only_a, only_b, place) in total.by_rule().items():
        print(f"{rule:<10}{both:>6}{only_a:>8}{only_b:>8}{place:>7}")
    if lint is None:
        return
    print("\nthe lint on the same catalogs (default rules unless --strict)")
    print(f"{'against':<12}{'reported':>9}{'TP':>5}{'FP':>5}{'true':>6}{'caught':>8}{'precision':>11}{'recall':>8}")
    for who, tally in lint.items():
        tp, fp = sum(tally.reported_tp.values()), sum(tally.reported_fp.values())
        true, caught = sum(tally.true_labels.values()), sum(tally.caught.values())
        line = f"{who:<12}{tp + fp:>9}{tp:>5}{fp:>5}{true:>6}{caught:>8}"
        print(line + f"{_pct(tally.precision):>11}{_pct(tally.recall):>8}")
        for unlabelled in tally.unlabelled:
            print(f"  UNLABELLED {unlabelled}")
    print(
        f"the second labeller against A: precision {_pct(total.precision_b)}, recall {_pct(total.recall_b)} "
        f"({len(total.both)} of B's {len(total.b)} labels are A's; {len(total.both)} of A's {len(total.a)} are B's)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strict", action="store_true", help="Measure the lint with the pedantic rules too.")
    parser.add_argument("--no-lint", action="store_true", help="Compare the two label sets only; do not run the lint.")
    args = parser.parse_args()
    names = catalogs()
    if not names:
        sys.exit(f"no label file in {SECOND} has first labels in {LABELS}")
    report(agreements(names), None if args.no_lint else lint_figures(names, args.strict))


if __name__ == "__main__":
    main()
