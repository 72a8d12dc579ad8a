"""``python -m mcplite``: serve the demo server on stdio (``python -m mcplite serve app.py`` serves yours).

The same as the ``mcplite`` command; see :mod:`mcplite.cli`.
"""

from mcplite.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
