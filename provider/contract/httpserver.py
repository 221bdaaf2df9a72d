"""The HTTP/1.1 protocol :func:`~provider.contract.serving.serve` runs under uvicorn:
uvicorn's h11 protocol with the hardening every provider needs (CONTRACT W4, W7).

* ``TCP_NODELAY`` on every connection, however the listening socket was made. With
  ``--workers N`` uvicorn binds the socket itself and leaves its ``proto`` at 0;
  accepted sockets inherit it and asyncio only sets ``TCP_NODELAY`` on sockets that
  report ``IPPROTO_TCP`` (uvicorn issue #3149). A response then goes out as two small
  segments, the second held back until the client's delayed ACK: about 40 ms added to
  every keep-alive request (48 ms per signed ``/capabilities`` with two workers
  against 2.7 ms with one).
* The contract's JSON envelope on requests too malformed to reach the application (a
  bad chunk size, two ``Content-Length`` values, a NUL in a header, no ``Host``…),
  which h11 refuses before any application code runs and uvicorn would answer with a
  plain-text ``400``.
* A deadline for each request's head (:data:`HEAD_TIMEOUT_S`, from the connection's
  opening or its previous answer): h11 waits for ever, so connections that each sent
  half a request line kept every slot and shut everyone out (a slowloris).
* A limit on *new* connections (``limit_concurrency`` of uvicorn's config, our
  ``max_connections``). uvicorn's own limit answers every request ``503`` while that
  many connections are open — requests on connections already open, and health
  checks, included. Here a connection opened beyond the limit may send one request:
  ``GET /healthz`` is answered (liveness must not fail because the provider is busy),
  anything else gets ``503 overloaded`` with ``Retry-After``; then it is closed. Its
  head deadline is :data:`OVER_LIMIT_HEAD_TIMEOUT_S`. Connections already open are
  never refused.
* A response's head and its body in **one write**: uvicorn writes the head as soon as
  the application sends ``http.response.start`` and the body when it sends
  ``http.response.body``, so with ``TCP_NODELAY`` every answer went out as two system
  calls and two segments, waking the client twice (py-spy on a worker answering
  cached ``/retrieve``: 24 % of its busy samples in the socket's ``write``). The head
  is now held until the body's first write, or the end of the loop iteration it was
  written in (an application that waits before its body still gets its head out).

This subclasses uvicorn's ``H11Protocol`` and uses some of its internals — the
attributes ``app``, ``conn``, ``transport``, ``loop``, ``connections`` and
``limit_concurrency``, and the methods ``send_400_response`` and
``on_response_complete``. The uvicorn versions it works with are pinned in
``pyproject.toml`` and ``tests/contract/test_httpserver.py`` fails when one of them
changes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from .errors import InvalidRequest, Overloaded

__all__ = ["HEAD_TIMEOUT_S", "OVER_LIMIT_HEAD_TIMEOUT_S", "PROTOCOL", "HardenedH11Protocol", "NoDelayH11Protocol",
           "OneWriteTransport"]

#: Seconds a client has to send a complete request line and headers.
HEAD_TIMEOUT_S = 10.0
#: The same for a connection opened beyond ``max_connections``: it holds a descriptor
#: the limit is there to protect.
OVER_LIMIT_HEAD_TIMEOUT_S = 2.0

#: The import string given to uvicorn (``http=``); a string, so it crosses into the
#: worker processes uvicorn spawns.
PROTOCOL = "provider.contract.httpserver:HardenedH11Protocol"

_MALFORMED = json.dumps(
    InvalidRequest("request", "the HTTP request is malformed (request line, headers or framing)").envelope(),
    separators=(",", ":"),
).encode("utf-8")
_OVERLOADED = Overloaded("this provider has too many open connections; retry shortly")
_OVERLOADED_BODY = json.dumps(_OVERLOADED.envelope(), separators=(",", ":")).encode("utf-8")
#: Answered on a connection beyond the limit (the rest gets ``503``).
LIVENESS_PATHS = frozenset({"/healthz"})


async def over_connection_limit(scope: Any, receive: Any, send: Any) -> None:
    """The answer on a connection beyond the limit: the envelope with ``Retry-After``
    (W4, W7), and the connection closed."""
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(_OVERLOADED_BODY)).encode()),
        (b"retry-after", str(_OVERLOADED.retry_after_s).encode()),
        (b"cache-control", b"no-store"),
        (b"connection", b"close"),
    ]
    await send({"type": "http.response.start", "status": 503, "headers": headers})
    await send({"type": "http.response.body", "body": _OVERLOADED_BODY, "more_body": False})


def _liveness_only(app: Any) -> Any:
    """``app`` for ``GET /healthz`` (with ``Connection: close``), the 503 for the rest."""

    async def guarded(scope: Any, receive: Any, send: Any) -> None:
        if scope.get("type") != "http" or scope.get("path") not in LIVENESS_PATHS or scope.get("method") != "GET":
            await over_connection_limit(scope, receive, send)
            return

        async def closing(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"connection"]
                message = {**message, "headers": [*headers, (b"connection", b"close")]}
            await send(message)

        await app(scope, receive, closing)

    return guarded


class OneWriteTransport:
    """A connection's transport that holds a response head back until the next write,
    so that head and body leave in one ``send`` (module docstring). Everything else is
    the transport's own.

    Args:
        transport: the connection's asyncio transport.
        conn: the connection's h11 state machine: a write made while it is sending a
            body and with nothing held is a response head (uvicorn writes it right
            after ``conn.send(Response)``).
        loop: where the held head is flushed at the latest, one iteration on.
    """

    def __init__(self, transport: asyncio.Transport, conn: h11.Connection, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._conn = conn
        self._loop = loop
        self._held: bytes | None = None

    def write(self, data: bytes) -> None:
        """Write ``data`` after whatever is held; hold it instead if it is a head."""
        held = self._held
        if held is not None:
            self._held = None
            self._transport.write(held + data)
        elif self._conn.our_state is h11.SEND_BODY and data and not self._transport.is_closing():
            self._held = data
            self._loop.call_soon(self.flush)
        elif data:
            self._transport.write(data)

    def flush(self) -> None:
        """Write what is held, if anything."""
        held = self._held
        if held is not None:
            self._held = None
            self._transport.write(held)

    def close(self) -> None:
        self.flush()
        self._transport.close()

    def abort(self) -> None:
        self._held = None
        self._transport.abort()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class HardenedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with ``TCP_NODELAY``, the envelope on parse errors, a
    deadline for each request's head and a limit on new connections (module docstring)."""

    _head_timer: asyncio.TimerHandle | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # uvicorn's check in handle_events refuses requests on open connections too:
        # switched off, and the limit applied to new connections in connection_made.
        self.max_connections: int | None = self.limit_concurrency
        self.limit_concurrency = None
        self.over_limit = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            # OSError: the peer is already gone, which h11 notices on its own.
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        super().connection_made(transport)
        # After uvicorn's set-up (its flow control watches the real transport); every
        # later write — the request cycles', the 400 below — goes through this.
        self.transport = OneWriteTransport(transport, self.conn, self.loop)  # type: ignore[assignment]
        if self.max_connections is not None and len(self.connections) > self.max_connections:
            self.over_limit = True
            self.app = _liveness_only(self.app)
        self._arm_head_timer()

    def _arm_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
        timeout = OVER_LIMIT_HEAD_TIMEOUT_S if self.over_limit else HEAD_TIMEOUT_S
        self._head_timer = self.loop.call_later(timeout, self._head_timeout)

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


#: The name this class had before it moved into the contract layer.
NoDelayH11Protocol = HardenedH11Protocol
