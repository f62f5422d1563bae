"""The `--selector` values and the selector each one builds."""

from __future__ import annotations

from mcptest.bench.options import ModelOptions
from mcptest.bench.selector import Selector
from mcptest.bench.spec import Bench
from mcptest.core.errors import did_you_mean, usage_error

CHOICES = ("lexical", "embedding", "model:<id>")


def model_id(choice: str) -> str | None:
    """The model id of `model:<id>`, else None; any other unknown choice is a UserError."""
    if choice in ("lexical", "embedding"):
        return None
    if choice.startswith("model:") and choice[len("model:") :]:
        return choice[len("model:") :]
    hint = did_you_mean(choice, ["lexical", "embedding"])
    raise usage_error(f"--selector: unknown selector {choice!r}{hint}; choose one of {', '.join(CHOICES)}")


def resolve(choice: str, bench: Bench, options: ModelOptions) -> tuple[Selector, list[str]]:
    """`lexical` (the default), `embedding` (the optional extra) or `model:<id>` (a real model, via its cassette);
    with notes for stderr (what was recorded)."""
    model = model_id(choice)
    if model is not None:
        from mcptest.bench.recording import model_selector

        return model_selector(bench, model, options)
    if choice == "lexical":
        from mcptest.bench.lexical import LexicalSelector

        return LexicalSelector(), []
    from mcptest.bench.embedding import EmbeddingSelector

    return EmbeddingSelector(), []
