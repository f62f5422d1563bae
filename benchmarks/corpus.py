"""Bad-input corpus figures (issue 20): every case of `tests/corpus/cases/` run as `mcptest` would be by a user.

Each case runs as a subprocess in a copy of its folder, under its own timeout and address-space cap, in its own
process group. Handled well = the expected exit code, every expected message fragment (with its `file:line:col`
location), no traceback, no raw terminal escape, in time, under the cap, and no secret in any output or written
file. Target: all of them. Prints the count per input class and every case that falls short.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.corpus.harness import case_names, run_case  # noqa: E402


def main() -> int:
    names = case_names()
    tried: Counter[str] = Counter()
    well: Counter[str] = Counter()
    short: list[str] = []
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            outcome = run_case(name, Path(tmp))
            kind = name.split("-")[0]
            tried[kind] += 1
            if outcome.handled_well:
                well[kind] += 1
            else:
                short.append(f"  {name}: {'; '.join(outcome.shortfalls)}")
    print(f"bad-input corpus: {len(names)} cases tried, {sum(well.values())} handled well "
          f"({time.monotonic() - start:.1f} s)")  # fmt: skip
    for kind in sorted(tried):
        print(f"  {kind:<10} {well[kind]:>3} / {tried[kind]}")
    if short:
        print("fell short:")
        print("\n".join(short))
    return 0 if not short else 1


if __name__ == "__main__":
    sys.exit(main())
