"""Authentication and transport for HTTP servers: bearer tokens from the environment, OAuth 2 client credentials
through the `mcp` SDK's provider (token fetched, and fetched again when the server refuses it), Streamable HTTP
or legacy SSE."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from mcptest.server.http_bounds import bound
from mcptest.suite.client_config import Auth, ClientCredentials
from mcptest.suite.models import HttpServer


def http_transport(config: HttpServer, body_limit: int = 64_000_000) -> Any:
    """The SDK transport for an HTTP server, its auth applied; an async context manager giving the streams.

    Response bodies are read through `mcptest.server.http_bounds` (at most `body_limit` bytes once inflated)."""
    from mcp.shared._httpx_utils import create_mcp_http_client

    headers = static_headers(config)
    auth = None
    if headers is None:
        assert config.auth is not None
        headers = {k: v for k, v in config.headers.items() if isinstance(v, str)}
        auth = oauth_provider(config.url, config.auth)
    if config.transport == "sse":
        from mcp.client.sse import sse_client

        return sse_client(config.url, headers=headers, timeout=config.connect_timeout_s, auth=auth)
    from mcp.client.streamable_http import streamable_http_client

    http = create_mcp_http_client(headers=headers, auth=auth)
    bound(http, body_limit)
    return _HttpTransport(streamable_http_client(config.url, http_client=http), http)


def static_headers(config: HttpServer) -> dict[str, str] | None:
    """The headers every request to the server carries (its `headers:`, a bearer token); None under OAuth, whose
    token the SDK's provider fetches and renews."""
    headers = {k: v for k, v in config.headers.items() if isinstance(v, str)}
    if config.auth is None:
        return headers
    if config.auth.bearer_env is None:
        return None
    headers["Authorization"] = f"Bearer {config.auth._secret}"
    return headers


def oauth_provider(server_url: str, auth: Auth) -> Any:
    """The SDK's client-credentials provider, sent to the suite's `token_url` (no metadata discovery needed)."""
    from mcp.client.auth.extensions.client_credentials import ClientCredentialsOAuthProvider
    from mcp.shared.auth import OAuthMetadata

    assert auth.oauth is not None
    grant: ClientCredentials = auth.oauth.client_credentials
    token_url = grant.token_url
    issuer = _origin(token_url)

    class TokenUrlProvider(ClientCredentialsOAuthProvider):
        async def _initialize(self) -> None:
            await super()._initialize()
            self.context.oauth_metadata = OAuthMetadata.model_validate(
                {
                    "issuer": issuer,
                    "token_endpoint": token_url,
                    "authorization_endpoint": token_url,
                    "response_types_supported": ["token"],
                    "grant_types_supported": ["client_credentials"],
                }
            )

        def _get_token_endpoint(self) -> str:
            return token_url

    return TokenUrlProvider(
        server_url=server_url,
        storage=_MemoryTokens(),
        client_id=grant.client_id,
        client_secret=auth._secret,
        scope=grant.scope,
        issuer=issuer,
    )


class _MemoryTokens:
    """Tokens live as long as the run: nothing is written to disk."""

    def __init__(self) -> None:
        self._tokens: Any = None
        self._client: Any = None

    async def get_tokens(self) -> Any:
        return self._tokens

    async def set_tokens(self, tokens: Any) -> None:
        self._tokens = tokens

    async def get_client_info(self) -> Any:
        return self._client

    async def set_client_info(self, client_info: Any) -> None:
        self._client = client_info


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


class _HttpTransport:
    """The Streamable HTTP transport plus the httpx client it owns, closed together."""

    def __init__(self, transport: Any, http: Any) -> None:
        self._transport = transport
        self._http = http

    @property
    def session_id(self) -> str | None:
        """The `Mcp-Session-Id` the server gave, once it gave one."""
        return getattr(self._http._transport, "session_id", None)

    async def __aenter__(self) -> Any:
        await self._http.__aenter__()
        return await self._transport.__aenter__()

    async def __aexit__(self, *exc: Any) -> None:
        try:
            await self._transport.__aexit__(*exc)
        finally:
            await self._http.__aexit__(None, None, None)
