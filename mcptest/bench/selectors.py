"""The `--selector` values and the selector each one builds."""

from __future__ import annotations

from mcptest.bench.selector import Selector
from mcptest.errors import usage_error
from mcptest.suite.validation import did_you_mean

CHOICES = ("lexical", "embedding", "model:<id>")


def resolve(choice: str) -> Selector:
    """`lexical` (the default), `embedding` (the optional extra) or `model:<id>` (a real model)."""
    if choice == "lexical":
        from mcptest.bench.lexical import LexicalSelector

        return LexicalSelector()
    if choice == "embedding":
        from mcptest.bench.embedding import EmbeddingSelector

        return EmbeddingSelector()
    if choice.startswith("model:") and choice[len("model:") :]:
        return _model_selector(choice[len("model:") :])
    hint = did_you_mean(choice, ["lexical", "embedding"])
    raise usage_error(f"--selector: unknown selector {choice!r}{hint}; choose one of {', '.join(CHOICES)}")


def _model_selector(model: str) -> Selector:
    """A `ModelSelector` needs a Picker backed by a provider; no provider is wired to tool-bench yet."""
    raise usage_error(
        f"--selector model:{model}: tool-bench is not wired to a model provider yet; "
        "use --selector lexical or embedding"
    )
