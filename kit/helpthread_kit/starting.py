"""What a provider answers while it starts (issue 27): :func:`starting_app`, which
:func:`~helpthread_kit.serving.serve` serves on its address until the first worker
process serves — a worker opening a large index took 37–44 s on a busy machine, and
nothing answered meanwhile, not even ``/healthz``.

Liveness is not readiness: ``GET /healthz`` answers ``200`` with the contract's body (the
process is alive and starting); every other request — ``/readyz``, ``/retrieve``,
``/capabilities``, any other path or method — ``503 index_unavailable`` with
``Retry-After`` and the error envelope, which the core treats as transient (CONTRACT W7,
§4.2). Nothing is authenticated, no nonce is recorded, nothing about the corpus or the
registrations is said.
"""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import Litestar, Request, Response, get
from litestar.response.base import ASGIResponse

from .errors import IndexUnavailable

__all__ = ["HEALTHY", "starting_app"]

#: The body of ``GET /healthz``, starting or serving.
HEALTHY = b'{"contractVersion":1,"status":"ok"}'
#: Every answer closes its connection: a client's next request opens a new one, which
#: reaches a worker once one serves (a kept-alive connection would stay with the
#: starting state until it stops).
_HEADERS = {"cache-control": "no-store", "connection": "close"}


def starting_app(*, retry_after_s: int = 1) -> Litestar:
    """The starting state as a Litestar application (module docstring). Every answer
    carries ``Cache-Control: no-store`` and ``Connection: close``.

    Args:
        retry_after_s: whole seconds in ``Retry-After``.
    """
    unavailable = IndexUnavailable(retry_after_s=retry_after_s)
    body, headers = msgspec.json.encode(unavailable.envelope()), {**_HEADERS, **unavailable.headers()}

    @get("/healthz", summary="Liveness (starting)")
    async def healthz() -> ASGIResponse:
        return ASGIResponse(body=HEALTHY, status_code=200, media_type="application/json", headers=_HEADERS)

    def starting(request: Request[Any, Any, Any], exc: Exception) -> Response[bytes]:
        return Response(body, status_code=unavailable.status, media_type="application/json", headers=headers)

    # No route but /healthz: Litestar's 404 and 405 for every other request reach the
    # handler, which answers them as "starting".
    return Litestar(route_handlers=[healthz], exception_handlers={Exception: starting}, openapi_config=None,
                    logging_config=None)
