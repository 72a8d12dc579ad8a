""":class:`ToolError`: how a tool sends the client a message meant for it.

Any other exception a tool raises is unexpected: the client gets a generic message naming the
tool (unless the server was made with ``mask_error_details=False``), and the detail goes to the
server's log, since exception messages can hold what a client must not see (paths, hosts,
passwords).

>>> import mcplite
>>> server = mcplite.McpServer("weather")
>>> @server.tool
... def forecast(station: str) -> str:
...     '''The forecast at a station.'''
...     raise mcplite.ToolError(f"no station called {station!r}; try 'KSFO'")
"""

from __future__ import annotations


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


class ToolError(Exception):
    """An error whose message is sent to the client as it is (a tool execution error, ``isError``)."""
