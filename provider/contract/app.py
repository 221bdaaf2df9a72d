"""The HTTP application: :func:`create_app` assembles it from its parts (CONTRACT W1–W7,
A1–A7, Q1–Q6, R1–R4, C2–C3, X1–X8).

Reading from the outside in:

* :class:`~provider.contract.accesslog.AccessLog` — refusals made before any route
  (oversized or ambiguous headers, encoded bodies, OPTIONS), one log line and one
  :class:`~provider.contract.records.RequestRecord` per request;
* :class:`Router` (here) — path and method to a handler, ``404``/``405``, and every
  error turned into the contract's envelope;
* :class:`~provider.contract.routes.ContractRoutes` — the four routes and the order of
  work on ``/retrieve``;
* :class:`~provider.contract.readiness.Readiness` — ``Backend.is_ready()`` and the
  replay store's health, off the event loop and cached.

No web framework: :mod:`provider.contract.asgi` holds the little ASGI the routes need.
"""

from __future__ import annotations

import logging
import time

from .accesslog import AccessLog, note
from .asgi import ASGIApp, HTTPRequest, Message, Receive, Scope, Send, send_json
from .backend import Backend
from .capabilities import ALL_CAPABILITIES
from .errors import ContractError, MethodNotAllowed, NotFound, ReplayStoreUnavailable
from .routes import ContractRoutes, Handler
from .serving import check_replay_store_for_workers
from .settings import ContractSettings

__all__ = ["ASGIApp", "Message", "Receive", "Router", "Scope", "Send", "create_app"]

errors_log = logging.getLogger("provider.errors")

#: Seconds between two log lines saying requests are refused for an unreachable store.
STORE_LOG_INTERVAL_S = 10.0


class Router:
    """Dispatch by exact path and method; answer every error with the envelope.

    Args:
        table: ``{path: {method: handler}}``.
    """

    def __init__(self, table: dict[str, dict[str, Handler]]) -> None:
        self.table = table
        self._store_logged = -STORE_LOG_INTERVAL_S

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await _lifespan(receive, send)
            return
        if scope["type"] != "http":
            await send({"type": "websocket.close", "code": 1008})
            return
        request = HTTPRequest(scope, receive)
        try:
            methods = self.table.get(request.path)
            if methods is None:
                raise NotFound()
            handler = methods.get(request.method)
            if handler is None:
                raise MethodNotAllowed()
            status, payload, headers = await handler(request)
        except ContractError as exc:
            self._log_store_outage(exc)
            note(scope, error=exc.code)
            await send_json(send, exc.status, exc.envelope(), exc.headers())
            return
        except Exception as exc:
            errors_log.error("unhandled error while answering a request", exc_info=exc)
            error = ContractError()
            note(scope, error=error.code)
            await send_json(send, error.status, error.envelope())
            return
        await send_json(send, status, payload, headers)

    def _log_store_outage(self, exc: ContractError) -> None:
        # Every request is refused while the store is down: say so, but not per request.
        if isinstance(exc, ReplayStoreUnavailable) and time.monotonic() - self._store_logged > STORE_LOG_INTERVAL_S:
            self._store_logged = time.monotonic()
            errors_log.error("refusing requests: %s", exc.message)


async def _lifespan(receive: Receive, send: Send) -> None:
    """Nothing to start or stop: acknowledge the server's lifespan events."""
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return


def _check_capabilities(backend: Backend, declared: frozenset[str]) -> None:
    for name in declared:
        if name not in ALL_CAPABILITIES:
            raise ValueError(f"unknown capability {name!r}")
        if name != "retrieve" and name not in backend.implemented_capabilities:
            raise ValueError(f"capability {name!r} is declared but not implemented by the backend")


def create_app(backend: Backend, settings: ContractSettings) -> ASGIApp:
    """Build the provider's ASGI application around a backend.

    Args:
        backend: answers searches; see :class:`~provider.contract.backend.Backend`.
        settings: registrations, declared capabilities and limits. Every declared
            capability must be implemented by the backend.

    Returns:
        An ASGI application for :func:`~provider.contract.serving.serve` (or any ASGI
        server — without the HTTP hardening, see ``serving``).

    Raises:
        ValueError: a declared capability is unknown or not implemented by the backend.
        ConfigurationError: a per-process replay store in a worker of a multi-worker
            :func:`~provider.contract.serving.serve` (A5).
    """
    _check_capabilities(backend, settings.capabilities)
    check_replay_store_for_workers(settings.replay_store)
    routes = ContractRoutes(backend, settings)
    return AccessLog(Router(routes.table()), settings.observer)
