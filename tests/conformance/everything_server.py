"""The "everything server" the official MCP conformance suite (``@modelcontextprotocol/conformance``)
grades, written with mcplite's public API only.

``python tests/conformance/everything_server.py --port 8931`` serves it over Streamable HTTP on
``http://127.0.0.1:8931/mcp``; ``.ci/conformance`` starts it and runs the suites against it. The
fixtures (names, texts, URIs) are the ones the suite's scenarios call, as its reference server
(``examples/servers/typescript/everything-server.ts`` in modelcontextprotocol/conformance) serves
them. The fixtures that ask the client something use ``ctx.elicit``, ``ctx.sample`` and
``ctx.list_roots``: requests on the call's stream in a legacy session, ``input_required`` rounds at
2026-07-28 (with the keys the suite's scenarios name). What mcplite still fails is listed in
``tests/conformance/expected-failures.txt``.

>>> sorted(server.prompts)[:2]
['test_prompt_with_arguments', 'test_prompt_with_embedded_resource']
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import time
from typing import Any, Literal

import attrs

import mcplite
from mcplite import Context, McpServer, ToolError

# A 1x1 red PNG and a minimal WAV file, the suite's own test data (base64 as its reference sends them).
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
)
WAV = base64.b64decode("UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=")


server = McpServer("mcp-conformance-test-server", version="1.0.0")


# -- tools: content of every kind ------------------------------------------------------------------


@server.tool
def test_simple_text() -> str:
    """Tests simple text content response."""
    return "This is a simple text response for testing."


@server.tool
def test_image_content() -> mcplite.CallToolResult:
    """Tests image content response."""
    return mcplite.tool_result([mcplite.content_image(PNG, "image/png")])


@server.tool
def test_audio_content() -> mcplite.CallToolResult:
    """Tests audio content response."""
    return mcplite.tool_result([mcplite.content_audio(WAV, "audio/wav")])


@server.tool
def test_embedded_resource() -> mcplite.CallToolResult:
    """Tests embedded resource content response."""
    embedded = mcplite.content_resource(
        "test://embedded-resource", text="This is an embedded resource content.", mime_type="text/plain"
    )
    return mcplite.tool_result([embedded])


@server.tool
def test_multiple_content_types() -> mcplite.CallToolResult:
    """Tests response with multiple content types (text, image, resource)."""
    return mcplite.tool_result(
        [
            mcplite.content_text("Multiple content types test:"),
            mcplite.content_image(PNG, "image/png"),
            mcplite.content_resource(
                "test://mixed-content-resource",
                text=json.dumps({"test": "data", "value": 123}, separators=(",", ":")),
                mime_type="application/json",
            ),
        ]
    )


# -- tools: logging, progress, errors ---------------------------------------------------------------


@server.tool
async def test_tool_with_logging(ctx: Context) -> str:
    """Tests tool that emits log messages during execution."""
    ctx.info("Tool execution started")
    await asyncio.sleep(0.05)
    ctx.info("Tool processing data")
    await asyncio.sleep(0.05)
    ctx.info("Tool execution completed")
    return "Tool with logging executed successfully"


@server.tool
async def test_tool_with_progress(ctx: Context) -> str:
    """Tests tool that reports progress notifications."""
    for step in (0, 50, 100):
        ctx.report_progress(step, 100, f"Completed step {step} of 100")
        if step < 100:
            await asyncio.sleep(0.05)
    return "Progress reported"


@server.tool
def test_error_handling() -> str:
    """Tests error response handling."""
    raise ToolError("This tool intentionally returns an error for testing")


@server.tool
async def test_reconnection(ctx: Context) -> str:
    """Tests SSE stream disconnection and client reconnection (SEP-1699): the call ends its stream,
    the client reconnects with Last-Event-ID and receives the answer there."""
    ctx.close_sse_stream()
    await asyncio.sleep(0.1)
    return (
        "Reconnection test completed successfully. If you received this, "
        "the client properly reconnected after stream closure."
    )


JSON_SCHEMA_2020_12 = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "$defs": {
        "address": {
            "$anchor": "addressDef",
            "type": "object",
            "properties": {"street": {"type": "string"}, "city": {"type": "string"}},
        }
    },
    "properties": {
        "name": {"type": "string"},
        "address": {"$ref": "#/$defs/address"},
        "contactMethod": {"type": "string", "enum": ["phone", "email"]},
        "phone": {"type": "string"},
        "email": {"type": "string"},
    },
    "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
    "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
    "then": {"required": ["phone"]},
    "else": {"required": ["email"]},
    "additionalProperties": False,
}
"""The suite's schema (SEP-1613, SEP-2106), listed as written and checked on every call."""


