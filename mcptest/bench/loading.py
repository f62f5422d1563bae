"""Load a tool-bench spec from YAML: every problem at once, each at its `file:line:col`, with "did you mean"."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from mcptest.bench import mutations as m
from mcptest.bench.spec import MUTATIONS, Bench, DropKeyword, Mutation, SpecFile
from mcptest.bench.terms import word_key
from mcptest.core import json_source, yaml_source
from mcptest.core.errors import Problem, UserError, did_you_mean, where
from mcptest.core.validation import validate
from mcptest.core.yaml_source import Loc, SourceDoc
from mcptest.records.catalog import Catalog, Tool, from_wire, load_catalog

_KINDS = ", ".join(MUTATIONS)
_TOOL_INDEX = re.compile(r"^tools\[(\d+)\]")


def load_spec(path: str | Path) -> Bench:
    """Read, validate and check a spec; raise one UserError listing every problem found.

    A spec written as JSON (generated specs often are) is parsed with `json` first: ruamel's position-keeping
    loader is ~300× slower on a 2,000-intent file. Positions matter only for problems, so when the fast pass
    finds any, the file is parsed again with positions and checked again to report them located.
    """
    text = yaml_source.read_text(path)
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        data = None
    if json_source.has_lone_surrogate(data):
        data = None  # the YAML pass below locates it
    if json_source.depth_exceeds(data, json_source.MAX_DEPTH):
        data = json_source.loads(text, str(path))
    if isinstance(data, dict):
        try:
            return _load(SourceDoc(str(path), data), path)
        except UserError:
            pass
    return _load(yaml_source.parse(text, str(path)), path)


def _load(doc: SourceDoc, path: str | Path) -> Bench:
    if not isinstance(doc.data, dict):
        raise UserError([doc.problem((), "a tool-bench spec is a mapping with catalog (or catalog_path) and intents")])
    problems: list[Problem] = []
    spec = _collect(problems, lambda: validate(SpecFile, doc))
    if spec is None:
        spec = _known_keys_only(doc.data)
    items = enumerate(doc.data.get("mutations") or [])
    muts = [(i, mut) for i, item in items if (mut := _mutation(doc, item, i, problems)) is not None]
    catalog = _catalog(doc, spec, problems) if spec else None
    if spec and catalog:
        problems += _gold_problems(doc, spec, catalog) + _mutation_problems(doc, muts, catalog)
    if problems:
        raise UserError(sorted(set(problems)))
    assert spec is not None and catalog is not None
    return Bench(str(path), catalog, tuple(spec.intents), tuple(mut for _, mut in muts))


def _known_keys_only(data: dict[str, Any]) -> SpecFile | None:
    """The spec without its unknown keys, if that is valid: a misspelt key alone must not hide the other checks."""
    try:
        return SpecFile.model_validate({k: v for k, v in data.items() if k in SpecFile.model_fields})
    except ValidationError:
        return None


def _collect(problems: list[Problem], step: Any) -> Any:
    try:
        return step()
    except UserError as exc:
        problems += exc.problems
        return None


def _mutation(doc: SourceDoc, item: Any, i: int, problems: list[Problem]) -> Mutation | None:
    loc: Loc = ("mutations", i)
    if not isinstance(item, dict):
        problems.append(doc.problem(loc, f"{where(loc)}: a mutation is a mapping with 'tool' and 'kind'"))
        return None
    kind = item.get("kind")
    if kind is None:
        problems.append(doc.problem(loc, f"{where(loc)}: missing required key 'kind' (one of {_KINDS})"))
        return None
    if kind not in MUTATIONS:
        hint = did_you_mean(str(kind), list(MUTATIONS))
        message = f"{where(loc)}.kind: unknown kind {kind!r}{hint}; kinds are {_KINDS}"
        problems.append(doc.problem((*loc, "kind"), message))
        return None
    result: Mutation | None = _collect(problems, lambda: validate(MUTATIONS[kind], doc, item, base=loc))
    return result


def _catalog(doc: SourceDoc, spec: SpecFile, problems: list[Problem]) -> Catalog | None:
    if spec.catalog is not None and spec.catalog_path is not None:
        message = "catalog_path: give either catalog or catalog_path, not both"
        problems.append(doc.problem(("catalog_path",), message, at_key=True))
        return None
    if spec.catalog_path is not None:
        file = Path(doc.path).parent / spec.catalog_path
        if not file.is_file():
            what = "is a folder, not a saved tools/list JSON file" if file.is_dir() else "no such file"
            message = f"catalog_path: {what} {str(file)!r} (the path is relative to the spec's folder)"
            problems.append(doc.problem(("catalog_path",), message))
            return None
        catalog: Catalog | None = _collect(problems, lambda: load_catalog(file))
    elif spec.catalog is not None:
        catalog = _inline_catalog(doc, spec.catalog, problems)
    else:
        problems.append(doc.problem((), "(top level): missing required key 'catalog' (or 'catalog_path')"))
        return None
    return catalog and _unique_names(doc, catalog, problems)


def _inline_catalog(doc: SourceDoc, data: Any, problems: list[Problem]) -> Catalog | None:
    try:
        return from_wire(data, doc.path, shorthand=True)
    except UserError as exc:
        for p in exc.problems:
            index = _TOOL_INDEX.match(p.message)
            loc: Loc = ("catalog",)
            if index:
                loc = ("catalog", "tools", int(index[1])) if isinstance(data, dict) else ("catalog", int(index[1]))
            problems.append(doc.problem(loc, f"catalog: {p.message}"))
        return None


def _unique_names(doc: SourceDoc, catalog: Catalog, problems: list[Problem]) -> Catalog | None:
    twice = sorted(name for name, n in Counter(t.name for t in catalog.tools).items() if n > 1)
    if twice:
        problems.append(doc.problem(("catalog",), f"catalog: tool names must be unique; repeated: {', '.join(twice)}"))
        return None
    return catalog


def _gold_problems(doc: SourceDoc, spec: SpecFile, catalog: Catalog) -> list[Problem]:
    names = [t.name for t in catalog.tools]
    known = set(names)
    out = []
    for i, intent in enumerate(spec.intents):
        for j, gold in enumerate(intent.gold):
            if gold not in known:
                loc: Loc = ("intents", i, "gold", j)
                out.append(doc.problem(loc, f"{where(loc)}: unknown tool {gold!r}{did_you_mean(gold, names)}"))
    return out


def _mutation_problems(doc: SourceDoc, muts: list[tuple[int, Mutation]], catalog: Catalog) -> list[Problem]:
    names = [t.name for t in catalog.tools]
    by_name = {t.name: t for t in catalog.tools}  # names are unique by now
    out = []
    for i, mut in muts:
        at = f"mutations[{i}]"
        tool = by_name.get(mut.tool)
        if tool is None:
            hint = did_you_mean(mut.tool, names)
            out.append(doc.problem(("mutations", i, "tool"), f"{at}.tool: unknown tool {mut.tool!r}{hint}"))
        elif isinstance(mut, DropKeyword):
            out += _keyword_problems(doc, i, mut.word, tool)
    return out


def _keyword_problems(doc: SourceDoc, i: int, word: str, tool: Tool) -> list[Problem]:
    loc: Loc = ("mutations", i, "word")
    if word_key(word) is None:
        message = f"{where(loc)}: {word!r} is not a content word (one word, not a stop word the selector ignores)"
        return [doc.problem(loc, message)]
    if m.occurrences(tool, word) == 0:
        hint = did_you_mean(word, sorted({w.lower() for w in re.findall(r"[A-Za-z]+", tool.description)}))
        return [doc.problem(loc, f"{where(loc)}: {word!r} does not occur in {tool.name}'s description{hint}")]
    return []
