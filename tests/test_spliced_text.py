"""A frame tool's text goes into the response line as the bytes the compiled writer wrote already
escaped (one pass, no ``json.dumps`` of the text): the lines are byte for byte those of the plain
path, a real client reads the same text, and the block is an ordinary text block everywhere else.
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import attrs
import numpy as np
import pandas as pd
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

from mcplite import as_tool_result
from mcplite.payload.results import served_result
from mcplite.payload.rjson import options_in_force
from mcplite.protocol.jsonrpc import RawJson, encode_line, encode_result_line, object_pieces
from mcplite.protocol.projection import result_parts
from mcplite.protocol.spliced import SplicedText
from mcplite.protocol.types import TextContent
from mcplite.protocol.wire import converter
from rvalues import _speedups

TRICKY = ['say "hi"', "back\\slash", "tab\tnew\nline", "</script>", "é😀\u2028", None, "\x01"]


def frame(rows: int) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "id": np.arange(rows, dtype=np.int64),
            "x": np.where(np.arange(rows) % 7 == 0, np.nan, np.arange(rows) / 3),
            "s": [TRICKY[i % len(TRICKY)] for i in range(rows)],
            "when": pd.Timestamp("2024-01-01") + pd.to_timedelta(np.arange(rows) * 3601, unit="s"),
            "g": pd.Categorical(["a", "b\\", 'c"'] * (rows // 3) + ["a"] * (rows % 3)),
        }
    )


@pytest.mark.parametrize("rows", [3, 17, 40, 1000])
@pytest.mark.parametrize("version", ["2024-11-05", "2025-11-25", "2026-07-28"])
def test_the_line_is_the_plain_paths_byte_for_byte(rows: int, version: str) -> None:
    df = frame(rows)
    options = options_in_force()
    served = served_result(df, options)
    plain = as_tool_result(df)
    assert served == plain
    if _speedups.core is not None and rows > 16:
        assert isinstance(served.content[0], SplicedText)
    line = encode_result_line(7, result_parts(served, version)[0], {})
    assert line == encode_result_line(7, result_parts(plain, version)[0], {})
    assert line == encode_line({"jsonrpc": "2.0", "id": 7, "result": plain.to_wire(version)})


def test_a_spliced_block_is_a_text_block() -> None:
    text = frame(40).to_json(date_format="iso")
    escaped = encode_line({"t": text})[6:-3]
    block = SplicedText.from_escaped(escaped)
    assert block.spliceable == escaped
    assert block.text == text and block == TextContent(text) and TextContent(text) == block
    assert hash(block) == hash(TextContent(text))
    assert converter.unstructure(block) == {"type": "text", "text": text}
    copy = pickle.loads(pickle.dumps(block))
    assert copy == block and copy.spliceable is None
    changed = attrs.evolve(block, meta={"k": 1})
    assert changed.text == text and changed.meta == {"k": 1} and changed.spliceable is None


def test_a_text_holding_anything_is_exact_among_other_blocks() -> None:
    served = served_result(frame(40), options_in_force())
    assert isinstance(served.content[0], SplicedText) or _speedups.core is None
    marker = TextContent("\x00spliced\x00")  # lines were once split on this text's JSON
    more = attrs.evolve(served, content=[TextContent("before"), *served.content, marker])
    plain = attrs.evolve(more, content=[TextContent(b.text) for b in more.content])
    for version in ("2024-11-05", "2026-07-28"):
        line = encode_result_line(7, result_parts(more, version)[0], {"x": b"[1]"})
        assert line == encode_result_line(7, result_parts(plain, version)[0], {"x": b"[1]"})
        assert json.loads(line)["result"]["content"] == plain.to_wire(version)["content"]


def test_the_spliced_line_is_written_in_one_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    served = served_result(frame(40), options_in_force())
    plain = encode_line(
        {"jsonrpc": "2.0", "id": 7, "result": as_tool_result(frame(40)).to_wire("2025-11-25")}
    )
    refused: list[TypeError] = []
    dumps = json.dumps

    def watched(*args: Any, **kwargs: Any) -> str:
        try:
            return dumps(*args, **kwargs)
        except TypeError as err:  # the line writer once let json.dumps fail on a spliced block
            refused.append(err)
            raise

    monkeypatch.setattr(json, "dumps", watched)
    assert encode_result_line(7, result_parts(served, "2025-11-25")[0], {}) == plain
    assert refused == []


def object_bytes(members: dict[str, Any]) -> bytes:
    return b"".join(object_pieces(members))


def test_raw_json_members_go_in_as_their_bytes() -> None:
    members = {"type": "text", "text": RawJson(b'"a\\', b'"b"'), "n": 1, "s": "é"}
    assert object_bytes(members) == encode_line({"type": "text", "text": 'a"b', "n": 1, "s": "é"})[:-1]
    assert object_bytes({"n": 1}) == b'{"n":1}' and object_bytes({}) == b"{}"
    assert object_bytes({"only": RawJson(b"[]")}) == b'{"only":[]}'
    with pytest.raises(ValueError, match="not valid Unicode"):
        object_bytes({"text": RawJson(b'""'), "bad": "\udcff"})
    with pytest.raises(TypeError):
        object_bytes({"text": RawJson(b'""'), "bad": object()})
    with pytest.raises(TypeError):
        encode_line({"a": RawJson(b"1")})  # only a result's members, by the line writer that knows
    line = encode_result_line("é", {"content": RawJson(b"[]"), "isError": True}, {"x": b"1"})
    assert line == encode_line(
        {"jsonrpc": "2.0", "id": "é", "result": {"content": [], "isError": True, "x": 1}}
    )


SERVER = textwrap.dedent(
    """
    import sys
    sys.path.insert(0, {tests!r})
    from test_spliced_text import frame
    from mcplite import McpServer

    server = McpServer("spliced", result_budget=None)  # the whole 1,000-row frame, spliced

    @server.tool
    def big() -> object:
        return frame(1000)

    server.run()
    """
)


@pytest.fixture
def server_script(tmp_path: Path) -> Path:
    script = tmp_path / "server.py"
    script.write_text(SERVER.format(tests=str(Path(__file__).parent)))
    return script


def test_the_sdk_client_reads_the_text(server_script: Path) -> None:
    import anyio

    expected = as_tool_result(frame(1000)).content[0].text

    async def call() -> Any:
        params = StdioServerParameters(
            command=sys.executable, args=[str(server_script)], env=dict(os.environ)
        )
        async with Client(stdio_client(params)) as client:
            return await client.call_tool("big", {})

    result = anyio.run(call)
    assert not result.is_error
    assert [block.text for block in result.content] == [expected]


def test_the_raw_line_is_the_plain_paths(server_script: Path) -> None:
    proc = subprocess.run(
        [sys.executable, str(server_script)],
        input=b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"big","arguments":{},'
        b'"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",'
        b'"io.modelcontextprotocol/clientCapabilities":{}}}}\n',
        capture_output=True,
        timeout=60,
        check=True,
    )
    line = proc.stdout.splitlines(keepends=True)[0]
    text = as_tool_result(frame(1000)).content[0].text
    assert encode_line({"t": text})[6:-3] in line
