"""How `--selector model:<id>` gets its picks (replay or record, provider, retries), apart from the recording code,
so that the lexical and embedding selectors start without importing the providers' loop and the session."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

import anyio

from mcptest.providers import PROVIDERS
from mcptest.providers.retry import RetryPolicy, Sleep

LIVE_PROVIDERS = tuple(p for p in PROVIDERS if p != "scripted")


@dataclass(frozen=True)
class ModelOptions:
    """How `--selector model:<id>` gets its picks: replay or record, which provider, the environment, retries."""

    record: bool = False
    provider: str | None = None
    base_url: str | None = None
    environ: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))
    concurrency: int = 4
    retry: RetryPolicy = RetryPolicy()
    sleep: Sleep = anyio.sleep

    @property
    def ci(self) -> bool:
        """CI=true: nothing records implicitly."""
        return self.environ.get("CI", "").lower() in ("true", "1")


class PicksFailed(Exception):
    """The model could not be asked for every pick; the ones it answered are saved in the cassette."""
