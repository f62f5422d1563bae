"""Token counts stay identical to tiktoken's: the fast rank loader and the plain-Python merge against the encoder."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import pytest
import tiktoken.load

from mcptest.core import tokens
from tests.conftest import ROOT

CATALOGS = sorted((ROOT / "tests" / "lint" / "fixtures").glob("*.json")) + sorted(
    p
    for p in (ROOT / "tests" / "lint" / "real").glob("*.json")
    if p.name != "split.json"  # split.json: no catalog
)
TRICKY = [
    "",
    " ",
    "\n\n\n",
    "  leading and trailing  ",
    "Hello, world! It's 2026; we'll   see.\r\n\tTabs\tand CRLF\r\n",
    "numbers 1 12 123 1234 12345 3.14159 -7",
    "don't DON'T y'all I'M they've",
    "日本語のテキストと中文字符，还有한국어",
    "emoji 👍🏽🚀 and combining é (e\u0301) and zero\u200bwidth",
    "<|endoftext|> <|fim_prefix|> are text here",
    "snake_case camelCase kebab-case SCREAMING_CASE path/to/file.py:12:5",
    '{"type":"object","properties":{"a":{"type":"string","maxLength":100}},"required":["a"]}',
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" * 3,
    "\x00\x01 control \x7f bytes",
]


def _texts() -> list[str]:
    texts = list(TRICKY)
    for path in CATALOGS:
        for tool in json.loads(path.read_text(encoding="utf-8"))["tools"]:
            texts += [tool["name"], tool.get("description") or "", json.dumps(tool.get("inputSchema", {}))]
    rng = random.Random(13)
    alphabet = "ab xyz09 \n\t.,'-_/é日👍\x1c\x0b\r"
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 80))) for _ in range(300)]
    texts += ["".join(chr(rng.randrange(128)) for _ in range(rng.randint(1, 80))) for _ in range(300)]
    return texts


def test_the_fast_loader_reads_the_same_ranks_as_tiktokens_own(tmp_path: Path) -> None:
    plain = tmp_path / "cl100k_base.tiktoken"
    plain.write_bytes(gzip.decompress(tokens._bpe_file().read_bytes()))
    assert tokens.ranks() == tiktoken.load.load_tiktoken_bpe(str(plain))


def test_the_shipped_rank_table_is_the_one_the_bpe_file_makes_and_finds_every_token() -> None:
    ranks = tokens.ranks()
    assert tokens.TABLE_FILE.read_bytes() == tokens.rank_table_bytes(ranks), (
        "cl100k_base.ranks is stale: TABLE_FILE.write_bytes(rank_table_bytes(ranks())) writes it again"
    )
    table = tokens.rank_table()
    assert isinstance(table, tokens.RankTable)
    assert all(table.get(token) == rank for token, rank in ranks.items())
    rng = random.Random(3)
    others = [bytes(rng.randrange(256) for _ in range(rng.randint(2, 12))) for _ in range(5_000)]
    assert all(table.get(o) == ranks.get(o) for o in others + [b"", b"\xff" * 300])
    assert sum(o in ranks for o in others) < len(others)  # the random bytes include misses


def test_the_table_gives_way_to_the_dict_once_it_has_served_its_lookups() -> None:
    table = tokens.rank_table()
    assert isinstance(table, tokens.RankTable)
    served = table.lookups
    try:
        table.lookups = 0
        assert tokens._lookup() is table
        table.lookups = tokens.TABLE_LOOKUPS
        assert tokens._lookup() is tokens.ranks()
    finally:
        table.lookups = served


@pytest.mark.parametrize("budget", [10**9, 0], ids=["plain-python", "encoder"])
def test_counts_are_identical_to_tiktoken_on_real_catalogs_and_tricky_text(budget: int) -> None:
    counter = tokens._Counter()
    counter.budget = budget
    encoder = tokens.encoding()
    for text in _texts():
        assert counter.count(text) == len(encoder.encode(text, disallowed_special=())), repr(text)


def test_the_counter_switches_to_the_encoder_once_the_budget_is_spent() -> None:
    counter = tokens._Counter()
    counter.budget = 10
    assert counter.count("hello world") == 2 and counter.budget == 0
    assert counter.count("hello") == 1 and counter.pieces == {}


def test_only_new_pieces_spend_the_budget_so_repeated_words_are_counted_in_python() -> None:
    counter = tokens._Counter()
    counter.budget = 20
    assert counter.count(" hello hello hello") == 3 and counter.budget == 14  # one new piece, " hello"
    assert counter.count(" hello hello") == 2 and counter.budget == 14  # nothing new to merge
    assert counter.count(" a brand new sentence") == 4 and counter.budget == 0  # 21 new characters: the encoder
    assert counter.count(" hello") == 1


def test_the_ascii_split_is_tiktokens_split_on_every_ascii_character() -> None:
    import re

    import regex

    rng = random.Random(7)
    full, fast = regex.compile(tokens._PAT), re.compile(tokens._ASCII_PAT)
    texts = ["".join(chr(rng.randrange(128)) for _ in range(rng.randint(1, 60))) for _ in range(2000)]
    texts += ["a \x1c b\x1f\n", "x  \n", "  \r\n\r\n", "I'M 1234567 don'T", "\x0b\x0c\t end  "]
    for text in texts:
        assert fast.findall(text) == full.findall(text), repr(text)


def _exact(text: str) -> int:
    return len(tokens.encoding().encode(text, disallowed_special=()))


def test_a_piece_up_to_the_chunk_length_counts_exactly_and_a_piece_past_the_plain_python_length_too() -> None:
    rng = random.Random(25)
    for n in (tokens._PY_PIECE + 1, 400, tokens.LONG_PIECE - 1, tokens.LONG_PIECE):
        word = "".join(rng.choice("abcdefghijklmnopqrstuvwxyzABC") for _ in range(n))
        for text in (word, f"Find {word}, then stop.", " " * n + "x", "-" * n, "日本" * (n // 2)):
            counter = tokens._Counter()
            assert counter.count(text) == _exact(text), (n, text[:20])


def test_an_unbroken_run_is_counted_in_chunks_within_a_token_or_two_of_each_cut() -> None:
    rng = random.Random(26)
    letters = "".join(rng.choice("abcdefghijklmnopqrstuvwxyzQWERTY") for _ in range(20_000))
    runs = {
        "letters": f"A tool. {letters} end",
        "punctuation": "".join(rng.choice("!#$%&*+-./:;<=>?@^_|~") for _ in range(6_000)),
        "spaces and newlines": "a" + " \n" * 3_000 + "b",
        "base64": "key="
        + "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/") for _ in range(8_000)),
        "cjk": "".join(chr(rng.randrange(0x4E00, 0x9FFF)) for _ in range(5_000)),
    }
    for name, text in runs.items():
        cuts = len(text) // tokens.LONG_PIECE
        got, exact = tokens._Counter().count(text), _exact(text)
        assert abs(got - exact) <= 2 * cuts, (name, got, exact)


def test_cutting_a_run_changes_only_the_long_piece_not_its_neighbours() -> None:
    import regex

    pieces = regex.compile(tokens._PAT).findall
    for text in (
        "Hello, world! It's " + "x" * 2_500 + "'s end.\n" + "\n" * 1_500 + "  tail",
        "a" + " " * 3_333 + "b " + "!?" * 1_200 + "\n\n" + "é" * 2_001,
    ):
        segments = tokens._Counter()._segments(text)
        assert "".join(segments) == text and len(segments) > 3
        chunked = iter([p for s in segments for p in pieces(s)])
        for piece in pieces(text):
            if len(piece) <= tokens.LONG_PIECE:
                assert next(chunked) == piece
                continue
            joined = next(chunked)
            while joined != piece:
                assert piece.startswith(joined)
                joined += next(chunked)
        assert next(chunked, None) is None
