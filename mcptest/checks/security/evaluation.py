"""How well the SEC rules do on a labelled set: precision and recall of detection and of the rule codes."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcptest.checks.findings import Severity
from mcptest.checks.security.engine import scan
from mcptest.records.entries import load


@dataclass(frozen=True)
class Score:
    """Counts of true positives, false positives and false negatives, with the figures they give."""

    tp: int
    fp: int
    fn: int

    @property
    def precision(self) -> float:
        """TP / (TP + FP); 1.0 when nothing was flagged."""
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        """TP / (TP + FN); 1.0 when there was nothing to find."""
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0


@dataclass
class Evaluation:
    """Detection (an entry is flagged when it has a critical finding) and rule codes (entry, code) pairs."""

    detection: Score
    codes: Score
    entries: int
    poisoned: int
    misses: list[str] = field(default_factory=list)
    """Poisoned entries without a critical finding, and benign ones with one."""
    code_errors: list[str] = field(default_factory=list)
    """(entry, code) pairs found but not expected (`+`) or expected but not found (`-`)."""


def evaluate(labels_path: str | Path) -> Evaluation:
    """Scan every group of the labelled set and score it.

    Detection, per entry: positive when labelled poisoned; predicted positive when the scan reports at least one
    critical finding on it (what `--fail-on critical`, the default, fails on). precision = TP / (TP + FP),
    recall = TP / (TP + FN) over all entries of all groups.
    Codes, per (entry, rule code): the set each entry's `expect` lists (reviewed findings, warnings included)
    against the set the scan reports; the same two formulas over those pairs.
    """
    root = Path(labels_path).parent
    groups: list[dict[str, Any]] = json.loads(Path(labels_path).read_text(encoding="utf-8"))["groups"]
    det, codes = [0, 0, 0], [0, 0, 0]
    out = Evaluation(Score(0, 0, 0), Score(0, 0, 0), 0, 0)
    for group in groups:
        report = scan([load(root / f) for f in group["files"]])
        found: dict[str, set[str]] = {}
        critical: set[str] = set()
        for flagged in report.flagged:
            found.setdefault(flagged.entry.key, set()).add(flagged.finding.rule)
            if flagged.finding.severity is Severity.CRITICAL:
                critical.add(flagged.entry.key)
        keys = {e.key for f in group["files"] for e in load(root / f).entries}
        out.entries += len(keys)
        out.poisoned += len(group["poisoned"])
        for key in sorted(keys):
            bad, flagged_ = key in group["poisoned"], key in critical
            det[0] += bad and flagged_
            det[1] += flagged_ and not bad
            det[2] += bad and not flagged_
            if bad != flagged_:
                out.misses.append(f"{group['files'][0]}: {key!r} {'missed' if bad else 'false alarm'}")
            expected, got = set(group["expect"].get(key, ())), found.get(key, set())
            codes[0] += len(expected & got)
            codes[1] += len(got - expected)
            codes[2] += len(expected - got)
            out.code_errors += [f"{group['files'][0]}: {key!r} +{c}" for c in sorted(got - expected)]
            out.code_errors += [f"{group['files'][0]}: {key!r} -{c}" for c in sorted(expected - got)]
    out.detection, out.codes = Score(*det), Score(*codes)
    return out
