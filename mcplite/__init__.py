"""mcplite: Model Context Protocol tool results built on rvalues.

Tools return ordinary values (text, or JSON exactly as R's jsonlite writes it) or explicit results:

>>> import mcplite
>>> from rvalues import r_list, NA_real_
>>> mcplite.as_tool_result(r_list(n=1, x=NA_real_)).content[0].text
'{"n":1,"x":"NA"}'
>>> with mcplite.options(json_na="null"):
...     mcplite.tool_result(structured_content=r_list(x=NA_real_)).to_wire("2025-06-18")
{'content': [{'type': 'text', 'text': '{"x":null}'}], 'structuredContent': {'x': None}}
"""

from mcplite.engine.dask_tasks import DaskTasks
from mcplite.features.prompts import PromptMessage
from mcplite.features.resources import ResourceNotFound
from mcplite.features.result_store import DirectoryStore, MemoryStore, ResultStore
from mcplite.features.task_store import TaskStore
from mcplite.http import McpHttpApp
from mcplite.payload.content import (
    content_audio,
    content_image,
    content_resource,
    content_resource_link,
    content_text,
)
from mcplite.payload.converter import converter, get_converter
from mcplite.payload.options import get_option, options
from mcplite.payload.results import as_tool_result, tool_result
from mcplite.protocol import projection  # noqa: F401  (it registers the protocol types' wire forms)
from mcplite.protocol.messages import DiscoverResult, Implementation, InitializeResult, ListToolsResult
from mcplite.protocol.types import (
    ABSENT,
    Annotations,
    AudioContent,
    BlobResourceContents,
    CallToolResult,
    ContentBlock,
    EmbeddedResource,
    Icon,
    ImageContent,
    ResourceLink,
    TextContent,
    TextResourceContents,
    Tool,
    ToolAnnotations,
)
from mcplite.protocol.versions import PROTOCOL_VERSIONS
from mcplite.server import McpServer, RegisteredTool, mcp_server
from mcplite.tools.asks import Answer, AskError, ElicitAnswer, RootsAnswer, SampleAnswer
from mcplite.tools.context import Context, ToolCancelled
from mcplite.tools.continuation import continue_as_task
from mcplite.tools.failures import PublicError, ToolError
from mcplite.tools.markers import Examples, Rows
from mcplite.tools.output_schema import output_schema

__all__ = [
    "ABSENT",
    "PROTOCOL_VERSIONS",
    "Annotations",
    "Answer",
    "AskError",
    "AudioContent",
    "BlobResourceContents",
    "CallToolResult",
    "ContentBlock",
    "Context",
    "DaskTasks",
    "DirectoryStore",
    "DiscoverResult",
    "ElicitAnswer",
    "EmbeddedResource",
    "Examples",
    "Icon",
    "ImageContent",
    "Implementation",
    "InitializeResult",
    "ListToolsResult",
    "McpHttpApp",
    "McpServer",
    "MemoryStore",
    "PromptMessage",
    "PublicError",
    "RegisteredTool",
    "ResourceLink",
    "ResourceNotFound",
    "ResultStore",
    "RootsAnswer",
    "Rows",
    "SampleAnswer",
    "TaskStore",
    "TextContent",
    "TextResourceContents",
    "Tool",
    "ToolAnnotations",
    "ToolCancelled",
    "ToolError",
    "as_tool_result",
    "content_audio",
    "content_image",
    "content_resource",
    "content_resource_link",
    "content_text",
    "continue_as_task",
    "converter",
    "get_converter",
    "get_option",
    "mcp_server",
    "options",
    "output_schema",
    "tool_result",
]
