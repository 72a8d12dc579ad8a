"""The demo's resources, templates, prompt and completions (column names and species) through the
official SDK's ``Client`` over stdio (``python -m mcplite``), legacy and 2026-07-28. What each read
must bring back is mcplite's own writing of the same value, never typed by hand."""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError
from mcp_types import PromptReference, ResourceTemplateReference

from mcplite.demo.offer import explore_column, rows_of
from mcplite.demo.server import penguins
from mcplite.payload.returned import encode_value_json
from mcplite.payload.rjson import options_in_force

TIMEOUT = 30.0
pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module", params=["legacy", "2026-07-28"])
async def client(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, anyio_backend: str
) -> AsyncIterator[Any]:
    errors = tmp_path_factory.mktemp("demo") / "stderr.log"
    params = StdioServerParameters(command=sys.executable, args=["-m", "mcplite"], env=dict(os.environ))
    with Path(errors).open("w", encoding="utf-8") as errlog:
        async with Client(
            stdio_client(params, errlog=errlog), mode=request.param, read_timeout_seconds=TIMEOUT
        ) as opened:  # type: ignore[arg-type]
            yield opened


async def read_text(client: Any, uri: str) -> str:
    with anyio.fail_after(TIMEOUT):
        result = await client.read_resource(uri, cache_mode="bypass")
    (contents,) = result.contents
    assert contents.mime_type == "application/json"
    return str(contents.text)


async def test_the_data_a_column_and_a_species(client: Any) -> None:
    with anyio.fail_after(TIMEOUT):
        resources = (await client.list_resources()).resources
        templates = (await client.list_resource_templates()).resource_templates
    assert [str(r.uri) for r in resources] == ["penguins://data"]
    assert [t.uri_template for t in templates] == [
        "penguins://columns/{name}",
        "penguins://species/{species}",
    ]
    frame = penguins()
    assert await read_text(client, "penguins://data") == encode_value_json(frame, options=options_in_force())
    assert await read_text(client, "penguins://columns/island") == encode_value_json(
        frame.columns["island"], options=options_in_force()
    )
    gentoo = await read_text(client, "penguins://species/Gentoo")
    assert gentoo == encode_value_json(rows_of(frame, "Gentoo"), options=options_in_force())
    assert gentoo.count('"species":"Gentoo"') == 124 and '"Adelie"' not in gentoo
    with pytest.raises(MCPError) as caught, anyio.fail_after(TIMEOUT):
        await client.read_resource("penguins://species/Emperor", cache_mode="bypass")
    assert "the species are: Adelie, Chinstrap, Gentoo" in caught.value.error.message


async def test_column_names_and_species_complete(client: Any) -> None:
    template = ResourceTemplateReference(type="ref/resource", uri="penguins://columns/{name}")
    species = ResourceTemplateReference(type="ref/resource", uri="penguins://species/{species}")
    prompt = PromptReference(type="ref/prompt", name="explore_column")
    with anyio.fail_after(TIMEOUT):
        columns = await client.complete(template, {"name": "name", "value": "bill"})
        by_template = await client.complete(species, {"name": "species", "value": "g"})
        by_prompt = await client.complete(prompt, {"name": "species", "value": "C"})
        prompt_columns = await client.complete(prompt, {"name": "column", "value": "s"})
        everything = await client.complete(species, {"name": "species", "value": ""})
    assert columns.completion.values == ["bill_length_mm", "bill_depth_mm"]
    assert by_template.completion.values == ["Gentoo"]
    assert by_prompt.completion.values == ["Chinstrap"]
    assert prompt_columns.completion.values == ["species", "sex"]
    assert everything.completion.values == ["Adelie", "Chinstrap", "Gentoo"]


async def test_the_explore_prompt(client: Any) -> None:
    with anyio.fail_after(TIMEOUT):
        prompts = (await client.list_prompts()).prompts
        plain = await client.get_prompt("explore_column", {"column": "body_mass_g"})
        one = await client.get_prompt("explore_column", {"column": "body_mass_g", "species": "Adelie"})
    assert [(p.name, [(a.name, a.required) for a in p.arguments]) for p in prompts] == [
        ("explore_column", [("column", True), ("species", False)])
    ]
    assert plain.messages[0].content.text == explore_column("body_mass_g")
    assert one.messages[0].content.text == explore_column("body_mass_g", "Adelie")
    assert "penguins://species/Adelie" in one.messages[0].content.text
