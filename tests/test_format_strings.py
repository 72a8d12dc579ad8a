"""R's ``encodeString`` and display widths (expected values checked in R 4.2.2, UTF-8 locale)."""

from __future__ import annotations

import pytest

from rvalues.format.strings import display_width, encode_string, encoded_width, pad

# (input, quote, what R's encodeString(input, quote = quote) returns)
ENCODED = [
    ("tab\there", "", "tab\\there"),
    ('say "hi"\n', '"', '"say \\"hi\\"\\n"'),
    (None, "", "<NA>"),
    (None, '"', "NA"),
    ("\x01\x7f", '"', '"\\001\\177"'),
    ("\x80x", '"', '"\\u0080x"'),
    ("bell\a\b\f\r\v", '"', '"bell\\a\\b\\f\\r\\v"'),
    ("back\\slash", '"', '"back\\\\slash"'),
    ("it's", '"', '"it\'s"'),
    ("été", '"', '"été"'),
]


@pytest.mark.parametrize(("text", "quote", "expected"), ENCODED)
def test_encode_string(text: str | None, quote: str, expected: str) -> None:
    assert encode_string(text, quote) == expected


def test_widths_count_display_columns() -> None:
    # R: nchar(c("e\u0301", "a\U0001F600", "\u65e5\u672c"), "w") is 1 3 4
    assert [display_width(s) for s in ["e\u0301", "a\U0001f600", "\u65e5\u672c"]] == [1, 3, 4]
    assert encoded_width("\u65e5\u672c", '"') == 6
    assert pad("\u65e5", 4, "right") == "  \u65e5"
