"""Run the checker against an ASGI application in-process, with no server or socket.

httpx's own :class:`httpx.ASGITransport` is asynchronous; the checker is synchronous.
:class:`InProcessTransport` runs the app on an event loop in a background thread (an
anyio blocking portal) and hands each request over to it, so the very same checks run
against a URL and against ``create_app(backend, settings)`` in a unit test.
"""

from __future__ import annotations

import itertools
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractContextManager

import anyio.from_thread
import httpx

__all__ = ["ASGIApp", "InProcessTransport"]

#: Any ASGI application (a Litestar app among them).
ASGIApp = Callable[..., Awaitable[None]]


class InProcessTransport(httpx.BaseTransport):
    """A synchronous httpx transport that calls an ASGI app directly.

    An exception escaping the app is answered ``500`` with an empty body, as a server
    would, so the checker reports it instead of crashing. Close the transport (or the
    client that owns it) to stop the background event loop.

    Args:
        app: any ASGI application, e.g. the result of
            :func:`helpthread_kit.create_app` — or several, one per simulated worker
            process: each request goes to the next in turn, as requests on fresh
            connections reach any worker of a server.
    """

    def __init__(self, app: ASGIApp | Sequence[ASGIApp]) -> None:
        apps = [app] if callable(app) else list(app)
        if not apps:
            raise ValueError("no application given")
        self._inners = [httpx.ASGITransport(app=a, raise_app_exceptions=False) for a in apps]
        self._next = itertools.count()
        self._portal_cm: AbstractContextManager[anyio.from_thread.BlockingPortal] = (
            anyio.from_thread.start_blocking_portal()
        )
        self._portal = self._portal_cm.__enter__()
        self._closed = False

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        body = request.read()

        async def call() -> tuple[int, list[tuple[bytes, bytes]], bytes]:
            forwarded = httpx.Request(request.method, request.url, headers=request.headers, content=body)
            inner = self._inners[next(self._next) % len(self._inners)]
            response = await inner.handle_async_request(forwarded)
            content = await response.aread()
            return response.status_code, response.headers.raw, content

        status, headers, content = self._portal.call(call)
        return httpx.Response(status, headers=headers, content=content, request=request)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._portal_cm.__exit__(None, None, None)
