"""What the application reports about each request it answered (for logs and metrics)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["RequestRecord", "printable"]


def printable(text: str, max_chars: int = 200) -> str:
    """``text`` with control characters escaped (``\\n``, ``\\x1b``) and bounded in length:
    safe to write to a log line or a terminal whatever a client or server sent."""
    if text.isprintable():  # the usual case, without a pass per character
        return text if len(text) <= max_chars else text[: max_chars - 1] + "…"
    out = "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)
    return out if len(out) <= max_chars else out[: max_chars - 1] + "…"


@dataclass(frozen=True)
class RequestRecord:
    """One answered request. Never holds a secret, signature, nonce or query text (A6, O2).

    Attributes:
        method: HTTP method.
        path: request path, e.g. ``/retrieve``.
        status: HTTP status sent.
        duration_s: time from the first byte seen to the response start, in seconds.
        registration: the authenticated registration's name, or ``None``.
        result_count: results returned by ``/retrieve``, or ``None``.
        error_code: the envelope's error code for an error answer, or ``None``.
        request_digest: 12 hex digits of SHA-256 over ``X-Helpthread-Request``, or ``"-"``.
        repairs: CONTRACT ids of the backend faults the contract layer repaired in this
            answer (``results.Repair``), e.g. ``("X6",)``; empty for a correct backend.
    """

    method: str
    path: str
    status: int
    duration_s: float
    registration: str | None
    result_count: int | None
    error_code: str | None
    request_digest: str
    repairs: tuple[str, ...] = ()
