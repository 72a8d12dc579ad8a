"""A text block whose text was written already escaped as a JSON string's inside: a server splices
those bytes into its response line as they are (one escape pass, in the writer that wrote the
text), and the text itself is read from them only when someone asks for it.

It is a :class:`~mcplite.protocol.types.TextContent` in every other way: equal to the plain block
with the same text, written the same by ``to_wire``.

>>> block = SplicedText.from_escaped(b'[{\\\\"a\\\\":1}]')
>>> block.text, block == TextContent('[{"a":1}]')
('[{"a":1}]', True)
"""

from __future__ import annotations

import json

from mcplite.protocol.types import TextContent

_TEXT = TextContent.__dict__["text"]
"""The ``text`` slot of a text block (the property below stands in front of it)."""


class SplicedText(TextContent):
    """A text block made from its escaped UTF-8 bytes (:meth:`from_escaped`); ``escaped`` is None
    once the block was built the ordinary way (``attrs.evolve``, unpickling)."""

    __slots__ = ("escaped",)

    escaped: bytes | None

    @classmethod
    def from_escaped(cls, escaped: bytes) -> SplicedText:
        """The block of the text whose JSON string is ``b'"' + escaped + b'"'`` (valid UTF-8,
        written by a JSON writer, so not checked again)."""
        block = object.__new__(cls)
        setattr_ = object.__setattr__
        setattr_(block, "escaped", escaped)
        setattr_(block, "annotations", None)
        setattr_(block, "meta", None)
        return block

    @property  # type: ignore[override]
    def text(self) -> str:
        """The text (read from the escaped bytes the first time it is asked for)."""
        try:
            return _TEXT.__get__(self)  # type: ignore[no-any-return]
        except AttributeError:
            text: str = json.loads(b'"' + (self.spliceable or b"") + b'"')
            _TEXT.__set__(self, text)
            return text

    @text.setter
    def text(self, value: str) -> None:  # what attrs' __init__ and unpickling set
        _TEXT.__set__(self, value)

    @property
    def spliceable(self) -> bytes | None:
        """The escaped bytes to splice, or None (a block built the ordinary way)."""
        return getattr(self, "escaped", None)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TextContent):
            return NotImplemented
        return (self.text, self.annotations, self.meta) == (other.text, other.annotations, other.meta)

    def __hash__(self) -> int:
        return hash(TextContent(self.text, annotations=self.annotations, meta=self.meta))
