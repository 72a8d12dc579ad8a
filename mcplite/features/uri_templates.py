"""URI templates of RFC 6570 level 1: ``{name}`` expressions, matched against a URI to bind them.

A level-1 expression expands to its value with every character but the unreserved ones
percent-encoded, so a value never spans a ``/``, ``?`` or ``#``; matching takes each expression's
text between its literals and percent-decodes it. Two expressions with no literal between them
(``{a}{b}``) have no boundary to match on and are refused.

Matching scans the URI once from its end, with no backtracking (each value takes the shortest text
that lets the literal before it match, which leaves the first value the longest, as a greedy
regular expression would), so its time grows with the URI's length only; a URI longer than
:data:`MAX_URI_LENGTH` matches nothing.

>>> template = UriTemplate("penguins://columns/{name}")
>>> template.names, template.match("penguins://columns/bill%20length")
(('name',), {'name': 'bill length'})
>>> template.match("penguins://rows/1") is None
True
>>> template.expand({"name": "bill length"})
'penguins://columns/bill%20length'
>>> UriTemplate("data://days/{y}-{m}-{d}").match("data://days/2024-01-31")
{'y': '2024', 'm': '01', 'd': '31'}

A decoded value can spell what the URI could not (``%2F`` is ``/``); :meth:`UriTemplate.refusal`
says why a value is not served (see :func:`refusal`).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from urllib.parse import quote, unquote

MAX_URI_LENGTH = 8192
"""The most characters a resource URI may have: a longer one matches no template."""

_EXPRESSION = re.compile(r"\{([^{}]*)\}")
_VARIABLE = re.compile(r"^[A-Za-z0-9_]+$")
_STOPS = "/?#"
"""The characters a level-1 value never holds unencoded."""


def refusal(value: str, *, path: bool = False) -> str | None:
    """Why a decoded value is not served (None: it is), so that a value cannot name a file outside
    the place its function reads from: a value holding NUL or what is not UTF-8 is refused; one
    holding ``/`` or ``\\``, or that is ``.`` or ``..``, is refused unless it is a ``path``.

    >>> refusal("bill length"), refusal("..%2Fetc"), refusal("../etc"), refusal("a/b", path=True)
    (None, None, "holds '/'", None)
    >>> refusal(".."), refusal("\\x00"), refusal(unquote("%ff", errors="surrogateescape"))
    ("is '..'", 'holds NUL', 'is not UTF-8')
    """
    if "\x00" in value:
        return "holds NUL"
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return "is not UTF-8"
    if path:
        return None
    for separator in ("/", "\\"):
        if separator in value:
            return f"holds {separator!r}"
    if value in (".", ".."):
        return f"is {value!r}"
    return None


class UriTemplate:
    """A level-1 URI template (``scheme://path/{a}/{b}``); the values of the expressions named in
    ``paths`` may hold ``/``, ``\\`` and ``..`` once decoded (see :meth:`refusal`)."""

    def __init__(self, template: str, *, paths: Collection[str] = ()) -> None:
        if not isinstance(template, str) or not template:
            raise TypeError(f"a URI template is a non-empty str, not {template!r:.80}")
        if len(template) > MAX_URI_LENGTH:
            raise ValueError(f"URI template {template[:80]!r}...: longer than {MAX_URI_LENGTH} characters")
        names: list[str] = []
        literals: list[str] = []
        end = 0
        for found in _EXPRESSION.finditer(template):
            name = found.group(1)
            if not _VARIABLE.match(name):
                raise ValueError(
                    f"URI template {template!r}: {{{name}}} is not a level-1 expression "
                    "(a variable name of letters, digits and '_'; operators and modifiers are not supported)"
                )
            if name in names:
                raise ValueError(f"URI template {template!r}: {{{name}}} appears twice")
            literal = template[end : found.start()]
            if names and not literal:
                raise ValueError(
                    f"URI template {template!r}: {{{names[-1]}}}{{{name}}} are adjacent; put a literal "
                    "between them (like '-' or '/'), since nothing would say where one value ends"
                )
            names.append(name)
            literals.append(literal)
            end = found.end()
        literals.append(template[end:])
        if any("{" in literal or "}" in literal for literal in literals):
            raise ValueError(f"URI template {template!r}: unbalanced braces")
        if isinstance(paths, str) or not all(isinstance(name, str) for name in paths):
            raise TypeError(f"URI template {template!r}: paths is a collection of names, not {paths!r:.80}")
        unknown = sorted(set(paths) - set(names))
        if unknown:
            raise ValueError(
                f"URI template {template!r}: {unknown[0]!r} in paths is not one of its expressions"
            )
        self.template = template
        self.names: tuple[str, ...] = tuple(names)
        self.paths: frozenset[str] = frozenset(paths)
        self._literals: tuple[str, ...] = tuple(literals)

    @property
    def is_template(self) -> bool:
        """True when the template has expressions (else it is a plain URI)."""
        return bool(self.names)

    def match(self, uri: str) -> dict[str, str] | None:
        """The values of the expressions if ``uri`` is one of the template's URIs, else None.

        Each value is percent-decoded; bytes that are not UTF-8 are kept as lone surrogates, so
        that :meth:`refusal` can refuse them rather than see U+FFFD.
        """
        raw = self._split(uri)
        if raw is None:
            return None
        return {name: unquote(value, errors="surrogateescape") for name, value in raw.items()}

    def refusal(self, values: Mapping[str, str]) -> str | None:
        """Why the decoded ``values`` of a match are not served, naming the expression, else None.

        >>> UriTemplate("file:///docs/{name}").refusal({"name": "../etc/passwd"})
        "{name} holds '/'"
        """
        for name, value in values.items():
            why = refusal(value, path=name in self.paths)
            if why is not None:
                return f"{{{name}}} {why}"
        return None

    def _split(self, uri: str) -> dict[str, str] | None:
        """The undecoded values, from the last to the first: each starts right after the rightmost
        occurrence of its literal that leaves it non-empty and free of ``/?#``."""
        literals, names = self._literals, self.names
        if len(uri) > MAX_URI_LENGTH:
            return None
        if not names:
            return {} if uri == self.template else None
        head, tail = literals[0], literals[-1]
        if (
            len(uri) < len(head) + len(tail) + len(names)
            or not uri.startswith(head)
            or not uri.endswith(tail)
        ):
            return None
        values: list[str] = []
        stop = len(uri) - len(tail)
        for index in range(len(names) - 1, -1, -1):
            earliest = max(uri.rfind(char, len(head), stop) for char in _STOPS) + 1
            if index == 0:
                start = len(head)
                if start < earliest or start >= stop:
                    return None
                literal_at = start
            else:
                literal = literals[index]
                literal_at = uri.rfind(literal, len(head), stop - 1)
                start = literal_at + len(literal)
                if literal_at < 0 or start < earliest:
                    return None
            values.append(uri[start:stop])
            stop = literal_at
        return dict(zip(names, reversed(values), strict=True))

    def expand(self, values: Mapping[str, object]) -> str:
        """The URI for these values (each percent-encoded, as level 1 does)."""
        missing = [name for name in self.names if name not in values]
        if missing:
            raise KeyError(f"URI template {self.template!r}: no value for {', '.join(missing)}")
        return _EXPRESSION.sub(lambda m: quote(str(values[m.group(1)]), safe=""), self.template)

    def __repr__(self) -> str:
        return f"UriTemplate({self.template!r})"
