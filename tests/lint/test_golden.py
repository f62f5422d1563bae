"""The real catalogs captured from third-party servers, linted and scored: findings, scores and tokens pinned.

Regenerate after an intended change with `MCPTEST_UPDATE_GOLDEN=1 pytest tests/lint/test_golden.py` and review
the diff: every changed line is a behaviour change users will see.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from mcptest.checks.lint import assess
from mcptest.records.catalog import load_catalog

HERE = Path(__file__).parent
CATALOGS = sorted((HERE / "fixtures").glob("*.json"))


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: p.stem)
def test_real_catalog_lint_matches_its_golden_file(path: Path) -> None:
    report = assess(load_catalog(path)).to_json()
    golden = HERE / "golden" / path.name
    if os.environ.get("MCPTEST_UPDATE_GOLDEN"):
        golden.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    assert report == json.loads(golden.read_text(encoding="utf-8"))


def test_the_golden_figures_users_will_quote() -> None:
    summaries = {p.stem: assess(load_catalog(p)).summary() for p in CATALOGS}
    figures = {
        k: (s["tool_count"], s["mean_score"], s["min_score"], s["critical_count"], s["tool_surface_tokens"])
        for k, s in summaries.items()
    }
    assert figures == {
        "mcp-server-git": (12, 0.7507, 0.5708, 5, 995),  # a repeated undescribed argument is one finding
        "mcp-server-time": (2, 0.977, 0.9583, 0, 238),
        "server-everything": (13, 0.9192, 0.8333, 0, 948),
        "server-filesystem": (14, 0.8532, 0.7917, 4, 1524),
    }
