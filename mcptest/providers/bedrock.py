"""Models served by AWS Bedrock through the Converse API with tool use, via `boto3` (imported only when a run needs
it; `pip install 'mcptest[bedrock]'`). Credentials come from the standard AWS chain; the region from AWS_REGION."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import anyio

from mcptest.providers.errors import ProviderError, RunFailed, retry_after_seconds
from mcptest.records.messages import (
    ModelReply,
    ModelRequest,
    RequestedCall,
    Usage,
    UserMessage,
    parse_arguments,
)

NO_CREDENTIALS = (
    "bedrock: no AWS credentials found: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_BEARER_TOKEN_BEDROCK), "
    "or AWS_PROFILE naming a profile in ~/.aws; an EC2 instance role is not looked up before the run (it takes a "
    "network call): set AWS_EC2_METADATA_DISABLED=false to let boto3 ask the instance for it"
)
_ENV_SOURCES = (
    ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"),
    ("AWS_BEARER_TOKEN_BEDROCK",),  # a Bedrock API key
    ("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",),  # ECS / EKS pod identity: the container provider's endpoint
    ("AWS_CONTAINER_CREDENTIALS_FULL_URI",),
    ("AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_ROLE_ARN"),  # EKS IRSA, GitHub OIDC
)


def credentials_missing(environ: Mapping[str, str]) -> str | None:
    """Why boto3's credential chain would find no credentials, checked with no network call (None when it would):
    the environment's keys, token, container or web-identity settings, else the chain's file-based providers
    (shared credentials, config, SSO, assume-role, `credential_process` named) for AWS_PROFILE or the default
    profile. The instance-metadata provider needs the network, so it counts only when asked for with
    AWS_EC2_METADATA_DISABLED=false."""
    if any(all(environ.get(v) for v in names) for names in _ENV_SOURCES):
        return None
    if environ.get("AWS_EC2_METADATA_DISABLED", "").lower() == "false":
        return None
    if environ.get("AWS_PROFILE") == "":  # botocore, like the aws CLI, looks for a profile named ""
        return "bedrock: AWS_PROFILE is set but empty: unset it (for the default profile) or name a profile in ~/.aws"
    import botocore.session
    from botocore.credentials import create_credential_resolver
    from botocore.exceptions import BotoCoreError

    try:
        session = botocore.session.Session(profile=environ.get("AWS_PROFILE") or None)
        if session.get_scoped_config().get("credential_process"):
            return None  # a program the profile names: not run before the run, it may prompt or call out
        resolver = create_credential_resolver(session)
        for network in ("custom-process", "container-role", "iam-role"):
            resolver.remove(network)
        found = resolver.load_credentials()
    except BotoCoreError as exc:  # a profile that does not exist, a malformed config file
        return f"bedrock: AWS credentials cannot be loaded: {exc}"
    return None if found is not None else NO_CREDENTIALS


class BedrockProvider:
    """`converse` calls in a worker thread (boto3 is synchronous). botocore's retries are off: mcptest retries."""

    name = "bedrock"

    def __init__(self, environ: Mapping[str, str], endpoint_url: str | None = None, timeout_s: float = 120.0) -> None:
        import boto3
        from botocore.config import Config

        region = environ.get("AWS_REGION") or environ.get("AWS_DEFAULT_REGION") or "us-east-1"
        # The suite's environment, not only the process's: explicit keys when it holds them, else boto3's chain.
        keys = {
            "aws_access_key_id": environ.get("AWS_ACCESS_KEY_ID"),
            "aws_secret_access_key": environ.get("AWS_SECRET_ACCESS_KEY"),
            "aws_session_token": environ.get("AWS_SESSION_TOKEN"),
        }
        session = boto3.Session(
            **({k: v for k, v in keys.items() if v} if keys["aws_access_key_id"] else {}),
            profile_name=None if keys["aws_access_key_id"] else environ.get("AWS_PROFILE"),
            region_name=region,
        )
        config = Config(
            retries={"total_max_attempts": 1, "mode": "standard"}, connect_timeout=10, read_timeout=timeout_s
        )
        self._client = session.client("bedrock-runtime", endpoint_url=endpoint_url, config=config)

    async def reply(self, request: ModelRequest) -> ModelReply:
        """One `converse` call."""
        kwargs: dict[str, Any] = {
            "modelId": _model_id(request.model),
            "messages": to_messages(request),
            "inferenceConfig": {"maxTokens": request.max_tokens},
        }
        if request.system:
            kwargs["system"] = [{"text": request.system}]
        if request.tools:
            kwargs["toolConfig"] = {"tools": [_tool(t) for t in request.tools]}
        response = await anyio.to_thread.run_sync(self._call, kwargs)
        return from_response(response)

    def _call(self, kwargs: dict[str, Any]) -> Any:
        from botocore import exceptions

        try:
            return self._client.converse(**kwargs)
        except exceptions.ClientError as exc:
            raise error_of(exc.response) from None
        except (
            exceptions.EndpointConnectionError,
            exceptions.ConnectionClosedError,
            exceptions.ReadTimeoutError,
        ) as exc:
            raise ProviderError(f"bedrock: connection failed: {exc}") from None
        except exceptions.NoCredentialsError:
            raise RunFailed(NO_CREDENTIALS) from None

    async def aclose(self) -> None:
        """Close botocore's connection pool."""
        self._client.close()


