"""Checking a structured result against a hand-written output schema (``validate_output=True``).

jsonschema (Draft 2020-12) does the checking; the message names the path of the first misfit as
a typed tool's misfits do (``groups[3].mean``) and what the schema expected there.

>>> schema = {"type": "object", "properties": {"mean": {"type": "number"}}}
>>> output_misfit(schema, {"mean": "NaN"})
"mean is str ('NaN'), expected type 'number'"
>>> output_misfit(schema, {"mean": 1.5}) is None
True
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from mcplite.protocol.checks import shown
from mcplite.tools.frames import join


def can_validate() -> bool:
    """Whether jsonschema (an optional dependency: only ``validate_output=True`` needs it) is there."""
    return importlib.util.find_spec("jsonschema") is not None


def _jsonschema() -> Any:
    """jsonschema, imported at the first check, not with mcplite: with its format checkers installed
    it takes a second or more to import, which every server would pay at start-up."""
    try:
        return importlib.import_module("jsonschema")
    except ImportError:
        raise RuntimeError("validate_output=True needs jsonschema (pip install jsonschema)") from None


def output_misfit(schema: dict[str, Any], value: Any) -> str | None:
    """Where and how ``value`` does not fit ``schema``, or None when it fits."""
    jsonschema = _jsonschema()
    validator = jsonschema.Draft202012Validator(schema)
    error = jsonschema.exceptions.best_match(validator.iter_errors(value))
    if error is None:
        return None
    path = ""
    for step in error.absolute_path:
        path = join(path, step)
    if error.validator in ("type", "enum", "const", "pattern"):
        expected = f"{error.validator} {error.validator_value!r}"
    else:
        expected = f"the schema's {error.validator!r} ({error.message})"
    return f"{path or 'the value'} is {shown(error.instance)}, expected {expected}"
