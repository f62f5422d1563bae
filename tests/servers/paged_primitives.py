"""A low-level SDK server that lists 25 resources, 25 templates and 25 prompts, 10 per page (cursor pagination)."""

from __future__ import annotations

from typing import Any

from mcp import types
from mcp.server.lowlevel import Server

PAGE = 10
COUNT = 25


def _page(params: types.PaginatedRequestParams | None) -> tuple[range, str | None]:
    start = int(params.cursor) if params and params.cursor else 0
    end = min(start + PAGE, COUNT)
    return range(start, end), str(end) if end < COUNT else None


async def _resources(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListResourcesResult:
    ids, cursor = _page(params)
    resources = [types.Resource(uri=f"paged://r/{i}", name=f"r{i}") for i in ids]
    return types.ListResourcesResult(resources=resources, next_cursor=cursor)


async def _templates(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListResourceTemplatesResult:
    ids, cursor = _page(params)
    templates = [types.ResourceTemplate(uri_template=f"paged://t{i}/{{id}}", name=f"t{i}") for i in ids]
    return types.ListResourceTemplatesResult(resource_templates=templates, next_cursor=cursor)


async def _read(ctx: Any, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
    contents = [types.TextResourceContents(uri=str(params.uri), text=f"read {params.uri}")]
    return types.ReadResourceResult(contents=contents)


async def _prompts(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListPromptsResult:
    ids, cursor = _page(params)
    return types.ListPromptsResult(prompts=[types.Prompt(name=f"p{i}") for i in ids], next_cursor=cursor)


async def _get_prompt(ctx: Any, params: types.GetPromptRequestParams) -> types.GetPromptResult:
    text = types.TextContent(type="text", text=f"prompt {params.name} {params.arguments}")
    return types.GetPromptResult(messages=[types.PromptMessage(role="user", content=text)])


def build() -> Server[Any]:
    """The paginating server."""
    return Server(
        "paged-primitives",
        on_list_resources=_resources,
        on_list_resource_templates=_templates,
        on_read_resource=_read,
        on_list_prompts=_prompts,
        on_get_prompt=_get_prompt,
    )
