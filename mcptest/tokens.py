"""Token counting with cl100k_base, offline: the BPE file ships inside the `bpe-openai` package."""

from __future__ import annotations

import base64
import gzip
import importlib.util
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

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
ENCODING_NAME = "cl100k_base"


@cache
def encoding() -> tiktoken.Encoding:
    """The cl100k_base encoding, built from the packaged BPE file (never a download)."""
    import tiktoken

    raw = gzip.decompress(_bpe_file().read_bytes())
    ranks = {base64.b64decode(token): int(rank) for token, rank in (line.split() for line in raw.splitlines() if line)}
    return tiktoken.Encoding(name=ENCODING_NAME, pat_str=_PAT, mergeable_ranks=ranks, special_tokens=_SPECIAL)


def _bpe_file() -> Path:
    """The packaged BPE file, found without importing `bpe_openai` (its import is slow and warns)."""
    spec = importlib.util.find_spec("bpe_openai")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the bpe-openai package is missing: reinstall mcptest (it ships cl100k_base offline)")
    return Path(spec.submodule_search_locations[0]) / "data" / "cl100k_base.tiktoken.gz"


def count_tokens(text: str) -> int:
    """How many cl100k_base tokens `text` is (special-token text counts as ordinary text)."""
    return len(encoding().encode(text, disallowed_special=()))
