"""The HTTP protocol uvicorn runs for ``serve``: h11 with Nagle's algorithm switched off
on every connection, however the listening socket was made, and the contract's error
envelope on requests too malformed to reach the application.

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
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from .contract.errors import InvalidRequest

_MALFORMED = json.dumps(
    InvalidRequest("request", "the HTTP request is malformed (request line, headers or framing)").envelope(),
    separators=(",", ":"),
).encode("utf-8")

__all__ = ["PROTOCOL", "NoDelayH11Protocol"]

#: The import string given to uvicorn (``http=``); a string, so it crosses into the
#: worker processes uvicorn spawns.
PROTOCOL = "provider.httpserver:NoDelayH11Protocol"


class NoDelayH11Protocol(H11Protocol):
    """uvicorn's h11 protocol that sets ``TCP_NODELAY`` on the connection's socket."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            # OSError: the peer is already gone, which h11 notices on its own.
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        super().connection_made(transport)

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
