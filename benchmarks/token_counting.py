"""Token counting of hostile descriptions (issue 25): an unbroken 20,000-letter word, and 1 MB descriptions.

Each figure is the time `mcptest.core.tokens.count_tokens` takes in a fresh child process (so the encoder is
built inside it, as for a user's first count), next to the way it was counted before issue 25: the whole
text through the plain-Python merge (under the 50,000-character budget) or tiktoken's encoder in one piece.
"Before" runs are bounded by a timeout. The count each way is printed too, and tiktoken's on the whole text
as the reference (its Rust merge of a 1 MB run takes seconds); texts without a run of more than
`LONG_PIECE` characters count exactly the same, and a chunked run's count differs by about a token per cut.

    python benchmarks/token_counting.py
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SETUP = """
import random, string, sys, time
sys.path.insert(0, {root!r})
rng = random.Random(25)
texts = {{
    "word": "Look up a city. " + "".join(rng.choice(string.ascii_letters) for _ in range(20_000)) + " Done.",
    "run": "".join(rng.choice(string.ascii_letters) for _ in range(1_000_000)),
    "prose": ("Get the weather for a city, in degrees Celsius; e.g. get_weather(city='Paris'). " * 13_000)[:1_000_000],
}}
text = texts[{name!r}]
from mcptest.core import tokens
start = time.perf_counter()
"""
NOW = "n = tokens.count_tokens(text)"
BEFORE = """
if len(text) <= tokens.SMALL_TEXT_BUDGET:
    n = sum(tokens._merge_count(p.encode(), tokens.rank_table()) for p in tokens._COUNTER._splitter(False)(text))
else:
    n = len(tokens.encoding().encode(text, disallowed_special=()))
"""
EXACT = "n = len(tokens.encoding().encode(text, disallowed_special=()))"
REPORT = "print(f'{n} tokens in {time.perf_counter() - start:.2f} s')"
LABELS = {
    "word": "a 20,000-letter word in a description",
    "run": "a 1 MB description that is one unbroken run of letters",
    "prose": "a 1 MB description of ordinary prose",
}


def measure(name: str, how: str, limit: float) -> str:
    code = SETUP.format(root=str(ROOT), name=name) + how + "\n" + REPORT
    try:
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        return f"still counting after {limit:.0f} s (stopped)"
    return out.stdout.strip() or out.stderr.strip().splitlines()[-1]


def main() -> None:
    for name, label in LABELS.items():
        print(f"{label}:")
        print(f"  before (one piece): {measure(name, BEFORE, 120.0)}")
        print(f"  now (bounded):      {measure(name, NOW, 120.0)}")
        print(f"  exact (tiktoken, one piece, the reference): {measure(name, EXACT, 120.0)}")


if __name__ == "__main__":
    main()
