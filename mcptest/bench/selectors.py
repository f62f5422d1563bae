"""The `--selector` values and the selector each one builds."""

from __future__ import annotations

import importlib.util

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
    """A `ModelSelector` needs a Picker backed by a provider; this build has no provider layer to build one."""
    if importlib.util.find_spec("mcptest.providers") is None:
        raise usage_error(
            f"--selector model:{model}: this build has no provider layer (mcptest.providers) to ask a model; "
            "use --selector lexical or embedding"
        )
    raise usage_error(f"--selector model:{model}: the provider layer is not wired to tool-bench yet")
