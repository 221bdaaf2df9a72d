"""Load the JSON Schemas (draft 2020-12) shipped with the package (contract §1.3, §9.1).

The schemas describe shapes only. Rules that depend on the provider's state — fields
present only for declared capabilities (CONTRACT R4), plain text (R3) — are checked by
the response layer and by the conformance checker, not by a schema.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

__all__ = ["SCHEMA_NAMES", "load_schema"]

#: name -> file in ``helpthread_kit/schemas/``.
SCHEMA_NAMES: dict[str, str] = {
    "retrieve-request": "retrieve-request.schema.json",
    "retrieve-response": "retrieve-response.schema.json",
    "capabilities-response": "capabilities-response.schema.json",
    "error-response": "error-response.schema.json",
}


@cache
def load_schema(name: str) -> dict[str, Any]:
    """Return one schema as a dict.

    Args:
        name: a key of :data:`SCHEMA_NAMES`, e.g. ``"retrieve-response"``.

    Raises:
        KeyError: no schema by that name.
    """
    filename = SCHEMA_NAMES[name]
    text = resources.files(__name__).joinpath(filename).read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema
