"""The payload layer: the payload options, R values and Python values encoded as jsonlite would,
tool results and content blocks. It imports only :mod:`mcplite.protocol` (and rvalues)."""
