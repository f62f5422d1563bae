"""Re-record the two committed runs of this example by calling the real mock servers.

`before/run.json` replays document 002's e2e run call by call against the "before" catalog (four `priority`
rejections, an empty test set, three `create_metric` rejections, a re-called discovery tool, an invented
`test_set_id`, an unknown tool); `after/run.json` follows the recommended creation order against the "after"
catalog. Every result in the files is what the mock server really answered.

    python examples/validation-loops/record_runs.py        # rewrites before/run.json and after/run.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio

from mcptest.core.atomic import atomic_write_text
from mcptest.server.session import SessionPool, quiet_sdk_logs
from mcptest.suite.models import StdioServer
from mcptest.records.trace import CatalogTool, ToolCall, Trace

HERE = Path(__file__).resolve().parent
PROMPT = "Create a test suite for the support bot, with a custom accuracy metric, and run it."
TESTS = [
    {
        "prompt": {"content": "What is your refund policy?", "language_code": "en"},
        "behavior": "Answer questions accurately",
        "category": "Functional",
        "topic": "Customer Support",
    },
    {
        "prompt": {"content": "How do I cancel my plan?", "language_code": "en"},
        "behavior": "Answer questions accurately",
        "category": "Functional",
        "topic": "Billing",
    },
]
PROMPT_TEMPLATE = "Given the prompt: {prompt}\nAnd the response: {response}\nRate the accuracy from 0 to 1."
METRIC = {
    "name": "Response Accuracy",
    "evaluation_prompt": PROMPT_TEMPLATE,
    "score_type": "numeric",
    "min_score": 0,
    "max_score": 1,
    "threshold": 0.7,
    "threshold_operator": ">=",
    "metric_scope": ["Single-Turn"],
}
ENDPOINT = "0b1c2d3e-0000-4000-8000-0000000000cc"
TEST_SET = "7d1c9e2a-0000-4000-8000-000000000002"
CONFIG = "3c4d5e6f-0000-4000-8000-000000000004"
DISCOVERY = [
    ("list_behaviors", {}),
    ("list_categories", {}),
    ("list_topics", {}),
    ("list_metrics", {}),
    ("list_endpoints", {}),
]

BEFORE: list[tuple[str, dict[str, Any]]] = [
    *DISCOVERY,
    ("create_project", {"name": "Support bot QA", "nano_id": ""}),
    *[
        ("create_test_set_bulk", {"name": "Support FAQ", "tests": TESTS, "priority": p})
        for p in ("High", "Medium", "medium", "")
    ],
    ("create_test_set_bulk", {"name": "Support FAQ", "tests": []}),
    ("list_behaviors", {}),
    ("create_metric", {**METRIC, "score_type": "binary"}),
    ("create_metric", {**METRIC, "threshold_operator": "gte"}),
    (
        "create_metric",
        {
            "name": "Response Accuracy",
            "evaluation_prompt": PROMPT_TEMPLATE,
            "score_type": "categorical",
            "categories": [],
        },
    ),
    ("create_metric", METRIC),
    ("create_test_configuration", {"endpoint_id": ENDPOINT, "test_set_id": "test-set-1"}),
    ("execute_test_configuration", {"test_configuration_id": CONFIG}),
    ("create_tests", {"test_set_id": "test-set-1", "tests": TESTS}),
]
AFTER: list[tuple[str, dict[str, Any]]] = [
    *DISCOVERY,
    ("create_project", {"name": "Support bot QA"}),
    ("create_test_set_bulk", {"name": "Support FAQ", "tests": TESTS, "priority": 2}),
    ("create_metric", METRIC),
    ("create_test_configuration", {"endpoint_id": ENDPOINT, "test_set_id": TEST_SET}),
    ("execute_test_configuration", {"test_configuration_id": CONFIG}),
    ("list_test_results", {}),
]
FINAL = {
    "before": "I created the project, a test set and the metric, and started a run.",
    "after": "Created the Support FAQ test set with 2 tests and the Response Accuracy metric, and started the run.",
}


async def record(side: str, script: list[tuple[str, dict[str, Any]]]) -> Trace:
    """Run the script against the side's mock server and return the trace of what really happened."""
    config = StdioServer(
        command=[sys.executable, "-m", "mcptest", "mock", "--tools-from", str(HERE / side / "catalog.yml")]
    )
    async with SessionPool({"platform": config}) as pool:
        session = await pool.get("platform")
        catalog = [CatalogTool(server="platform", tool=tool) for tool in await session.list_tools()]
        calls = [await _call(session, name, args) for name, args in script]
    return Trace(prompt=PROMPT, tool_calls=calls, final_response=FINAL[side], turns=len(script) + 1, catalog=catalog)


async def _call(session: Any, name: str, args: dict[str, Any]) -> ToolCall:
    outcome = await session.call_tool(name, args)
    if outcome.result is None:
        text = (outcome.error or "").split(": ", 1)[-1]
        return ToolCall(
            server="platform",
            name=name,
            args=args,
            is_error=True,
            unknown_tool="Unknown tool" in text,
            content=[{"type": "text", "text": text.removeprefix("the server answered with ")}],
        )
    result = outcome.result
    return ToolCall(
        server="platform",
        name=name,
        args=args,
        content=result.get("content", []),
        structured_content=result.get("structuredContent"),
        is_error=bool(result.get("isError")),
    )


def render(trace: Trace) -> str:
    """The committed form: stable key order, one call per line block."""
    return json.dumps(trace.model_dump(mode="json", exclude_none=True), indent=1, ensure_ascii=False) + "\n"


async def main() -> None:
    quiet_sdk_logs()
    for side, script in (("before", BEFORE), ("after", AFTER)):
        atomic_write_text(HERE / side / "run.json", render(await record(side, script)))
        print(f"wrote {HERE / side / 'run.json'}", file=sys.stderr)


if __name__ == "__main__":
    anyio.run(main)
