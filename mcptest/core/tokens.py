"""Token counting with cl100k_base, offline: the BPE file ships inside the `bpe-openai` package.

Building tiktoken's Rust encoder costs ~0.2-0.3 s, more than counting most catalogs takes. So text is split with
tiktoken's own pattern and each distinct piece (a word, a run of punctuation) is merged once, by a plain-Python
byte-pair merge over the same ranks (tiktoken's own algorithm, as in its `_educational` module; the ranks read
from `cl100k_base.ranks`, a hash table made from the BPE file that costs nothing to load), and remembered:
a catalog repeats its words, so a 1,000-tool catalog of ~430,000 characters merges only a few thousand pieces.
Only the merging is budgeted: once `SMALL_TEXT_BUDGET` characters of new pieces have been merged (text that
repeats little, such as identifiers or encoded data), the encoder is built and counts the rest. Both give
identical counts (tests/test_tokens.py checks them against tiktoken).

Byte-pair merging costs more than linear time in the length of one piece (a word, a run of punctuation or of
spaces), so an unbroken run (a 20,000-letter "word", a 1 MB base64 blob) is bounded: a piece longer than
`LONG_PIECE` characters is counted in chunks of `LONG_PIECE`, as if the text were cut there. Text with no such
piece is counted exactly; a chunked piece's count may differ from the exact one by about one token per cut
(measured on 20,000-character runs of letters, punctuation, base64, CJK and spaces: at most 1.2 tokens a cut,
so at most ~0.1% of a run of letters). Pieces longer than `_PY_PIECE` bytes go to the Rust encoder, whose merge
is faster than the plain-Python one on long input (benchmarks/hostile.py prints the figures).
"""

from __future__ import annotations

import binascii
import gzip
import importlib.util
import re
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any
from zlib import crc32

if TYPE_CHECKING:
    import tiktoken

# tiktoken's own pattern and special tokens for cl100k_base (tiktoken_ext/openai_public.py).
_PAT = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|"""
    r"""\s+(?!\S)|\s"""
)
_SPECIAL = {
    "<|endoftext|>": 100257,
    "<|fim_prefix|>": 100258,
    "<|fim_middle|>": 100259,
    "<|fim_suffix|>": 100260,
    "<|endofprompt|>": 100276,
}
# The same pattern for ASCII-only text, in the standard `re` (no `regex` import): for ASCII, \p{L} is A-Za-z, \p{N}
# is 0-9, and Unicode White_Space is [\t\n\v\f\r ] (narrower than `re`'s \s, which also takes \x1c-\x1f).
_WS, _NOT_WS = r"[\t\n\v\f\r ]", r"[^\t\n\v\f\r ]"
_ASCII_PAT = (
    rf"""'(?i:[sdmt]|ll|ve|re)|[^\r\nA-Za-z0-9]?+[A-Za-z]++|[0-9]{{1,3}}+| ?[^\t\n\v\f\r A-Za-z0-9]++[\r\n]*+"""
    rf"""|{_WS}++$|{_WS}*[\r\n]|{_WS}+(?!{_NOT_WS})|{_WS}"""
)
ENCODING_NAME = "cl100k_base"
LONG_PIECE = 1_000
"""The longest piece counted whole; a longer one is counted in chunks of this many characters."""
_PY_PIECE = 128  # bytes: a longer piece is merged by the Rust encoder (the plain-Python merge is quadratic)
# Every piece longer than LONG_PIECE holds a run of half as many non-space or space characters; the look-behinds
# try each run once, from its start, so the search is linear.
_LONG_RUN = re.compile(rf"(?<!\S)\S{{{LONG_PIECE // 2}}}|(?<!\s)\s{{{LONG_PIECE // 2}}}")
SMALL_TEXT_BUDGET = 50_000
"""Characters of new pieces merged in plain Python (~1 µs each) before the Rust encoder is built (~0.2 s once, then
~50x faster): a 13-tool catalog merges ~2,000 characters, the 1,000-tool benchmark catalog ~8,400 (of its ~430,000)."""


@cache
def ranks() -> dict[bytes, int]:
    """The cl100k_base merge ranks from the packaged BPE file: one `base64 rank` line per token, ranks 0, 1, 2, ..."""
    fields = gzip.decompress(_bpe_file().read_bytes()).split()
    tokens, numbers = fields[0::2], fields[1::2]
    if not numbers or int(numbers[0]) != 0 or int(numbers[-1]) != len(numbers) - 1:
        return {binascii.a2b_base64(t): int(r) for t, r in zip(tokens, numbers, strict=True)}
    return dict(zip(map(binascii.a2b_base64, tokens), range(len(tokens)), strict=True))


TABLE_FILE = Path(__file__).with_name("cl100k_base.ranks")
"""`ranks()` as an open-addressing hash table in one file (`rank_table_bytes` writes it; a test checks it against
the BPE file): the plain-Python merge reads it instead of building the 100,256-entry dict."""
_MAGIC = b"mcptest cl100k 1"
_SLOT_BITS = 18  # 262,144 slots of 3 bytes for 100,256 tokens: a lookup that misses probes ~1.5 slots
_SLOTS = 1 << _SLOT_BITS
TABLE_LOOKUPS = 30_000
"""Lookups the table serves (~2 µs each) before the counter builds the dict of `ranks()` (~80 ms once, then ~0.1 µs a
lookup): text whose new pieces are long (identifiers, encoded data) merges with the dict."""


class RankTable:
    """The cl100k_base ranks, looked up in the bytes of `TABLE_FILE` without building anything.

    Building `ranks()` costs ~80 ms (decompressing, splitting and decoding the BPE file, then a dict of 100,256
    entries: more than linting a small catalog takes), while merging a catalog's new pieces looks up only a few
    thousand pairs (~1,800 for the 13-tool server-everything, ~4,000 for the 1,000-tool benchmark catalog) at ~1 µs
    each. The file: `_MAGIC`, then `_SLOTS` slots of 3 bytes (little-endian offset of an entry in the file, 0 for an
    empty slot; a token sits at `crc32(token)` modulo `_SLOTS` or, linearly probed, after it), then the entries:
    one byte of length, three bytes of rank (little-endian), the token's bytes.
    """

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.lookups = 0

    def get(self, token: bytes) -> int | None:
        """The token's rank, or None when `token` is no token."""
        self.lookups += 1
        data, slot = self.data, crc32(token) & (_SLOTS - 1)
        while at := int.from_bytes(data[len(_MAGIC) + 3 * slot : len(_MAGIC) + 3 * slot + 3], "little"):
            if data[at + 4 : at + 4 + data[at]] == token:
                return int.from_bytes(data[at + 1 : at + 4], "little")
            slot = (slot + 1) & (_SLOTS - 1)
        return None


@cache
def rank_table() -> RankTable | dict[bytes, int]:
    """The ranks as `RankTable` reads them from `TABLE_FILE`; the dict of `ranks()` if the file is not there or not
    this format (a broken install: slower, never wrong)."""
    try:
        data = TABLE_FILE.read_bytes()
    except OSError:
        return ranks()
    return RankTable(data) if data.startswith(_MAGIC) else ranks()


def rank_table_bytes(table: dict[bytes, int]) -> bytes:
    """The bytes of `TABLE_FILE` for these ranks (tokens placed in rank order, so the same ranks give the same
    file): `TABLE_FILE.write_bytes(rank_table_bytes(ranks()))` writes it again."""
    slots = [0] * _SLOTS
    entries = bytearray()
    first = len(_MAGIC) + 3 * _SLOTS
    for token, rank in sorted(table.items(), key=lambda item: item[1]):
        if not 0 < len(token) < 256 or not 0 <= rank < 1 << 24:
            raise ValueError(f"a token of {len(token)} bytes or a rank of {rank} does not fit the table's fields")
        slot = crc32(token) & (_SLOTS - 1)
        while slots[slot]:
            slot = (slot + 1) & (_SLOTS - 1)
        slots[slot] = first + len(entries)
        entries += bytes([len(token)]) + rank.to_bytes(3, "little") + token
    return _MAGIC + b"".join(s.to_bytes(3, "little") for s in slots) + bytes(entries)


