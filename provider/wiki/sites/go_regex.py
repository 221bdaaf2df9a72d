"""Go regular expressions (RE2 syntax), as Hugo reads ``ignoreFiles``.

Python's :mod:`re` reads some RE2 text differently without an error: ``[[:digit:]]`` is,
to Python, a class of ``[``, ``:``, ``d``, ``i``, ``g``, ``t`` followed by a literal
``]``; ``\\z`` is an error in Python before 3.14 and end of text in Go. A pattern read
with other semantics excludes other files, so an ignored page could be served. The
patterns are therefore compiled by RE2 itself (``google-re2``, module ``re2``), which
Go's ``regexp`` package follows.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Protocol

import re2

__all__ = ["GoRegexError", "compile_go"]


class GoRegexError(ValueError):
    """A pattern RE2 does not accept (the message is RE2's)."""


class Searcher(Protocol):
    def search(self, text: str) -> Any: ...


@lru_cache(maxsize=512)
def compile_go(pattern: str) -> Searcher:
    """``pattern`` compiled with RE2 semantics; ``.search(text)`` finds it anywhere.

    Raises:
        GoRegexError: RE2 does not accept the pattern (Hugo would fail to build).
    """
    options = re2.Options()
    options.log_errors = False  # the finding reports it; RE2 would also print to stderr
    try:
        return re2.compile(pattern, options)  # type: ignore[no-any-return]
    except re2.error as exc:
        message = exc.args[0] if exc.args else exc
        raise GoRegexError(message.decode("utf-8", "replace") if isinstance(message, bytes) else str(message)) from exc
