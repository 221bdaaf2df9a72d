"""The HTTP protocol uvicorn runs for ``serve``: h11 with Nagle's algorithm switched off
on every connection, however the listening socket was made; the contract's error
envelope on requests too malformed to reach the application and on connections over
the limit; and a deadline for a request's head.

Why: with ``--workers N`` uvicorn binds the listening socket itself and leaves its
``proto`` at 0; accepted sockets inherit it, and asyncio only sets ``TCP_NODELAY`` on
sockets that report ``IPPROTO_TCP`` (uvicorn issue #3149). A response then goes out as
two small segments, the second held back until the client's delayed ACK: about 40 ms
added to every keep-alive request — measured here as 48 ms per signed
``/capabilities`` with two workers against 2.7 ms with one.

Why the envelope: h11 refuses a request it cannot parse (a bad chunk size, two
Content-Length values, a header with a NUL, a missing Host, …) before any application
code runs, and uvicorn answers it with a plain-text ``400``. Every answer must carry
``contractVersion`` (CONTRACT W4), so this protocol sends the JSON envelope instead.
The same for uvicorn's own ``503`` when ``max_connections`` is reached (W4, W7: with
``Retry-After``).

Why the deadline: h11 waits for a request's head for ever, so 520 connections that each
sent half a request line kept every slot of ``max_connections`` and shut everyone out
(a slowloris). A connection whose request head is not complete within
:data:`HEAD_TIMEOUT_S` seconds of being opened — or of its previous answer — is closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from typing import Any

import h11
from uvicorn.protocols.http import h11_impl
from uvicorn.protocols.http.h11_impl import H11Protocol

from .contract.errors import InvalidRequest, Overloaded

#: Seconds a client has to send a complete request line and headers.
HEAD_TIMEOUT_S = 10.0

_MALFORMED = json.dumps(
    InvalidRequest("request", "the HTTP request is malformed (request line, headers or framing)").envelope(),
    separators=(",", ":"),
).encode("utf-8")

__all__ = ["HEAD_TIMEOUT_S", "PROTOCOL", "NoDelayH11Protocol"]

#: The import string given to uvicorn (``http=``); a string, so it crosses into the
#: worker processes uvicorn spawns.
PROTOCOL = "provider.httpserver:NoDelayH11Protocol"


_OVERLOADED = Overloaded("this provider has too many open connections; retry shortly")
_OVERLOADED_BODY = json.dumps(_OVERLOADED.envelope(), separators=(",", ":")).encode("utf-8")


async def _over_connection_limit(scope: Any, receive: Any, send: Any) -> None:
    """What uvicorn answers when ``limit_concurrency`` is reached: the envelope and
    ``Retry-After`` instead of its plain-text ``503``."""
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(_OVERLOADED_BODY)).encode()),
        (b"retry-after", str(_OVERLOADED.retry_after_s).encode()),
        (b"cache-control", b"no-store"),
        (b"connection", b"close"),
    ]
    await send({"type": "http.response.start", "status": 503, "headers": headers})
    await send({"type": "http.response.body", "body": _OVERLOADED_BODY, "more_body": False})


# uvicorn's h11 protocol picks its 503 application by this module-level name when
# limit_concurrency is reached; it has no setting for it. Pinned by a test.
h11_impl.service_unavailable = _over_connection_limit  # type: ignore[attr-defined]


class NoDelayH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with ``TCP_NODELAY``, the envelope on parse errors, and a
    deadline for each request's head (:data:`HEAD_TIMEOUT_S`)."""

    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            # OSError: the peer is already gone, which h11 notices on its own.
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        super().connection_made(transport)
        self._arm_head_timer()

    def _arm_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
        self._head_timer = self.loop.call_later(HEAD_TIMEOUT_S, self._head_timeout)

    def _head_timeout(self) -> None:
        self._head_timer = None
        # IDLE: the client has not finished a request head since the timer was armed.
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm_head_timer()  # the next request's head has the same deadline

    def connection_lost(self, exc: Exception | None) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None
        super().connection_lost(exc)

    def send_400_response(self, msg: str) -> None:
        """Answer an unparseable request with the contract's envelope, then close."""
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(_MALFORMED)).encode()),
            (b"cache-control", b"no-store"),
            (b"connection", b"close"),
        ]
        for event in (h11.Response(status_code=400, headers=headers), h11.Data(data=_MALFORMED), h11.EndOfMessage()):
            self.transport.write(self.conn.send(event))
        self.transport.close()
