"""The mock-server manifest (`mock_server:` YAML): pydantic models that reject unknown keys."""

from __future__ import annotations

import base64
import binascii
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, field_validator, model_validator


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _Binary(_Strict):
    data: str
    mime_type: str

    @field_validator("data")
    @classmethod
    def _base64(cls, value: str) -> str:
        try:
            base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError):
            raise ValueError("data must be base64-encoded") from None
        return value


class TextItem(_Strict):
    """A text content block."""

    type: Literal["text"]
    text: str


class ImageItem(_Binary):
    """An image content block (base64 `data`)."""

    type: Literal["image"]


class AudioItem(_Binary):
    """An audio content block (base64 `data`)."""

    type: Literal["audio"]


class ResourceLinkItem(_Strict):
    """A link to a resource."""

    type: Literal["resource_link"]
    uri: str
    name: str
    title: str | None = None
    description: str | None = None
    mime_type: str | None = None


class EmbeddedResource(_Strict):
    """The contents of an embedded resource: `text` or base64 `blob`."""

    uri: str
    mime_type: str | None = None
    text: str | None = None
    blob: str | None = None

    @model_validator(mode="after")
    def _one_body(self) -> EmbeddedResource:
        if (self.text is None) == (self.blob is None):
            raise ValueError("an embedded resource needs exactly one of 'text' or 'blob'")
        return self


class EmbeddedItem(_Strict):
    """A resource embedded in the result."""

    type: Literal["resource"]
    resource: EmbeddedResource


ContentItem = Annotated[
    Annotated[TextItem, Tag("text")]
    | Annotated[ImageItem, Tag("image")]
    | Annotated[AudioItem, Tag("audio")]
    | Annotated[ResourceLinkItem, Tag("resource_link")]
    | Annotated[EmbeddedItem, Tag("resource")],
    Discriminator("type"),
]


class Response(_Strict):
    """The canned `tools/call` result; every string may use `${args.NAME}`."""

    content: list[ContentItem] = []
    structured_content: dict[str, Any] | None = None
    is_error: bool = False


class Annotations(_Strict):
    """Tool behaviour hints, as in MCP `ToolAnnotations`."""

    title: str | None = None
    read_only_hint: bool | None = None
    destructive_hint: bool | None = None
    idempotent_hint: bool | None = None
    open_world_hint: bool | None = None


class SamplingAsk(_Strict):
    """Ask the client's model (`sampling/createMessage`) one message; `${args.NAME}` renders in it."""

    message: str
    max_tokens: int = Field(100, gt=0)


class ElicitationAsk(_Strict):
    """Ask the user (`elicitation/create`) to fill a form: a message and a flat object schema."""

    message: str
    schema_: dict[str, Any] = Field(default_factory=lambda: {"type": "object", "properties": {}}, alias="schema")


class Asks(_Strict):
    """What a tool asks the client before answering; the answers render as `${sampling.text}`,
    `${elicitation.action}` and `${elicitation.content.NAME}`."""

    sampling: SamplingAsk | None = None
    elicitation: ElicitationAsk | None = None


class Execution(_Strict):
    """How the tool may be called, as MCP `ToolExecution` (2025-11-25)."""

    task_support: Literal["forbidden", "optional", "required"] = "forbidden"
    """`required`: callable only as a task; `optional`: either way; `forbidden`: never as a task."""


class Tool(_Strict):
    """A tool; without `response`, a call is answered with a text echo of its arguments (and the client's answers)."""

    name: str = Field(min_length=1)
    title: str | None = None
    description: str
    input_schema: dict[str, Any]
    output_schema: dict[str, Any] | None = None
    annotations: Annotations | None = None
    execution: Execution | None = None
    asks: Asks | None = None
    response: Response | None = None


class Resource(_Strict):
    """A resource with inline text."""

    uri: str = Field(min_length=1)
    name: str
    title: str | None = None
    description: str | None = None
    mime_type: str | None = None
    text: str


class PromptArgument(_Strict):
    """An argument a prompt accepts; `${args.NAME}` in the prompt text renders it."""

    name: str
    description: str | None = None
    required: bool = False


class Prompt(_Strict):
    """A prompt returned as one user message."""

    name: str = Field(min_length=1)
    title: str | None = None
    description: str | None = None
    arguments: list[PromptArgument] = []
    text: str


class MockServer(_Strict):
    """The server; a primitive whose key is present (even as an empty list) is advertised in `initialize`."""

    name: str = "mcptest-mock"
    version: str = "0.1.0"
    instructions: str | None = None
    tools: list[Tool] = []
    resources: list[Resource] = []
    prompts: list[Prompt] = []

    def declares(self, primitive: str) -> bool:
        """Whether the manifest has a `tools:`/`resources:`/`prompts:` key."""
        return primitive in self.model_fields_set


class Manifest(_Strict):
    """A mock-server manifest file."""

    mock_server: MockServer
