"""Fixtures for the lint tests."""

from __future__ import annotations

import warnings

import pytest

from mcptest.tokens import encoding


@pytest.fixture(scope="session", autouse=True)
def _token_encoding_loaded() -> None:
    """Build the cl100k_base encoding once, outside any test.

    WORKAROUND: `mcptest.tokens` reaches its data file through `importlib.resources.files("bpe_openai")`, which
    imports `bpe_openai`, whose `compat` module calls the deprecated `open_binary` (a DeprecationWarning, an error
    under `filterwarnings = error`) and costs ~0.65 s. Delete this fixture once tokens.py locates the file without
    importing the package.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        encoding()