@server.tool(input_schema=JSON_SCHEMA_2020_12)
def json_schema_2020_12_tool(**arguments: Any) -> str:
    """Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)."""
    return f"JSON Schema 2020-12 tool called with: {json.dumps(arguments)}"


CUSTOM_HEADERS = {
    "type": "object",
    "properties": {
        "region": {"type": "string", "description": "Plain ASCII string value", "x-mcp-header": "Region"},
        "priority": {"type": "integer", "description": "Integer numeric value", "x-mcp-header": "Priority"},
        "verbose": {"type": "boolean", "description": "Boolean value", "x-mcp-header": "Verbose"},
    },
    "required": ["region"],
}


@server.tool(input_schema=CUSTOM_HEADERS)
def test_custom_headers(region: str, priority: int | None = None, verbose: bool | None = None) -> str:
    """A tool whose parameters 2026-07-28 clients mirror into Mcp-Param-* headers (SEP-2243)."""
    return f"region={region} priority={priority} verbose={verbose}"


# -- the 2026-07-28 diagnostic tools of the suite's server-stateless scenario ----------------------


@server.tool
def test_logging_tool(ctx: Context) -> str:
    """Diagnostic logging validator tool: logs at info (sent only to a request that names a log level)."""
    ctx.info("Diagnostic trace logging activated")
    return "Logging evaluated"


@server.tool
def test_streaming_elicitation(ctx: Context) -> str:
    """Diagnostic tool validating response progress streams (only notifications precede the result)."""
    ctx.report_progress(50, 100)
    return "Streaming complete"


@server.tool
def test_trigger_tool_change() -> str:
    """Tell the clients listening for it that the tool list changed."""
    server.notify_tools_changed()
    return "Mutation triggered"


@server.tool
def test_trigger_prompt_change() -> str:
    """Tell the clients listening for it that the prompt list changed."""
    server.notify_prompts_changed()
    return "Mutation triggered"


# -- tools that ask the client something (elicitation, sampling, roots) ---------------------------

NAME = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}


@server.tool
async def test_sampling(prompt: str, ctx: Context) -> str:
    """Tests server-initiated sampling (LLM completion request)."""
    reply = await ctx.sample(prompt, max_tokens=100)
    return f"LLM response: {reply.text}"


@server.tool
async def test_elicitation(message: str, ctx: Context) -> str:
    """Tests server-initiated elicitation (user input request)."""
    schema = {
        "type": "object",
        "properties": {
            "username": {"type": "string", "description": "User's response"},
            "email": {"type": "string", "description": "User's email address"},
        },
        "required": ["username", "email"],
    }
    answer = await ctx.elicit(message, schema)
    return f"User response: action={answer.action}, content={json.dumps(answer.content)}"


@attrs.frozen
class Defaults:
    """SEP-1034: a default on every primitive (derived from the record type)."""

    name: str = "John Doe"
    age: int = 30
    score: float = 95.5
    status: Literal["active", "inactive", "pending"] = "active"
    verified: bool = True


@server.tool
async def test_elicitation_sep1034_defaults(ctx: Context) -> str:
    """Tests elicitation with default values per SEP-1034."""
    answer = await ctx.elicit("Please review and update the form fields with defaults", Defaults)
    content = None if answer.content is None else attrs.asdict(answer.content)
    return f"Elicitation completed: action={answer.action}, content={json.dumps(content)}"


ENUMS = {
    "type": "object",
    "properties": {
        "untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
        "titledSingle": {
            "type": "string",
            "oneOf": [
                {"const": "value1", "title": "First Option"},
                {"const": "value2", "title": "Second Option"},
                {"const": "value3", "title": "Third Option"},
            ],
        },
        "legacyEnum": {
            "type": "string",
            "enum": ["opt1", "opt2", "opt3"],
            "enumNames": ["Option One", "Option Two", "Option Three"],
        },
        "untitledMulti": {
            "type": "array",
            "items": {"type": "string", "enum": ["option1", "option2", "option3"]},
        },
        "titledMulti": {
            "type": "array",
            "items": {
                "anyOf": [
                    {"const": "value1", "title": "First Choice"},
                    {"const": "value2", "title": "Second Choice"},
                    {"const": "value3", "title": "Third Choice"},
                ]
            },
        },
    },
}
"""SEP-1330's five enum forms, the legacy ``enumNames`` one included: a hand-written schema."""


