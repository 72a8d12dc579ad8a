""":class:`PublicError`: how a tool, resource, prompt or completion sends the client a message
meant for it (:class:`ToolError` is the tools' own).

Any other exception they raise is unexpected: the client gets a generic message naming the tool,
resource, prompt or completion (unless the server was made with ``mask_error_details=False``), and
the detail goes to the server's log, since exception messages can hold what a client must not see
(paths, hosts, passwords).

>>> import mcplite
>>> server = mcplite.McpServer("weather")
>>> @server.tool
... def forecast(station: str) -> str:
...     '''The forecast at a station.'''
...     raise mcplite.ToolError(f"no station called {station!r}; try 'KSFO'")
>>> @server.prompt
... def brief(station: str) -> str:
...     '''Brief the pilot.'''
...     raise mcplite.PublicError(f"no briefing for {station!r} today")
"""

from __future__ import annotations

import logging

log = logging.getLogger("mcplite.server")


def error_text(error: BaseException) -> str:
    """An exception's message and then its notes (``add_note``: which column, what to do), one a line.

    >>> err = ValueError("cannot write it")
    >>> err.add_note("while writing column 'gap'")
    >>> print(error_text(err))
    cannot write it
    while writing column 'gap'
    """
    notes = [note for note in getattr(error, "__notes__", ()) if isinstance(note, str)]
    return "\n".join([str(error), *notes])


class PublicError(Exception):
    """An error whose message is sent to the client as it is, from a tool, a resource, a prompt or
    a completion (any other exception's message is masked)."""


class ToolError(PublicError):
    """An error whose message is sent to the client as it is (a tool execution error, ``isError``)."""


def failure_message(owner: str, error: BaseException, mask: bool) -> str:
    """What the client is told of an exception that ``owner`` (``"Prompt explore"``) raised: a
    :class:`PublicError`'s message as it is; for any other exception a generic message naming
    ``owner`` when ``mask`` (the detail goes to the log).

    >>> failure_message("Prompt explore", RuntimeError("password=hunter2"), mask=True)
    "Prompt explore failed with an unexpected error (RuntimeError); the server's log has the details"
    >>> failure_message("Prompt explore", PublicError("no column 'x'"), mask=True)
    "no column 'x'"
    """
    message = error_text(error)
    detail = type(error).__name__ + (f": {message[:500]}" if message else "")
    if isinstance(error, PublicError):
        log.warning("%s failed: %s", owner, detail)
        log.debug("traceback of %s's error", owner, exc_info=error)
        return message or type(error).__name__
    log.error("%s raised %s", owner, detail, exc_info=error)
    if not mask:
        return message or type(error).__name__
    kind = type(error).__name__
    return f"{owner} failed with an unexpected error ({kind}); the server's log has the details"
