"""Read every import of a package tree (lazy and TYPE_CHECKING ones included) and judge it against a layer order.

A unit is a top-level package or module of the tree (`mcptest.server.session` belongs to `server`); the package's
own `__init__` is the unit named after the package. An import may go to its own unit or down the order; units of
one layer may import each other only while no cycle forms between units.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Import:
    """One import statement's edge: the importing module, the imported module, and where it is written."""

    importer: str
    imported: str
    path: Path
    line: int

    def __str__(self) -> str:
        return f"{self.importer} -> {self.imported}"


def modules(root: Path) -> dict[str, Path]:
    """Every module of the package at `root`, by dotted name."""
    out: dict[str, Path] = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def imports(root: Path) -> Iterator[Import]:
    """Every import of one of the package's own modules, wherever it is written in the file."""
    known = modules(root)
    package = root.name

    def resolve(name: str) -> str:
        while name not in known and "." in name:
            name = name.rpartition(".")[0]
        return name

    for importer, path in known.items():
        is_package = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = importer.split(".")
                    anchor = anchor[: len(anchor) - node.level + (1 if is_package else 0)]
                    base = ".".join([*anchor, base] if base else anchor)
                targets = [f"{base}.{alias.name}" for alias in node.names]
            else:
                continue
            for target in targets:
                if target == package or target.startswith(f"{package}."):
                    yield Import(importer, resolve(target), path, node.lineno)


def unit(module: str) -> str:
    """The top-level package or module a module belongs to (`mcptest` itself for the package's `__init__`)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def violations(root: Path, layers: Sequence[Sequence[str]]) -> list[str]:
    """Each import against the layer order or unplaced in it, then each cycle between units, one line each."""
    rank = {name: i for i, layer in enumerate(layers) for name in layer}
    problems: list[str] = []
    graph: dict[str, set[str]] = defaultdict(set)
    witness: dict[tuple[str, str], Import] = {}
    for edge in imports(root):
        a, b = unit(edge.importer), unit(edge.imported)
        if a == b:
            continue
        graph[a].add(b)
        witness.setdefault((a, b), edge)
        where = f"{edge.path.as_posix()}:{edge.line}"
        if a not in rank or b not in rank:
            missing = sorted({u for u in (a, b) if u not in rank})
            problems.append(f"{where}: {edge}  ({', '.join(missing)} is in no layer)")
        elif rank[b] > rank[a]:
            problems.append(f"{where}: {edge}  (layer {a} may not import layer {b}, which is above it)")
    for cycle in cycles(graph):
        edges = [witness[(x, y)] for x, y in zip(cycle, [*cycle[1:], cycle[0]], strict=True)]
        problems.append("cycle: " + "; ".join(str(e) for e in edges))
    return problems


def private_imports(root: Path) -> list[str]:
    """Each `_private` name one unit imports from another: a seam to make public, or code in the wrong place."""
    problems = []
    for importer, path in modules(root).items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if not isinstance(node, ast.ImportFrom) or not node.module or node.level:
                continue
            if unit(node.module) == unit(importer) or not node.module.startswith(f"{root.name}."):
                continue
            for alias in node.names:
                if alias.name.startswith("_"):
                    where = f"{path.as_posix()}:{node.lineno}"
                    problems.append(f"{where}: {importer} -> {node.module}.{alias.name}  (a private name)")
    return problems


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle through each strongly connected group of two or more units (Tarjan), as an ordered walk."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(group)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return [_walk(graph, group) for group in groups]


def _walk(graph: dict[str, set[str]], group: set[str]) -> list[str]:
    """A shortest cycle through the group's first unit, found breadth-first."""
    start = min(group)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(graph.get(v, set()) & group):
                if w == start:
                    return paths[v]
                if w not in paths:
                    paths[w] = [*paths[v], w]
                    nxt.append(w)
        frontier = nxt
    return sorted(group)
