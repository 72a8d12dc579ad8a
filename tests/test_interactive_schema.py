"""Elicitation schemas derived from record types, read with the official SDK's 2025-11-25 types:
each property is the spec's primitive or enum variant, and nothing in it is unknown to that
variant (it reads back whole). Answers come back structured into the record type.
"""

from __future__ import annotations

import asyncio
import dataclasses
import enum
from typing import Any, Literal

import attrs
import pytest
from mcp_types import _v2025_11_25 as spec

import mcplite
from mcplite.tools.asks import Ask, ElicitAnswer, elicitation_schema


class Colour(enum.Enum):
    DEEP_BLUE = "blue"
    RED = "red"


@attrs.frozen
class Everything:
    name: str
    age: int = 30
    score: float = 95.5
    verified: bool = True
    status: Literal["active", "inactive"] = "active"
    colour: Colour = Colour.RED
    tags: list[Literal["a", "b"]] = attrs.field(factory=lambda: ["a"])
    shades: list[Colour] = attrs.field(factory=list)
    note: str | None = None


VARIANTS: dict[str, type[Any]] = {
    "name": spec.StringSchema,
    "age": spec.NumberSchema,
    "score": spec.NumberSchema,
    "verified": spec.BooleanSchema,
    "status": spec.UntitledSingleSelectEnumSchema,
    "colour": spec.TitledSingleSelectEnumSchema,
    "tags": spec.UntitledMultiSelectEnumSchema,
    "shades": spec.TitledMultiSelectEnumSchema,
    "note": spec.StringSchema,
}


def test_every_property_is_the_spec_variant_it_should_be_and_reads_back_whole() -> None:
    schema = elicitation_schema(Everything)
    params = spec.ElicitRequestFormParams.model_validate({"message": "m", "requestedSchema": schema})
    assert params.requested_schema.required == ["name"]  # no default, not optional
    for name, variant in VARIANTS.items():
        prop = schema["properties"][name]
        read = variant.model_validate(prop).model_dump(mode="json", by_alias=True, exclude_none=True)
        assert read == prop, name
    # a default on every primitive that has one, as the record declares it (SEP-1034)
    record = Everything(name="x")
    for name in ("age", "score", "verified", "status"):
        assert schema["properties"][name]["default"] == getattr(record, name)
    assert schema["properties"]["colour"]["default"] == record.colour.value
    assert schema["properties"]["tags"]["default"] == record.tags


def test_a_dataclass_works_as_an_attrs_class_does() -> None:
    @dataclasses.dataclass
    class Confirm:
        proceed: bool
        rows: int = 10

    schema = elicitation_schema(Confirm)
    assert spec.ElicitRequestFormParams.model_validate({"message": "m", "requestedSchema": schema})
    assert schema["required"] == ["proceed"] and schema["properties"]["rows"]["default"] == 10


def test_a_field_elicitation_cannot_ask_is_refused_naming_it() -> None:
    @attrs.frozen
    class Nested:
        inner: dict[str, int]

    with pytest.raises(TypeError, match="field 'inner' of Nested"):
        elicitation_schema(Nested)
    with pytest.raises(TypeError, match="attrs class, a dataclass or a JSON schema dict"):
        elicitation_schema(int)


class Answered:
    """An asker that answers with one result object."""

    def __init__(self, raw: dict[str, Any]) -> None:
        self.raw = raw

    def ask_blocking(self, asks: Any) -> list[dict[str, Any]]:
        return [self.raw]

    async def ask(self, asks: Any) -> list[dict[str, Any]]:
        return [self.raw]


def answering(raw: dict[str, Any], version: str = "2025-11-25") -> mcplite.Context:
    """A context of ``version`` whose client answers ``raw`` to every ask."""
    return mcplite.Context(
        request_id=1, protocol_version=version, notify=lambda *a: None, asker=Answered(raw)
    )


def answer(raw: dict[str, Any]) -> ElicitAnswer[Everything]:
    result = spec.ElicitResult.model_validate(raw).model_dump(mode="json", by_alias=True, exclude_none=True)
    return answering(result).elicit("m", Everything)


def test_the_answer_is_structured_into_the_record() -> None:
    got = answer(
        {"action": "accept", "content": {"name": "Al", "colour": "blue", "tags": ["b"], "shades": ["red"]}}
    )
    assert got.action == "accept"
    assert got.content == Everything(name="Al", colour=Colour.DEEP_BLUE, tags=["b"], shades=[Colour.RED])
    declined = answer({"action": "decline"})
    assert (declined.action, declined.content) == ("decline", None)


def test_an_answer_that_does_not_fit_is_an_ask_error_naming_the_record() -> None:
    with pytest.raises(mcplite.AskError, match="does not fit Everything"):
        answer({"action": "accept", "content": {"name": "Al", "status": "retired"}})


def test_an_async_caller_must_await_before_reading() -> None:
    async def main() -> None:
        context = answering({"action": "accept", "content": {"ok": True}})
        pending = context.elicit("m", {"type": "object", "properties": {"ok": {"type": "boolean"}}})
        with pytest.raises(RuntimeError, match="await it"):
            pending.action  # noqa: B018
        assert (await pending).content == {"ok": True}
        assert isinstance(pending.ask, Ask)

    asyncio.run(main())


def test_sampling_with_tools_needs_a_version_that_has_them() -> None:
    result = {"role": "assistant", "content": {"type": "text", "text": "ok"}, "model": "m"}
    tool = {"name": "lookup", "inputSchema": {"type": "object"}}
    for version in ("2025-06-18", "2025-11-25"):
        context = answering(result, version)
        if version == "2025-06-18":
            with pytest.raises(mcplite.AskError, match="need protocol 2025-11-25 or later"):
                context.sample("hi", max_tokens=5, tools=[tool])
        else:
            assert context.sample("hi", max_tokens=5, tools=[tool]).text == "ok"


def test_together_is_for_sync_code_and_does_not_nest() -> None:
    context = answering({"action": "accept", "content": {}})
    with context.together(), pytest.raises(RuntimeError, match="do not nest"), context.together():
        pass

    async def main() -> None:
        with pytest.raises(RuntimeError, match=r"await ctx\.ask_all"), context.together():
            pass

    asyncio.run(main())
