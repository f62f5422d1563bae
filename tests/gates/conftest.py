"""Fixtures for the gate tests."""

from __future__ import annotations

import warnings

import pytest

from mcptest.tokens import encoding


@pytest.fixture(scope="session", autouse=True)
def _token_encoding_loaded() -> None:
    """Build the cl100k_base encoding once, outside any test.

    WORKAROUND (same as tests/lint): `mcptest.tokens` imports `bpe_openai`, whose `compat` module calls the deprecated
    `open_binary` (an error under `filterwarnings = error`). Delete once tokens.py finds the file without the import.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        encoding()
