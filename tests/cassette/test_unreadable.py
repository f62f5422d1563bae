"""A hostile cassette file is unreadable with a reason, never a crash."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcptest.cassette.format import Cassette
from mcptest.cassette.store import CassetteUnreadable, load


def test_a_cassette_nested_thousands_deep_is_unreadable_not_a_recursion_error(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 5000 + "]" * 5000)
    with pytest.raises(CassetteUnreadable, match=r"deep.json:1:101: nested deeper than 100 levels"):
        load(path, Cassette)
