"""The embedding selector: cosine similarity of sentence embeddings, from a model that ships inside a wheel."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from mcptest.bench.selector import ScoringSelector
from mcptest.checks.lint.text import normalized
from mcptest.core.errors import usage_error
from mcptest.records.catalog import Tool

if TYPE_CHECKING:
    import numpy as np

Embed = Callable[[list[str]], "np.ndarray"]
"""Texts in, one row vector per text out."""

EXTRA_HINT = "pip install 'mcptest[embedding]'"


def tool_text(tool: Tool) -> str:
    """What the model reads for a tool: its name as words, then its description (`get_sum. Adds ...`)."""
    return f"{normalized(tool.name)}. {tool.description}".strip()


def wordllama_embed() -> Embed:
    """WordLlama's `l2_supercat` 256-dimension static embeddings (MIT), loaded offline from site-packages.

    The `wordllama` wheel ships the weights and the tokenizer file. Pointing `cache_dir` at the package folder
    and disabling downloads makes the load offline by construction: wordllama 0.4 looks for its bundled tokenizer
    under `tokenizer/` (the file is in `tokenizers/`) and would otherwise try the network.
    """
    try:
        import wordllama
        from wordllama import WordLlama
    except ImportError:
        raise usage_error(f"--selector embedding needs the embedding extra: {EXTRA_HINT}") from None
    model = WordLlama.load(cache_dir=Path(wordllama.__file__).parent, disable_download=True)
    return lambda texts: model.embed(texts)


class EmbeddingSelector(ScoringSelector):
    """score(q, t) = cos(E(q), E(text(t))) = E(q)·E(t) / (|E(q)| |E(t)|), 0 when either vector is zero.

    E is a static sentence embedding (mean of token vectors), a semantic proxy that still matches "commit my
    work" to "Records changes to the repository" without a shared word. No catalog-wide statistic enters a
    score, so after one tool changes only its column is recomputed. Picks and ties as in `selector.judge`.
    """

    name = "embedding"

    def __init__(self, embed: Embed | None = None) -> None:
        self._embed = embed or wordllama_embed()

    def baseline(self, tools: Sequence[Tool], queries: Sequence[str]) -> np.ndarray:
        """Cosine similarities of every query with every tool."""
        self._queries = self._unit(list(queries))
        self._scores = self._queries @ self._unit([tool_text(t) for t in tools]).T
        return self._scores.copy()

    def rescore(self, index: int, tool: Tool) -> tuple[np.ndarray, np.ndarray]:
        """Every intent, with column `index` recomputed from the edited tool."""
        import numpy as np

        scores = self._scores.copy()
        scores[:, index] = self._queries @ self._unit([tool_text(tool)])[0]
        return np.arange(len(scores)), scores

    def _unit(self, texts: list[str]) -> np.ndarray:
        import numpy as np

        vectors = np.asarray(self._embed(texts), dtype=np.float64)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return np.divide(vectors, norms, out=np.zeros_like(vectors), where=norms > 0)
