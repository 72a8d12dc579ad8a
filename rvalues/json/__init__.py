"""jsonlite-exact JSON for R values: ``to_json`` is jsonlite 1.8.4's ``toJSON``, byte for byte.

>>> from rvalues import r_list, c
>>> to_json(r_list(a=c(1.5, 2), b="x"), auto_unbox=True)
'{"a":[1.5,2],"b":"x"}'
"""

from rvalues.json.api import register_hooks, to_data, to_json
from rvalues.json.atomic import KEEP_VEC_NAMES_MESSAGE, KeepVecNamesWarning
from rvalues.json.options import JsonliteError, JsonOptions, Signif, signif

__all__ = [
    "KEEP_VEC_NAMES_MESSAGE",
    "JsonOptions",
    "JsonliteError",
    "KeepVecNamesWarning",
    "Signif",
    "register_hooks",
    "signif",
    "to_data",
    "to_json",
]
