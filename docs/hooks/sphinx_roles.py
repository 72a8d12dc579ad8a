r"""A griffe extension for the API reference: docstrings written for doctest and Sphinx, as Markdown.

The modules' docstrings hold doctest examples (``>>>``), ``.. code-block::`` directives and Sphinx
roles (``:func:`to_r```), which Markdown would turn into nested quotes, bare text and literal
roles; here examples and code blocks become fenced code, and roles become code spans.

>>> plain(":func:`~mcplite.payload.returned.to_r` and :class:`Tool`")
'`to_r` and `Tool`'
>>> fence(".. code-block:: text\n\n    mcplite serve app.py").splitlines()
['```text', 'mcplite serve app.py', '```']
>>> fence(fence(">>> 1\n1")) == fence(">>> 1\n1")
True
"""

from __future__ import annotations

import re
import textwrap
from typing import Any

import griffe

_ROLE = re.compile(r":(?:py:)?(?:func|class|meth|attr|data|mod|obj|exc|const|ref):`(~?)([^`]+)`")
_CODE_BLOCK = re.compile(r"\.\. code-block::\s*(\w*)\s*$")


def plain(text: str) -> str:
    """Replace each Sphinx role by a code span of its target (shortened where ``~`` says so)."""

    def span(match: re.Match[str]) -> str:
        target = match.group(2)
        return f"`{target.rsplit('.', 1)[-1] if match.group(1) else target}`"

    return _ROLE.sub(span, text)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _fence(out: list[str], indent: str, language: str, body: list[str]) -> None:
    if out and out[-1].strip():
        out.append("")
    out.append(f"{indent}```{language}")
    out.extend(f"{indent}{line}" if line.strip() else "" for line in body)
    out.extend([f"{indent}```", ""])


def fence(text: str) -> str:
    """Wrap doctest examples and ``.. code-block::`` bodies in fenced code blocks."""
    lines, out, i = text.splitlines(), list[str](), 0
    while i < len(lines):
        line = lines[i]
        indent = line[: _indent(line)]
        directive = _CODE_BLOCK.match(line.strip())
        if line.lstrip().startswith("```"):  # already fenced: copy through its closing fence
            end = next((j for j in range(i + 1, len(lines)) if lines[j].strip() == "```"), len(lines) - 1)
            out.extend(lines[i : end + 1])
            i = end + 1
        elif line.lstrip().startswith(">>>"):
            body = []
            while i < len(lines) and lines[i].strip():
                body.append(lines[i][len(indent) :].replace("<BLANKLINE>", ""))
                i += 1
            _fence(out, indent, "pycon", body)
        elif directive:
            i += 1
            start = i
            while i < len(lines) and (not lines[i].strip() or _indent(lines[i]) > len(indent)):
                i += 1
            body = textwrap.dedent("\n".join(lines[start:i])).strip("\n").splitlines()
            _fence(out, indent, directive.group(1) or "text", body)
        else:
            out.append(line)
            i += 1
    return "\n".join(out).rstrip("\n")


def markdown(text: str) -> str:
    """A docstring as Markdown: fenced examples, code spans for roles."""
    return fence(plain(text))


class SphinxRoles(griffe.Extension):
    """Rewrites every docstring griffe loads as Markdown (see :func:`markdown`)."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown(obj.docstring.value)

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        # the top-level package is announced here, not through on_object
        self.on_object(obj=pkg)
