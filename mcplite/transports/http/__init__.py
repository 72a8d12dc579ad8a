"""Streamable HTTP: the app (``app``), the checks every request passes (``guards``, ``headers``),
the 2026-07-28 era (``modern``), the legacy era (``legacy``) and its sessions (``sessions``),
one request's JSON or SSE answer (``exchange``), its settings (``options``) and uvicorn (``serve``).
Public names: :mod:`mcplite.http`."""
