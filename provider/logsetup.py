"""Logging: plain lines or JSON lines, on standard error.

The access log (logger ``provider.access``) writes one line per request with status,
duration, registration name, result count and a digest of ``X-Helpthread-Request``;
in JSON those are separate keys. Nothing logged carries a secret, a signature, a nonce
or query text (CONTRACT A6, O2) — at any level, debug included. Request paths are
logged with control characters escaped, so a request cannot forge log lines.
"""

from __future__ import annotations

import logging
import sys

__all__ = ["LOG_FORMATS", "setup_logging"]

LOG_FORMATS = ("plain", "json")
_PLAIN = "%(asctime)s %(levelname)-7s [%(process)d] %(name)s: %(message)s"
#: Libraries whose debug output is noise for an operator (markdown-it logs every rule).
_QUIET = ("markdown_it", "watchfiles.main", "httpx", "httpcore", "asyncio")


class _DropColor(logging.Filter):
    """uvicorn attaches an ANSI-coloured copy of each message; JSON lines drop it."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.__dict__.pop("color_message", None)
        return True


def setup_logging(level: str = "info", fmt: str = "plain") -> None:
    """Configure the root logger (replacing earlier handlers).

    Args:
        level: ``debug``, ``info``, ``warning`` or ``error``.
        fmt: ``plain``, or ``json``: one object per line (python-json-logger) with an
            ISO 8601 UTC ``timestamp``, ``level``, ``process``, ``name``, ``message`` and
            the access log's fields as keys.
    """
    handler = logging.StreamHandler(sys.stderr)
    if fmt == "json":
        from pythonjsonlogger.json import JsonFormatter

        handler.setFormatter(JsonFormatter("%(levelname)s %(process)d %(name)s %(message)s",
                                           rename_fields={"levelname": "level"}, timestamp=True))
        handler.addFilter(_DropColor())
    else:
        handler.setFormatter(logging.Formatter(_PLAIN))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(getattr(logging, level.upper(), logging.INFO))
    for name in _QUIET:
        logging.getLogger(name).setLevel(max(root.level, logging.INFO))
