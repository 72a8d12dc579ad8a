"""The resources a server holds: static resources (one URI) and resource templates (RFC 6570
level 1, each ``{name}`` bound to a typed parameter of the function, as tool arguments are).

>>> registry = ResourceRegistry()
>>> def column(name: str) -> list[str]:
...     "One column of the data."
...     return [name]
>>> entry = registry.add(column, "data://columns/{name}")
>>> registry.templates_wire(entry, "2025-11-25")
{'uriTemplate': 'data://columns/{name}', 'name': 'column', 'description': 'One column of the data.'}
>>> found, values = registry.find("data://columns/bill")
>>> found is entry, values
(True, {'name': 'bill'})

A decoded value holding ``/`` or ``\\``, or that is ``.`` or ``..``, names nothing unless its
parameter is in ``allow_paths=`` (its function then checks where the path leads); one holding NUL
or what is not UTF-8 names nothing at all:

>>> registry.resolve("data://columns/..%2Fx")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
mcplite.features.resources.ResourceNotFound: data://columns/{name} does not serve ...: {name} holds '/'
"""

from __future__ import annotations

import inspect
import threading
from collections.abc import Callable, Collection, Iterable, Mapping
from types import MappingProxyType
from typing import Any

from mcplite.features.binding import StringBinder
from mcplite.features.contents import Contents, contents_of
from mcplite.features.listing import Described
from mcplite.features.uri_templates import MAX_URI_LENGTH, UriTemplate
from mcplite.features.written import WrittenReads
from mcplite.payload.content import as_annotations, as_icons
from mcplite.protocol.checks import cut, shown
from mcplite.tools.context import Context, context_parameters
from mcplite.tools.failures import PublicError
from mcplite.tools.schema import description as doc_description
from rvalues.json import JsonOptions


class ResourceNotFound(PublicError, LookupError):
    """Raised by a resource function when its URI names nothing (a template's value that does not
    exist): the client gets the version's resource-not-found error with this message, as for a URI
    nothing serves. Any other ``LookupError`` (``KeyError``, ``IndexError``) a resource function
    raises does the same, its message masked as an unexpected exception's is."""


Complete = Callable[[str], Iterable[str]]
"""A ``complete=`` callable: the values that start with what is typed so far."""


class RegisteredResource:
    """A resource or a resource template as the server holds it: its function, its listing entry,
    and how the values of its URI are bound to the function's parameters."""

    def __init__(
        self,
        function: Callable[..., Any],
        template: UriTemplate,
        described: Described,
        *,
        complete: Mapping[str, Complete] | None = None,
    ) -> None:
        self.function = function
        self.template = template
        self.described = described
        self.context_parameters = context_parameters(function)
        self.binder = StringBinder(function, skip=self.context_parameters)
        self.is_async = inspect.iscoroutinefunction(function)
        self.complete: dict[str, Complete] = dict(complete or {})
        self.written = WrittenReads()
        """The bytes of recent reads of R values (immutable: the same value reads the same)."""
        owner = f"resource {template.template!r}"
        unbound = [name for name in template.names if name not in self.binder.parameters]
        if unbound:
            raise TypeError(f"{owner}: {{{unbound[0]}}} names no parameter of {function.__name__}")
        extra = [name for name in self.binder.required if name not in template.names]
        if extra:
            raise TypeError(f"{owner}: required parameter {extra[0]!r} is not in the URI template")
        unknown = [name for name in self.complete if name not in template.names]
        if unknown:
            raise ValueError(f"{owner}: complete= names {unknown[0]!r}, which the template does not have")

    @property
    def uri(self) -> str:
        return self.template.template

    def bind(self, values: Mapping[str, str], context: Context) -> dict[str, Any]:
        """The keyword arguments of the call (raises ``ArgumentError`` for values that do not fit)."""
        kwargs = self.binder.bind(values)
        return {**kwargs, **dict.fromkeys(self.context_parameters, context)}

    def contents(self, uri: str, value: Any, options: JsonOptions) -> list[Contents]:
        return contents_of(value, uri, self.described.mime_type, options)

    def contents_json(self, uri: str, value: Any, options: JsonOptions, version: str) -> bytes:
        """The ``contents`` of a read as JSON bytes (an R value's written once, then reused)."""
        return self.written.contents_json(value, uri, self.described.mime_type, options, version)


