"""The layout holds: imports go down the layer order, no two packages import each other in a circle, the top
level stays small, and each package says what it holds and what it may import (docs/architecture.md)."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.layout.layering import imports, private_imports, violations

PACKAGE = ROOT / "mcptest"

LAYERS: tuple[tuple[str, ...], ...] = (
    ("mcptest", "core"),
    ("expect",),
    ("records",),
    ("checks",),
    ("fuzz",),
    ("providers",),
    ("suite",),
    ("server",),
    ("mock",),
    ("cassette",),
    ("gates",),
    ("agent",),
    ("bench",),
    ("diff",),
    ("history",),
    ("report",),
    ("run",),
    ("load",),
    ("cli", "serve", "pytest_plugin", "python_api", "scaffold", "schemas", "__main__"),
)
"""Lowest first. `mcptest` is the package's own `__init__` (its version); the last row is the interfaces."""

STRICT = os.environ.get("MCPTEST_LAYERS") != "list"
"""`MCPTEST_LAYERS=list` prints every violation and passes: the mode for moving code in steps."""


def judge(problems: list[str], what: str) -> None:
    """Fail with every problem, one per line; in list mode print them instead."""
    if not STRICT:
        print("\n".join(problems))
        return
    assert problems == [], f"{what}:\n" + "\n".join(problems)


def test_every_import_goes_down_the_layers_and_no_packages_form_a_cycle() -> None:
    judge(violations(PACKAGE, LAYERS), "imports against the layer order (docs/architecture.md)")


def test_no_private_name_is_imported_across_packages() -> None:
    judge(private_imports(PACKAGE), "private names imported from another package")


def test_a_planted_back_import_and_cycle_are_reported_as_importer_arrow_imported(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    for name, body in {
        "__init__.py": "",
        "low/__init__.py": '"""Low."""\n',
        "low/base.py": "def helper() -> None:\n    from pkg.high.top import run  # planted back-import\n",
        "high/__init__.py": '"""High."""\n',
        "high/top.py": "from pkg.low.base import helper\n\ndef run() -> None:\n    helper()\n",
        "side.py": "from . import other\n",
        "other.py": "from pkg import side\n",
        "high/more.py": "from pkg.low.base import _hidden\n",
    }.items():
        (pkg / name).parent.mkdir(parents=True, exist_ok=True)
        (pkg / name).write_text(body)
    problems = violations(pkg, (("pkg", "low"), ("high",), ("side", "other")))
    assert problems == [
        f"{(pkg / 'low/base.py').as_posix()}:2: pkg.low.base -> pkg.high.top  "
        "(layer low may not import layer high, which is above it)",
        "cycle: pkg.high.more -> pkg.low.base; pkg.low.base -> pkg.high.top",
        "cycle: pkg.other -> pkg.side; pkg.side -> pkg.other",
    ]
    assert private_imports(pkg) == [
        f"{(pkg / 'high/more.py').as_posix()}:1: pkg.high.more -> pkg.low.base._hidden  (a private name)"
    ]


def test_lazy_and_type_checking_imports_are_read_too(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.b import B\n"
        "def f():\n    import pkg.c\n    from pkg import d\n"
    )
    for name in "bcd":
        (pkg / f"{name}.py").write_text("")
    assert sorted(str(e) for e in imports(pkg)) == ["pkg.a -> pkg.b", "pkg.a -> pkg.c", "pkg.a -> pkg.d"]


def test_at_most_six_modules_at_the_top_level() -> None:
    top = sorted(p.stem for p in PACKAGE.glob("*.py") if p.stem not in ("__init__", "__main__"))
    judge([f"{len(top)} top-level modules: {', '.join(top)}"] if len(top) > 6 else [], "too many top-level modules")


def test_every_package_is_placed_in_a_layer_and_says_what_it_holds_and_may_import() -> None:
    placed = {name for layer in LAYERS for name in layer}
    units = {p.stem for p in PACKAGE.glob("*.py")} | {p.parent.name for p in PACKAGE.glob("*/__init__.py")}
    judge(sorted(units - placed - {"__init__"}), "units in no layer")
    missing = []
    for init in sorted(PACKAGE.glob("*/__init__.py")):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
        if "May import:" not in doc:
            missing.append(init.parent.name)
    judge(missing, "packages whose __init__ docstring lacks a 'May import:' line")


@pytest.mark.parametrize("package", [p.parent.name for p in sorted(PACKAGE.glob("*/__init__.py"))])
def test_a_package_docstring_names_only_layers_below_it(package: str) -> None:
    doc = ast.get_docstring(ast.parse((PACKAGE / package / "__init__.py").read_text(encoding="utf-8"))) or ""
    line = next((ln for ln in doc.splitlines() if ln.startswith("May import:")), "May import:")
    named = {w.strip(" .,`/") for w in line.removeprefix("May import:").split()} - {"", "nothing", "of", "mcptest"}
    rank = {name: i for i, layer in enumerate(LAYERS) for name in layer}
    judge([line] if rank.get(package) is None or any(rank.get(n, -1) >= rank[package] for n in named) else [], package)
