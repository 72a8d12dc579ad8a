"""jsonlite-exact JSON for R values: ``to_json`` is jsonlite 1.8.4's ``toJSON``, byte for byte.

``register(r_class, encoder)`` teaches it a class of one's own (jsonlite's ``setMethod``).

>>> from rvalues import r_list, c
>>> to_json(r_list(a=c(1.5, 2), b="x"), auto_unbox=True)
'{"a":[1.5,2],"b":"x"}'
"""

from rvalues._speedups import backend
from rvalues.json.api import register_hooks, to_data, to_json
from rvalues.json.atomic import KEEP_VEC_NAMES_MESSAGE, KeepVecNamesWarning
from rvalues.json.options import JsonliteError, JsonOptions, Signif, signif
from rvalues.json.registry import Encoder, register, registered, unregister

__all__ = [
    "KEEP_VEC_NAMES_MESSAGE",
    "Encoder",
    "JsonOptions",
    "JsonliteError",
    "KeepVecNamesWarning",
    "Signif",
    "backend",
    "register",
    "register_hooks",
    "registered",
    "signif",
    "to_data",
    "to_json",
    "unregister",
]
