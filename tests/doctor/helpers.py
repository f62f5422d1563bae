"""Run the CLI in-process, as `mcptest ARGS` would, and capture what it printed."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from mcptest.cli import main

FIXTURES = Path(__file__).resolve().parent.parent / "lint" / "fixtures"


@dataclass
class Out:
    code: int
    stdout: str
    stderr: str

    def json(self) -> Any:
        return json.loads(self.stdout)


def cli(capsys: pytest.CaptureFixture[str], *args: str | Path) -> Out:
    """Run `mcptest ARGS` in this process and return the exit code and both streams."""
    capsys.readouterr()
    with pytest.raises(SystemExit) as exc:
        main([str(a) for a in args])
    captured = capsys.readouterr()
    return Out(int(exc.value.code or 0), captured.out, captured.err)