@server.tool
async def test_elicitation_sep1330_enums(ctx: Context) -> str:
    """Tests elicitation with enum schema improvements per SEP-1330."""
    answer = await ctx.elicit("Please select options from the enum fields", ENUMS)
    return f"Elicitation completed: action={answer.action}, content={json.dumps(answer.content)}"


# -- 2026-07-28: the same asks as input_required rounds (keys as the suite's scenarios name them) ---


@server.tool
async def test_missing_capability(ctx: Context) -> str:
    """Needs sampling: a client that did not declare it gets -32021."""
    reply = await ctx.sample("Say hello", max_tokens=10)
    return reply.text


@server.tool
async def test_input_required_result_elicitation(ctx: Context) -> str:
    """MRTR: one elicitation."""
    answer = await ctx.elicit("What is your name?", NAME, key="user_name")
    return f"Hello, {answer.content['name']}!"


@server.tool
async def test_input_required_result_sampling(ctx: Context) -> str:
    """MRTR: one sampling request."""
    reply = await ctx.sample("What is the capital of France?", max_tokens=100, key="capital_question")
    return reply.text


@server.tool
async def test_input_required_result_list_roots(ctx: Context) -> str:
    """MRTR: the client's roots."""
    found = await ctx.list_roots(key="client_roots")
    return f"Roots: {', '.join(found.uris)}"


@server.tool
async def test_input_required_result_request_state(ctx: Context) -> str:
    """MRTR: a confirmation; reaching the end means the signed requestState verified."""
    schema = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}
    answer = await ctx.elicit("Please confirm", schema, key="confirm")
    return f"state-ok: confirmed={answer.content['ok']}"


@server.tool
async def test_input_required_result_multiple_inputs(ctx: Context) -> str:
    """MRTR: an elicitation, a sampling request and the roots, in one round."""
    name, greeting, found = await ctx.ask_all(
        ctx.elicit("What is your name?", NAME, key="user_name"),
        ctx.sample("Generate a greeting", max_tokens=50, key="greeting"),
        ctx.list_roots(key="client_roots"),
    )
    return f"{greeting.text} {name.content['name']} ({len(found.roots)} roots)"


@server.tool
async def test_input_required_result_multi_round(ctx: Context) -> str:
    """MRTR: two rounds, one after the other."""
    name = await ctx.elicit("Step 1: What is your name?", NAME, key="step1")
    colour = {"type": "object", "properties": {"color": {"type": "string"}}, "required": ["color"]}
    color = await ctx.elicit("Step 2: What is your favorite color?", colour, key="step2")
    return f"{name.content['name']} likes {color.content['color']}"


@server.tool
async def test_input_required_result_tampered_state(ctx: Context) -> str:
    """MRTR: a tampered requestState is refused (-32602) before this runs again."""
    answer = await ctx.elicit("Please confirm", {"type": "object", "properties": {"ok": {"type": "boolean"}}})
    return f"confirmed: {answer.content}"


@server.tool
async def test_input_required_result_capabilities(ctx: Context) -> str:
    """MRTR: asks only what the client declared it can answer."""
    can = ctx.client_capabilities
    asks: list[mcplite.Answer] = []
    if "elicitation" in can:
        asks.append(ctx.elicit("What is your name?", NAME, key="user_name"))
    if "sampling" in can:
        asks.append(ctx.sample("Generate a greeting", max_tokens=50, key="greeting"))
    if "roots" in can:
        asks.append(ctx.list_roots(key="client_roots"))
    answers = await ctx.ask_all(*asks)
    return f"answered {len(answers)} of the asks the client can take"


# -- resources -------------------------------------------------------------------------------------


@server.resource(
    "test://static-text",
    name="static-text",
    title="Static Text Resource",
    description="A static text resource for testing",
    mime_type="text/plain",
)
def static_text() -> str:
    return "This is the content of the static text resource."


@server.resource(
    "test://static-binary",
    name="static-binary",
    title="Static Binary Resource",
    description="A static binary resource (image) for testing",
    mime_type="image/png",
)
def static_binary() -> bytes:
    return PNG


@server.resource(
    "test://template/{id}/data",
    name="template",
    title="Resource Template",
    description="A resource template with parameter substitution",
    mime_type="application/json",
)
def template(id: str) -> str:
    return json.dumps({"id": id, "templateTest": True, "data": f"Data for ID: {id}"})


