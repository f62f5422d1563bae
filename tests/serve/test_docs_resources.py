"""The docs pages `mcptest serve` offers as resources reach an installed mcptest, not only a checkout: the wheel
carries them as data files, and the server looks for them where pip puts those."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

from mcptest.serve.server import docs_dir
from tests.conftest import ROOT


def test_the_wheel_ships_every_docs_page_where_an_installed_serve_looks(tmp_path: Path) -> None:
    build = ["pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(tmp_path), str(ROOT)]
    subprocess.run([sys.executable, "-m", *build], check=True, capture_output=True, timeout=240)
    (wheel,) = tmp_path.glob("mcptest-*.whl")
    shipped = {Path(n).name for n in zipfile.ZipFile(wheel).namelist() if "/data/share/mcptest/docs/" in n}
    assert shipped == {p.name for p in (ROOT / "docs").glob("*.md")}

    installed = tmp_path / "prefix"
    (installed / "share" / "mcptest" / "docs").mkdir(parents=True)
    site = tmp_path / "site-packages"  # an installed package: no docs/ beside it
    site.mkdir()
    assert docs_dir(site, installed) == installed / "share" / "mcptest" / "docs"
    assert docs_dir(ROOT, installed) == ROOT / "docs"
