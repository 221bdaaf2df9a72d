"""Logging: plain lines or JSON lines, on standard error.

The access log (logger ``provider.access``) writes one line per request with status,
duration, registration name, result count and a digest of ``X-Helpthread-Request``;
in JSON those are separate keys. Nothing logged carries a secret, a signature, a nonce
or query text (CONTRACT A6, O2) — at any level, debug included.
"""

from __future__ import annotations

import logging
import sys

__all__ = ["LOG_FORMATS", "setup_logging"]

LOG_FORMATS = ("plain", "json")
_PLAIN = "%(asctime)s %(levelname)-7s [%(process)d] %(name)s: %(message)s"


def setup_logging(level: str = "info", fmt: str = "plain") -> None:
    """Configure the root logger (replacing earlier handlers).

    Args:
        level: ``debug``, ``info``, ``warning`` or ``error``.
        fmt: ``plain`` or ``json`` (python-json-logger: one object per line, with the
            access log's fields as keys).
    """
    handler = logging.StreamHandler(sys.stderr)
    if fmt == "json":
        from pythonjsonlogger.json import JsonFormatter

        handler.setFormatter(JsonFormatter("%(asctime)s %(levelname)s %(process)d %(name)s %(message)s",
                                           rename_fields={"levelname": "level", "asctime": "time"}))
    else:
        handler.setFormatter(logging.Formatter(_PLAIN))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(getattr(logging, level.upper(), logging.INFO))
