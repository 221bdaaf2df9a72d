"""Where raw-socket checks connect (``framing.py``): a leaf module, so the session that
carries a target and the checks that use it import it without importing each other."""

from __future__ import annotations

import ssl
from dataclasses import dataclass

__all__ = ["RawTarget"]


@dataclass(frozen=True)
class RawTarget:
    """Where to open raw connections: the provider's host, port, base path and TLS."""

    host: str
    port: int
    base_path: str
    tls: ssl.SSLContext | None
