"""Hugo's TOML front matter, between ``+++`` lines (JSON front matter is read in
:mod:`provider.wiki.frontmatter`, in every form Hugo accepts).

Guarded like YAML (:mod:`provider.wiki.frontmatter` applies the same 64 KiB limit and
fence rules before these parsers run): any error — syntax, duplicate keys, nesting too
deep — is returned as a reason, and the caller makes the file internal (CONTRACT X5).

TOML is parsed with the standard library's ``tomllib`` (it refuses duplicate keys and
has no aliases or object tags). Offset date-times become aware ``datetime`` objects,
local ones naive; :func:`provider.wiki.dates.parse_date` reads both.
"""

from __future__ import annotations

import re
import tomllib
from typing import Any

__all__ = ["parse_toml_header"]


def parse_toml_header(header: str) -> tuple[Any, str | None]:
    """``(mapping, None)``, or ``(None, reason)`` when ``header`` is not valid TOML.

    The reason names the line counted from the top of the file (the ``+++`` is line 1).
    """
    try:
        return tomllib.loads(header), None
    except tomllib.TOMLDecodeError as exc:
        # Python 3.11's message ends "(at line 3, column 5)"; there is no attribute yet.
        found = re.search(r"at line (\d+)", str(exc))
        where = f" at line {int(found.group(1)) + 1}" if found else ""
        return None, f"front matter is not valid TOML{where}"
    except (RecursionError, ValueError, TypeError, OverflowError):
        return None, "front matter cannot be read"
