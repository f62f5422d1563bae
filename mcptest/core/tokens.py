"""Token counting with cl100k_base, offline: the BPE file ships inside the `bpe-openai` package.

Building tiktoken's Rust encoder costs ~0.2-0.3 s, more than counting most catalogs takes. So text is split with
tiktoken's own pattern and each distinct piece (a word, a run of punctuation) is merged once, by a plain-Python
byte-pair merge over the same ranks (tiktoken's own algorithm, as in its `_educational` module), and remembered:
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
from functools import cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

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
    fields = _fields()
    tokens, numbers = fields[0::2], fields[1::2]
    if not _sequential(numbers):
        return {binascii.a2b_base64(t): int(r) for t, r in zip(tokens, numbers, strict=True)}
    return dict(zip(map(binascii.a2b_base64, tokens), range(len(tokens)), strict=True))


@cache
def encoded_ranks() -> dict[bytes, int]:
    """The same ranks keyed by each token's base64 text, as the file writes it (`_merge_count` encodes its keys).

    Decoding 100,256 tokens is most of what building `ranks()` costs (~60 ms of ~80 ms); the plain-Python merge of
    a catalog looks up a few thousand pairs, so encoding each key it asks for is far cheaper than decoding them all.
    """
    fields = _fields()
    tokens, numbers = fields[0::2], fields[1::2]
    if not _sequential(numbers):
        return {t: int(r) for t, r in zip(tokens, numbers, strict=True)}
    return dict(zip(tokens, range(len(tokens)), strict=True))


@cache
def _fields() -> list[bytes]:
    """The BPE file's whitespace-separated fields: token, rank, token, rank, ..."""
    return gzip.decompress(_bpe_file().read_bytes()).split()


def _sequential(numbers: list[bytes]) -> bool:
    """Whether the ranks are 0, 1, 2, ... line by line (as every tiktoken file writes them)."""
    return bool(numbers) and int(numbers[0]) == 0 and int(numbers[-1]) == len(numbers) - 1


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
            known[piece] = _merge_count(raw, encoded_ranks()) if len(raw) <= _PY_PIECE else _encoded(piece)
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


def _encoded(text: str) -> int:
    return len(encoding().encode(text, disallowed_special=()))


def _merge_count(piece: bytes, table: dict[bytes, int]) -> int:
    """How many tokens byte-pair merging leaves of `piece`: merge the lowest-ranked adjacent pair (the leftmost
    on a tie) until no adjacent pair is a token, as tiktoken's `_byte_pair_merge` does. `table` is
    `encoded_ranks()`: each candidate is looked up by its base64 text."""
    key = partial(binascii.b2a_base64, newline=False)
    if key(piece) in table:
        return 1
    parts = [piece[i : i + 1] for i in range(len(piece))]
    while len(parts) > 1:
        best, best_rank = -1, None
        for i in range(len(parts) - 1):
            rank = table.get(key(parts[i] + parts[i + 1]))
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