class ResourceRegistry:
    """Static resources by URI and templates in registration order; ``page_size`` per listing page."""

    def __init__(self, page_size: int = 100) -> None:
        self.page_size = page_size
        self._static: dict[str, RegisteredResource] = {}
        self._templates: dict[str, RegisteredResource] = {}
        self._lock = threading.Lock()

    @property
    def resources(self) -> Mapping[str, RegisteredResource]:
        """The static resources by URI (read-only)."""
        return MappingProxyType(self._static)

    @property
    def templates(self) -> Mapping[str, RegisteredResource]:
        """The resource templates by URI template (read-only)."""
        return MappingProxyType(self._templates)

    def __len__(self) -> int:
        return len(self._static) + len(self._templates)

    def add(
        self,
        function: Callable[..., Any],
        uri: str,
        *,
        name: str | None = None,
        title: str | None = None,
        description: str | None = None,
        mime_type: str | None = None,
        annotations: Any = None,
        icons: Iterable[Any] | None = None,
        meta: dict[str, Any] | None = None,
        complete: Mapping[str, Complete] | None = None,
        allow_paths: Collection[str] = (),
    ) -> RegisteredResource:
        """Register ``function`` for ``uri`` (a template when it has ``{name}`` expressions);
        ``allow_paths`` names the parameters whose values may hold ``/``, ``\\`` and ``..``."""
        if not callable(function):
            raise TypeError(f"McpServer.resource: a resource is a function, not {shown(function)}")
        template = UriTemplate(uri, paths=allow_paths)
        owner = f"resource {uri!r}"
        if "://" not in uri and not uri.split(":", 1)[0].isalpha():
            raise ValueError(f"{owner}: a resource URI has a scheme (like 'data://' or 'file:///')")
        described = Described(
            name if name is not None else getattr(function, "__name__", uri),
            title=title,
            description=description if description is not None else doc_description(function),
            mime_type=mime_type,
            annotations=as_annotations(annotations, owner),
            icons=as_icons(icons, owner),
            meta=meta,
        )
        entry = RegisteredResource(function, template, described, complete=complete)
        if not template.is_template and entry.binder.required:
            raise TypeError(f"{owner}: a resource without a template takes no required parameters")
        with self._lock:
            table = self._templates if template.is_template else self._static
            if uri in table:
                raise ValueError(f"{owner} is registered already")
            table[uri] = entry
        return entry

    def remove(self, uri: str) -> RegisteredResource:
        """Unregister the resource or template registered for ``uri``."""
        with self._lock:
            found = self._static.pop(uri, None) or self._templates.pop(uri, None)
        if found is None:
            raise KeyError(f"no resource is registered for {uri!r}")
        return found

    def resolve(self, uri: str) -> tuple[RegisteredResource, dict[str, str]] | None:
        """The resource serving ``uri`` and the values its template binds (a static one first), or
        None when no template matches.

        Raises :class:`ResourceNotFound` saying why when the URI is longer than ``MAX_URI_LENGTH``
        or the first template that matches refuses a value (later templates are not tried, so a
        value one template refuses cannot reach another).
        """
        static = self._static.get(uri)
        if static is not None:
            return static, {}
        if len(uri) > MAX_URI_LENGTH:
            raise ResourceNotFound(
                f"the URI has {len(uri)} characters; a resource URI has at most {MAX_URI_LENGTH}"
            )
        for entry in list(self._templates.values()):
            values = entry.template.match(uri)
            if values is None:
                continue
            why = entry.template.refusal(values)
            if why is not None:
                raise ResourceNotFound(f"{entry.uri} does not serve {cut(uri)!r}: {why}")
            return entry, values
        return None

    def find(self, uri: str) -> tuple[RegisteredResource, dict[str, str]] | None:
        """:meth:`resolve`, or None where it raises: the resource serving ``uri``, if one does."""
        try:
            return self.resolve(uri)
        except ResourceNotFound:
            return None

    def resources_wire(self, entry: RegisteredResource, version: str) -> dict[str, Any]:
        """A static resource's entry in ``resources/list``."""
        return {"uri": entry.uri, **entry.described.wire(version)}

    def templates_wire(self, entry: RegisteredResource, version: str) -> dict[str, Any]:
        """A template's entry in ``resources/templates/list``."""
        return {"uriTemplate": entry.uri, **entry.described.wire(version)}
