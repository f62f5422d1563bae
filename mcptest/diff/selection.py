"""`diff --intents`: run tool-bench's selector over the same intents on both catalogs and compare the picks."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from mcptest.bench.selector import judge
from mcptest.bench.significance import ALPHA, mcnemar_exact
from mcptest.bench.spec import Intent
from mcptest.core import yaml_source
from mcptest.core.errors import UserError, did_you_mean
from mcptest.core.validation import validate
from mcptest.diff.model import DiffReport, SelectionEffect, ToolShift
from mcptest.records.entries import Surface


class IntentsFile(BaseModel):
    """An intents file: the `intents:` list of a tool-bench spec (other keys of a spec are allowed and ignored)."""

    model_config = ConfigDict(extra="ignore")

    intents: list[Intent] = Field(min_length=1)


def load_intents(path: str | Path, names: set[str]) -> list[Intent]:
    """Read the intents; a gold tool that neither catalog has is a problem at its line."""
    doc = yaml_source.load(path)
    spec = validate(IntentsFile, doc)
    problems = [
        doc.problem(
            ("intents", i, "gold", j),
            f"intents[{i}].gold[{j}]: no tool {g!r} in either catalog{did_you_mean(g, sorted(names))}",
        )
        for i, intent in enumerate(spec.intents)
        for j, g in enumerate(intent.gold)
        if g not in names
    ]
    if problems:
        raise UserError(problems)
    return spec.intents


def selection_effect(report: DiffReport, old: Surface, new: Surface, intents_path: str) -> SelectionEffect:
    """Each intent picked on the old and on the new catalog by the lexical selector; per gold tool, the share of
    its intents picked correctly before and after, with the exact McNemar test on those paired outcomes.

    A gold name may be written as in either catalog: a renamed tool counts as one tool under both names.
    """
    import numpy as np

    from mcptest.bench.lexical import LexicalSelector

    forward = {c.name: c.new_name for c in report.changes if c.code == "renamed" and c.kind == "tool" and c.new_name}
    backward = {v: k for k, v in forward.items()}
    old_tools, new_tools = [e.tool() for e in old.tools], [e.tool() for e in new.tools]
    intents = load_intents(intents_path, {t.name for t in old_tools} | {t.name for t in new_tools})
    queries = [i.query for i in intents]

    def outcomes(tools: list, rename: dict[str, str]) -> np.ndarray:
        gold = np.zeros((len(intents), len(tools)), dtype=bool)
        column = {t.name: j for j, t in enumerate(tools)}
        for i, intent in enumerate(intents):
            for g in intent.gold:
                for name in (g, rename.get(g)):
                    if name in column:
                        gold[i, column[name]] = True
        if not tools:
            return np.zeros(len(intents), dtype=bool)
        return judge(LexicalSelector().baseline(tools, queries), gold).correct

    before, after = outcomes(old_tools, backward), outcomes(new_tools, forward)
    shifts = []
    for tool in dict.fromkeys(forward.get(g, g) for i in intents for g in i.gold):
        rows = [k for k, i in enumerate(intents) if tool in {forward.get(g, g) for g in i.gold}]
        shifts.append(_shift(tool, before[rows], after[rows]))
    shifts.sort(key=lambda s: (s.p_value, -(s.before - s.after), s.tool))
    whole = _shift("", before, after)
    return SelectionEffect(
        intents=intents_path,
        selector="lexical",
        before=whole.before,
        after=whole.after,
        p_value=whole.p_value,
        significant=whole.significant,
        tools=shifts,
    )


def _shift(tool: str, before: object, after: object) -> ToolShift:
    import numpy as np

    b, a = np.asarray(before, dtype=bool), np.asarray(after, dtype=bool)
    lost, gained = int((b & ~a).sum()), int((~b & a).sum())
    p = mcnemar_exact(lost, gained)
    n = len(b)
    return ToolShift(
        tool=tool,
        intents=n,
        before=float(b.mean()) if n else 0.0,
        after=float(a.mean()) if n else 0.0,
        lost=lost,
        gained=gained,
        p_value=p,
        significant=p < ALPHA,
    )
