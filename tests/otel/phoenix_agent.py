"""An agent traced as production agents are: the OpenAI SDK instrumented by OpenInference, its MCP tool calls as
OpenInference TOOL spans under an AGENT span, sent to Arize Phoenix over OTLP/HTTP.

It runs in Phoenix's own venv (`make phoenix`), not mcptest's:
    .venv-phoenix/bin/python tests/otel/phoenix_agent.py PHOENIX_URL PROJECT MODEL PROMPT -- SERVER_COMMAND...
with OPENAI_BASE_URL / OPENAI_API_KEY pointing at the tests' fake OpenAI server. It prints the run's trace id.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from typing import Any

MAX_TURNS = 8


async def agent(phoenix: str, project: str, model: str, prompt: str, server: list[str]) -> str:
    from mcp.client.client import Client
    from mcp.client.stdio import StdioServerParameters
    from openai import AsyncOpenAI
    from openinference.instrumentation.openai import OpenAIInstrumentor
    from openinference.semconv.trace import OpenInferenceSpanKindValues, SpanAttributes
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.trace import Status, StatusCode

    # what phoenix.otel.register sets up (importing phoenix.otel imports the whole Phoenix server: 20 s of CPU)
    provider = TracerProvider(resource=Resource({"openinference.project.name": project}))
    provider.add_span_processor(SimpleSpanProcessor(OTLPSpanExporter(f"{phoenix}/v1/traces")))
    OpenAIInstrumentor().instrument(tracer_provider=provider)
    tracer = provider.get_tracer("mcptest-phoenix-agent")
    kind = SpanAttributes.OPENINFERENCE_SPAN_KIND
    llm = AsyncOpenAI()
    try:
        params = StdioServerParameters(command=server[0], args=server[1:], env=dict(os.environ), cwd=os.getcwd())
        async with Client(params) as mcp:
            listed = await mcp.list_tools()
            tools: Any = [
                {
                    "type": "function",
                    "function": {"name": t.name, "description": t.description or "", "parameters": t.input_schema},
                }
                for t in listed.tools
            ]
            with tracer.start_as_current_span(f"agent {project}") as run:
                run.set_attribute(kind, OpenInferenceSpanKindValues.AGENT.value)
                run.set_attribute(SpanAttributes.INPUT_VALUE, prompt)
                messages: list[Any] = [{"role": "user", "content": prompt}]
                answer = ""
                for _ in range(MAX_TURNS):
                    reply = await llm.chat.completions.create(model=model, messages=messages, tools=tools)
                    message = reply.choices[0].message
                    messages.append(message.model_dump(exclude_none=True))
                    if not message.tool_calls:
                        answer = message.content or ""
                        break
                    for call in message.tool_calls:
                        with tracer.start_as_current_span(f"tool {call.function.name}") as span:
                            span.set_attribute(kind, OpenInferenceSpanKindValues.TOOL.value)
                            span.set_attribute(SpanAttributes.TOOL_NAME, call.function.name)
                            span.set_attribute(SpanAttributes.INPUT_VALUE, call.function.arguments)
                            result = await mcp.call_tool(call.function.name, json.loads(call.function.arguments))
                            dumped = result.model_dump(mode="json", by_alias=True, exclude_none=True)
                            span.set_attribute(SpanAttributes.OUTPUT_VALUE, json.dumps(dumped))
                            if result.is_error:
                                span.set_status(Status(StatusCode.ERROR, "tool error"))
                        text = "".join(b.text for b in result.content if getattr(b, "type", "") == "text")
                        messages.append({"role": "tool", "tool_call_id": call.id, "content": text})
                run.set_attribute(SpanAttributes.OUTPUT_VALUE, answer)
                trace_id = f"{run.get_span_context().trace_id:032x}"
    finally:
        OpenAIInstrumentor().uninstrument()
        provider.shutdown()
    return trace_id


def main(argv: list[str]) -> int:
    split = argv.index("--")
    phoenix, project, model, prompt = argv[:split]
    print(asyncio.run(agent(phoenix, project, model, prompt, argv[split + 1 :])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