def _model_id(model: str | None) -> str:
    from mcptest.providers import bare_model

    return bare_model(model) or ""


def _tool(tool: dict[str, Any]) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "name": tool["name"],
        "inputSchema": {"json": tool.get("inputSchema") or {"type": "object"}},
    }
    if tool.get("description"):
        spec["description"] = tool["description"]
    return {"toolSpec": spec}


def to_messages(request: ModelRequest) -> list[dict[str, Any]]:
    """The neutral history as Converse messages: toolUse blocks, then a user message of toolResult blocks."""
    messages: list[dict[str, Any]] = [{"role": "user", "content": [{"text": request.prompt}]}]
    for item in request.history:
        if isinstance(item, UserMessage):
            messages.append({"role": "user", "content": [{"text": item.text}]})
        elif isinstance(item, ModelReply):
            if item.state:  # the message as it came: reasoning blocks with their signatures included
                messages.append({"role": "assistant", "content": item.state})
                continue
            content: list[dict[str, Any]] = [{"text": item.text}] if item.text else []
            for call in item.calls:
                args = call.arguments if call.parsed and isinstance(call.arguments, dict) else {}
                content.append({"toolUse": {"toolUseId": call.id, "name": call.name, "input": args}})
            if content:  # the API refuses an empty message
                messages.append({"role": "assistant", "content": content})
        else:
            results = [
                {
                    "toolResult": {
                        "toolUseId": r.call_id,
                        "content": [{"text": r.text or "(no output)"}],  # blank text is refused
                        "status": "error" if r.is_error else "success",
                    }
                }
                for r in item
            ]
            messages.append({"role": "user", "content": results})
    return messages


def from_response(response: Mapping[str, Any]) -> ModelReply:
    """A Converse response as a neutral reply; a message with reasoning blocks is kept to be sent back as it came."""
    message = (response.get("output") or {}).get("message") or {}
    texts: list[str] = []
    calls: list[RequestedCall] = []
    reasoned = False
    for block in message.get("content") or []:
        if "text" in block:
            texts.append(block["text"])
        elif "toolUse" in block:
            use = block["toolUse"]
            args, parsed = parse_arguments(use.get("input"))
            calls.append(
                RequestedCall(id=use.get("toolUseId", ""), name=use.get("name", ""), arguments=args, parsed=parsed)
            )
        elif "reasoningContent" in block:
            reasoned = True
    stop = response.get("stopReason")
    if stop in ("malformed_tool_use", "malformed_model_output"):  # nothing parsed: no call to answer
        raise RunFailed(f"bedrock: stopReason {stop}: the model's answer could not be parsed")
    state = [_jsonable(b) for b in message.get("content") or []] if reasoned else None
    return ModelReply(text="".join(texts) or None, calls=calls, usage=_usage(response), stop=stop, state=state)


def _jsonable(block: Any) -> Any:
    """botocore gives blob fields (a redacted reasoning block) as bytes: kept as text so a cassette can hold them."""
    if isinstance(block, dict):
        return {k: _jsonable(v) for k, v in block.items()}
    if isinstance(block, list):
        return [_jsonable(v) for v in block]
    if isinstance(block, bytes):
        return block.decode("latin-1")
    return block


def _usage(response: Mapping[str, Any]) -> Usage | None:
    usage = response.get("usage")
    if not isinstance(usage, dict):
        return None
    cached = (usage.get("cacheReadInputTokens") or 0) + (usage.get("cacheWriteInputTokens") or 0)
    return Usage(input=(usage.get("inputTokens") or 0) + cached, output=usage.get("outputTokens") or 0, cached=cached)


def error_of(response: Mapping[str, Any]) -> ProviderError:
    """A botocore ClientError's parsed response: the HTTP status, the error code and message, Retry-After."""
    meta = response.get("ResponseMetadata") or {}
    error = response.get("Error") or {}
    status = meta.get("HTTPStatusCode")
    if error.get("Code") in ("ThrottlingException", "TooManyRequestsException") and status is None:
        status = 429
    detail = " ".join(str(p) for p in (error.get("Code"), error.get("Message")) if p).splitlines()[0][:300]
    return ProviderError(
        f"bedrock: HTTP {status}: {detail}", status=status, retry_after=retry_after_seconds(meta.get("HTTPHeaders"))
    )
