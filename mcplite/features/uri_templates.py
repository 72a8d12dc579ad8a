"""URI templates of RFC 6570 level 1: ``{name}`` expressions, matched against a URI to bind them.

A level-1 expression expands to its value with every character but the unreserved ones
percent-encoded, so a value never spans a ``/``; matching takes each expression's text up to the
next literal and percent-decodes it.

>>> template = UriTemplate("penguins://columns/{name}")
>>> template.names, template.match("penguins://columns/bill%20length")
(('name',), {'name': 'bill length'})
>>> template.match("penguins://rows/1") is None
True
>>> template.expand({"name": "bill length"})
'penguins://columns/bill%20length'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from urllib.parse import quote, unquote

_EXPRESSION = re.compile(r"\{([^{}]*)\}")
_VARIABLE = re.compile(r"^[A-Za-z0-9_]+$")


class UriTemplate:
    """A level-1 URI template (``scheme://path/{a}/{b}``)."""

    def __init__(self, template: str) -> None:
        if not isinstance(template, str) or not template:
            raise TypeError(f"a URI template is a non-empty str, not {template!r:.80}")
        names: list[str] = []
        pattern = []
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
            names.append(name)
            pattern.append(re.escape(template[end : found.start()]))
            pattern.append(f"(?P<{name}>[^/?#]+)")
            end = found.end()
        rest = template[end:]
        if "{" in _EXPRESSION.sub("", template) or "}" in _EXPRESSION.sub("", template):
            raise ValueError(f"URI template {template!r}: unbalanced braces")
        pattern.append(re.escape(rest))
        self.template = template
        self.names: tuple[str, ...] = tuple(names)
        self._pattern = re.compile("".join(pattern))

    @property
    def is_template(self) -> bool:
        """True when the template has expressions (else it is a plain URI)."""
        return bool(self.names)

    def match(self, uri: str) -> dict[str, str] | None:
        """The values of the expressions if ``uri`` is one of the template's URIs, else None."""
        found = self._pattern.fullmatch(uri)
        if found is None:
            return None
        return {name: unquote(value) for name, value in found.groupdict().items()}

    def expand(self, values: Mapping[str, object]) -> str:
        """The URI for these values (each percent-encoded, as level 1 does)."""
        missing = [name for name in self.names if name not in values]
        if missing:
            raise KeyError(f"URI template {self.template!r}: no value for {', '.join(missing)}")
        return _EXPRESSION.sub(lambda m: quote(str(values[m.group(1)]), safe=""), self.template)

    def __repr__(self) -> str:
        return f"UriTemplate({self.template!r})"
