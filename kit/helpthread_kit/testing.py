"""Sign requests the way the Helpthread core does (CONTRACT A1, A2, W2; §3.1, §4.1).

For tests, for the ``query`` command, and for adapter authors testing their own
provider::

    from helpthread_kit.testing import signed_headers
    body = json.dumps({"query": "reset password"}).encode()
    headers = signed_headers(body, secret="...")
    httpx.post(url + "/retrieve", content=body, headers=headers)
"""

from __future__ import annotations

import secrets as _secrets
import time
from collections.abc import Callable, Sequence

from .signature import compute_signature

__all__ = ["JSON_CONTENT_TYPE", "new_nonce", "signature_header", "signed_headers"]

#: The ``Content-Type`` the core sends with a retrieval request (W3).
JSON_CONTENT_TYPE = "application/json; charset=utf-8"


def new_nonce(token_bytes: int = 16, rand: Callable[[int], str] = _secrets.token_urlsafe) -> str:
    """A fresh random nonce from the contract's alphabet (base64url, 22 characters by default)."""
    return rand(token_bytes)


def signature_header(
    body: bytes,
    secrets: str | Sequence[str],
    *,
    timestamp: int | None = None,
    nonce: str | None = None,
) -> tuple[str, str]:
    """Build an ``X-Helpthread-Signature`` value.

    Args:
        body: the exact body bytes that will be sent.
        secrets: one secret, or several to emit one ``v1`` each in that order, as the
            core does during a rotation window (``v1=<new>,v1=<previous>``).
        timestamp: Unix seconds; default now.
        nonce: default a fresh random nonce.

    Returns:
        ``(header value, nonce)``.
    """
    ts = int(time.time()) if timestamp is None else timestamp
    n = new_nonce() if nonce is None else nonce
    keys = [secrets] if isinstance(secrets, str) else list(secrets)
    parts = [f"t={ts}", f"n={n}"] + [f"v1={compute_signature(k, ts, n, body)}" for k in keys]
    return ", ".join(parts), n


def signed_headers(
    body: bytes,
    secrets: str | Sequence[str],
    *,
    timestamp: int | None = None,
    nonce: str | None = None,
    content_type: str | None = JSON_CONTENT_TYPE,
) -> dict[str, str]:
    """All headers the core sends with a request (W2, W3).

    Args:
        body: the exact body bytes (``b""`` for ``GET /capabilities``).
        secrets: see :func:`signature_header`.
        timestamp: Unix seconds; default now.
        nonce: default a fresh random nonce.
        content_type: the ``Content-Type`` to send, or ``None`` to send none (GET).

    Returns:
        ``X-Helpthread-Signature``, ``X-Helpthread-Request`` (the nonce again),
        ``X-Helpthread-Knowledge-Version: 1`` and, unless ``None``, ``Content-Type``.
    """
    header, n = signature_header(body, secrets, timestamp=timestamp, nonce=nonce)
    headers = {
        "X-Helpthread-Signature": header,
        "X-Helpthread-Request": n,
        "X-Helpthread-Knowledge-Version": "1",
    }
    if content_type is not None:
        headers["Content-Type"] = content_type
    return headers