@cache
def encoding() -> tiktoken.Encoding:
    """The cl100k_base encoding, built from the packaged BPE file (never a download)."""
    import tiktoken

    return tiktoken.Encoding(name=ENCODING_NAME, pat_str=_PAT, mergeable_ranks=ranks(), special_tokens=_SPECIAL)


def _bpe_file() -> Path:
    """The packaged BPE file, found without importing `bpe_openai` (its import is slow and warns)."""
    spec = importlib.util.find_spec("bpe_openai")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the bpe-openai package is missing: reinstall mcptest (it ships cl100k_base offline)")
    return Path(spec.submodule_search_locations[0]) / "data" / "cl100k_base.tiktoken.gz"


class _Counter:
    """Counts in plain Python until the budget is spent, then with tiktoken's encoder (identical counts)."""

    def __init__(self) -> None:
        self.budget = SMALL_TEXT_BUDGET
        self.pieces: dict[str, int] = {}
        self.split: Any = None
        self.split_ascii: Any = None

    def _splitter(self, ascii_only: bool) -> Any:
        if ascii_only:
            if self.split_ascii is None:
                import re

                self.split_ascii = re.compile(_ASCII_PAT).findall
            return self.split_ascii
        if self.split is None:
            import regex  # type: ignore[import-untyped]  # tiktoken's own dependency

            self.split = regex.compile(_PAT).findall
        return self.split

    def count(self, text: str) -> int:
        if len(text) > LONG_PIECE // 2 and _LONG_RUN.search(text):
            self.budget = 0  # the encoder is built now, so it counts everything from here on
            return sum(map(_encoded, self._segments(text)))
        if self.budget <= 0:
            return _encoded(text)
        pieces = self._splitter(text.isascii())(text)
        known = self.pieces
        try:
            return sum(map(known.__getitem__, pieces))  # the usual case once a few tools are counted: no new piece
        except KeyError:
            pass
        new = [p for p in dict.fromkeys(pieces) if p not in known]
        cost = sum(map(len, new))
        if self.budget < cost:
            self.budget = 0
            return _encoded(text)
        self.budget -= cost
        for piece in new:
            raw = piece.encode("utf-8")
            known[piece] = _merge_count(raw, _lookup()) if len(raw) <= _PY_PIECE else _encoded(piece)
        return sum(map(known.__getitem__, pieces))

    def _segments(self, text: str) -> list[str]:
        """`text` cut inside each piece longer than `LONG_PIECE`, every `LONG_PIECE` characters; the cuts fall
        within one run of letters, of punctuation or of spaces, so no other piece changes."""
        cuts = [0]
        self._splitter(False)
        for piece in self.split.__self__.finditer(text):  # the compiled pattern behind `findall`
            start, end = piece.span()
            cuts += range(start + LONG_PIECE, end, LONG_PIECE)
        cuts.append(len(text))
        return [text[a:b] for a, b in zip(cuts, cuts[1:], strict=False)]


def _lookup() -> RankTable | dict[bytes, int]:
    """The table while it has served fewer than `TABLE_LOOKUPS` lookups, then the dict."""
    table = rank_table()
    return ranks() if isinstance(table, RankTable) and table.lookups >= TABLE_LOOKUPS else table


def _encoded(text: str) -> int:
    return len(encoding().encode(text, disallowed_special=()))


def _merge_count(piece: bytes, table: RankTable | dict[bytes, int]) -> int:
    """How many tokens byte-pair merging leaves of `piece`: merge the lowest-ranked adjacent pair (the leftmost
    on a tie) until no adjacent pair is a token, as tiktoken's `_byte_pair_merge` does."""
    if table.get(piece) is not None:
        return 1
    parts = [piece[i : i + 1] for i in range(len(piece))]
    while len(parts) > 1:
        best, best_rank = -1, None
        for i in range(len(parts) - 1):
            rank = table.get(parts[i] + parts[i + 1])
            if rank is not None and (best_rank is None or rank < best_rank):
                best, best_rank = i, rank
        if best < 0:
            break
        parts[best : best + 2] = [parts[best] + parts[best + 1]]
    return len(parts)


_COUNTER = _Counter()


def count_tokens(text: str) -> int:
    """How many cl100k_base tokens `text` is (special-token text counts as ordinary text)."""
    return _COUNTER.count(text)