@server.resource(
    "test://watched-resource",
    name="watched-resource",
    title="Watched Resource",
    description="A resource that a client may subscribe to",
    mime_type="text/plain",
)
def watched_resource() -> str:
    return "Watched resource content"


# -- the tasks extension (io.modelcontextprotocol/tasks, 2026-07-28) -------------------------------


@server.tool
def greet(name: str) -> str:
    """Says hello (never a task, even for a client that declared the extension)."""
    return f"Hello, {name}!"


@server.tool(task="optional")
def slow_compute(seconds: float, label: str, ctx: Context) -> str:
    """Works for `seconds` seconds in a worker thread, stopping early when cancelled; a task."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        ctx.check_cancelled()
        time.sleep(min(0.05, max(0.0, end - time.monotonic())))
    return f"{label}: done after {seconds:g} s"


@server.tool(task="required")
def failing_job() -> str:
    """Always fails as a tool (isError); runs only as a task."""
    raise ToolError("the job failed, as it always does")


@server.tool(task="optional")
async def protocol_error_job(ctx: Context) -> str:
    """Asks for sampling with tools, which the suite's clients do not declare: the task fails with
    -32021, a protocol-level error."""
    reply = await ctx.sample(
        "Pick a tool", max_tokens=10, tools=[{"name": "t", "inputSchema": {"type": "object"}}]
    )
    return reply.text


CONFIRM = {"type": "object", "properties": {"confirm": {"type": "boolean"}}, "required": ["confirm"]}


@server.tool(task="optional")
def confirm_delete(filename: str, ctx: Context) -> str:
    """Asks the client to confirm, then deletes nothing (a task waiting on one answer)."""
    answer = ctx.elicit(f"Delete {filename}?", CONFIRM)
    return f"deleted {filename}" if answer.content.get("confirm") else f"kept {filename}"


@server.tool(task="optional")
async def multi_input(ctx: Context) -> str:
    """Asks two questions at once (a task waiting on two answers)."""
    name, sure = await ctx.ask_all(
        ctx.elicit("What is your name?", NAME), ctx.elicit("Are you sure?", CONFIRM)
    )
    return f"{name.content.get('name')} (sure: {sure.content.get('confirm')})"


@server.tool
async def test_tool_with_task(ctx: Context) -> Any:
    """Asks the name in an input_required round, then greets as a task (mcplite.continue_as_task)."""
    answer = await ctx.elicit("What is your name?", NAME, key="user_name")
    return mcplite.continue_as_task(greeting_later, answer.content["name"])


def greeting_later(name: str) -> str:
    time.sleep(0.2)
    return f"Hello, {name}! (from a task)"


# -- prompts and completion ------------------------------------------------------------------------


@server.prompt(title="Simple Test Prompt")
def test_simple_prompt() -> str:
    """A simple prompt without arguments."""
    return "This is a simple prompt for testing."


@server.prompt(title="Prompt With Arguments")
def test_prompt_with_arguments(arg1: str, arg2: str) -> str:
    """A prompt with required arguments."""
    return f"Prompt with arguments: arg1='{arg1}', arg2='{arg2}'"


@server.prompt(title="Prompt With Embedded Resource")
def test_prompt_with_embedded_resource(resourceUri: str) -> list[Any]:
    """A prompt that includes an embedded resource."""
    embedded = mcplite.content_resource(
        resourceUri, text="Embedded resource content for testing.", mime_type="text/plain"
    )
    return [embedded, "Please process the embedded resource above."]


@server.prompt(title="Prompt With Image")
def test_prompt_with_image() -> list[Any]:
    """A prompt that includes image content."""
    return [mcplite.content_image(PNG, "image/png"), "Please analyze the image above."]


@server.prompt
async def test_input_required_result_prompt(ctx: Context) -> str:
    """MRTR: prompt that requires elicitation input."""
    schema = {"type": "object", "properties": {"context": {"type": "string"}}, "required": ["context"]}
    answer = await ctx.elicit("What context should the prompt use?", schema, key="user_context")
    return f"Use this context: {answer.content['context']}"


@server.completion
def complete(ref: dict[str, Any], argument: str, value: str) -> list[str]:
    """No suggestions: the suite checks the shape of the answer, as its reference server does."""
    return []


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args(argv)
    server.run(transport="http", host="127.0.0.1", port=args.port, shutdown_grace=1.0)


if __name__ == "__main__":
    main()
