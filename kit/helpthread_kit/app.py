"""The contract as Litestar building blocks (CONTRACT W1–W7, A1–A7, Q1–Q6, R1–R4, C2–C3,
X1–X8): :func:`create_app` for a provider that serves nothing else, and
:class:`ContractPlugin` for an adapter author's own Litestar application, beside their
own routes::

    from litestar import Litestar, post
    from helpthread_kit import ContractPlugin, ContractSettings

    @post("/hooks/resync")
    async def resync() -> dict[str, str]: ...

    app = Litestar(route_handlers=[resync], plugins=[ContractPlugin(MyBackend(), ContractSettings(...))])

Reading from the outside in:

* the plugin's exception handlers — every error leaves as the contract's envelope
  ``{"contractVersion":1,"error":{code,message}}``: a
  :class:`~helpthread_kit.errors.ContractError` as itself, Litestar's own
  ``HTTPException`` (no route ``404``, no method ``405``, body too large ``413``…) as the
  code of its status, anything else as ``500 internal_error`` (logged);
* :class:`~helpthread_kit.accesslog.AccessLog` — refusals made before a route
  (oversized or ambiguous headers, encoded bodies, OPTIONS), one log line and one
  :class:`~helpthread_kit.records.RequestRecord` per request;
* :class:`~helpthread_kit.routes.ContractRoutes` — the four routes, each taking the
  raw request: the signature is checked over the body's bytes before anything parses
  them (A2, A7), so no handler declares a parsed ``data`` parameter.
"""

from __future__ import annotations

import logging
import time
from typing import Any, cast

from litestar import Litestar, Request, Response, Router, get, post
from litestar.config.app import AppConfig
from litestar.exceptions import HTTPException
from litestar.middleware.base import DefineMiddleware
from litestar.openapi.datastructures import ResponseSpec
from litestar.plugins import InitPluginProtocol
from litestar.response.base import ASGIResponse

from .accesslog import AccessLog, ASGIApp, Message, Receive, RequestLimit, Scope, Send, note, report_refusal
from .backend import Backend
from .capabilities import ALL_CAPABILITIES
from .errors import (
    AuthenticationError,
    ContractError,
    InvalidRequest,
    MethodNotAllowed,
    NotFound,
    Overloaded,
    PayloadTooLarge,
    ReplayStoreUnavailable,
    UnsupportedMediaType,
)
from .models import CapabilitiesResponse, ErrorResponse, RetrieveRequestBody, RetrieveResponse, json_schema
from .routes import ContractRoutes, encode_json
from .serving import check_replay_store_for_workers
from .settings import ContractSettings

__all__ = ["ASGIApp", "ContractPlugin", "Message", "Receive", "Scope", "Send", "contract_router", "create_app",
           "openapi_document"]

errors_log = logging.getLogger("provider.errors")

#: Seconds between two log lines saying requests are refused for an unreachable store.
STORE_LOG_INTERVAL_S = 10.0
#: The contract's error for a status Litestar answers on its own (HTTPException).
_BY_STATUS: dict[int, type[ContractError]] = {
    401: AuthenticationError, 404: NotFound, 405: MethodNotAllowed, 413: PayloadTooLarge,
    415: UnsupportedMediaType, 503: Overloaded,
}


def _check_capabilities(backend: Backend, declared: frozenset[str]) -> None:
    for name in declared:
        if name not in ALL_CAPABILITIES:
            raise ValueError(f"unknown capability {name!r}")
        if name != "retrieve" and name not in backend.implemented_capabilities:
            raise ValueError(f"capability {name!r} is declared but not implemented by the backend")


def contract_router(backend: Backend, settings: ContractSettings, *, path: str = "/") -> Router:
    """The four contract routes around ``backend``, as a Litestar router: ``POST
    /retrieve``, ``GET /capabilities``, ``GET /healthz``, ``GET /readyz`` under ``path``.

    Mount it through :class:`ContractPlugin` (which adds the envelope on every error and
    the access log); on its own it answers Litestar's default error bodies.

    Raises:
        ValueError: a declared capability is unknown or not implemented by the backend.
        ConfigurationError: a per-process replay store in a worker of a multi-worker
            :func:`~helpthread_kit.serving.serve` (A5).
    """
    _check_capabilities(backend, settings.capabilities)
    check_replay_store_for_workers(settings.replay_store)
    routes = ContractRoutes(backend, settings)

    # Each handler takes the raw Request: Litestar parses nothing (no `data` parameter),
    # the routes read the bytes the signature covers. The models only describe the
    # answers for the OpenAPI description (openapi_document adds the request body).
    errors = {status: ResponseSpec(ErrorResponse, description=f"the error envelope ({status})", generate_examples=False)
              for status in (400, 401, 413, 415, 500, 503)}

    @post("/retrieve", status_code=200, summary="Retrieve documents (signed)", operation_id="retrieve",
          responses={200: ResponseSpec(RetrieveResponse, description="results", generate_examples=False), **errors})
    async def retrieve(request: Request[Any, Any, Any]) -> ASGIResponse:
        return await routes.retrieve(request)

    @get("/capabilities", summary="Declared capabilities (signed)", operation_id="capabilities",
         responses={200: ResponseSpec(CapabilitiesResponse, description="declared capabilities",
                                      generate_examples=False), 401: errors[401]})
    async def capabilities(request: Request[Any, Any, Any]) -> ASGIResponse:
        return await routes.capabilities(request)

    @get("/healthz", summary="Liveness")
    async def healthz(request: Request[Any, Any, Any]) -> ASGIResponse:
        return await routes.healthz(request)

    @get("/readyz", summary="Readiness: index loaded, replay store reachable")
    async def readyz(request: Request[Any, Any, Any]) -> ASGIResponse:
        return await routes.readyz(request)

    return Router(path=path, route_handlers=[retrieve, capabilities, healthz, readyz],
                  request_max_body_size=settings.max_body_bytes)


class ContractPlugin(InitPluginProtocol):
    """Mounts the contract in a Litestar application: the routes of
    :func:`contract_router`, the access log and pre-route refusals, and the envelope on
    every error the application answers — the adapter's own routes' errors included.

    Args:
        backend: answers searches; see :class:`~helpthread_kit.backend.Backend`.
        settings: registrations, declared capabilities, limits, replay store.
        path: where the routes are mounted (default ``/``; the core calls
            ``{baseUrl}/retrieve``).

    Raises:
        ValueError, ConfigurationError: as :func:`contract_router`.
    """

    def __init__(self, backend: Backend, settings: ContractSettings, *, path: str = "/") -> None:
        self.settings = settings
        self.router = contract_router(backend, settings, path=path)
        max_requests = settings.max_requests
        self.limit = None if max_requests is None else RequestLimit(max_requests, settings.retry_after_s)
        self._store_logged = -STORE_LOG_INTERVAL_S

    def on_app_init(self, app_config: AppConfig) -> AppConfig:
        app_config.route_handlers.append(self.router)
        app_config.middleware.insert(0, DefineMiddleware(cast("Any", AccessLog), observer=self.settings.observer,
                                                         limit=self.limit))
        app_config.exception_handlers = {
            **app_config.exception_handlers,
            ContractError: self._contract_error,
            HTTPException: self._http_exception,
            Exception: self._unhandled,
        }
        app_config.request_max_body_size = self.settings.max_body_bytes
        return app_config

    def _answer(self, request: Request[Any, Any, Any], error: ContractError, status: int | None = None,
                headers: dict[str, str] | None = None) -> Response[bytes]:
        note(request.scope, error=error.code)
        report_refusal(request.scope, status or error.status, error.code, self.settings.observer)
        return Response(encode_json(error.envelope()), status_code=status or error.status,
                        media_type="application/json",
                        headers={"cache-control": "no-store", **error.headers(), **(headers or {})})

    def _contract_error(self, request: Request[Any, Any, Any], exc: Exception) -> Response[bytes]:
        if not isinstance(exc, ContractError):  # registered for ContractError only
            return self._unhandled(request, exc)
        # Every request is refused while the store is down: say so, but not per request.
        if isinstance(exc, ReplayStoreUnavailable) and time.monotonic() - self._store_logged > STORE_LOG_INTERVAL_S:
            self._store_logged = time.monotonic()
            errors_log.error("refusing requests: %s", exc.message)
        return self._answer(request, exc)

    def _http_exception(self, request: Request[Any, Any, Any], exc: Exception) -> Response[bytes]:
        status = getattr(exc, "status_code", 500)
        error_class = _BY_STATUS.get(status)
        if error_class is not None:
            error = error_class()
        elif 400 <= status < 500:
            # A validation error of an adapter's own route: its detail, never a value.
            error = InvalidRequest("request", str(getattr(exc, "detail", "")) or "is not acceptable")
        else:
            errors_log.error("HTTP %s while answering a request: %s", status, exc)
            error, status = ContractError(), 500
        extra = {k: v for k, v in (getattr(exc, "headers", None) or {}).items() if k.lower() in ("allow",)}
        return self._answer(request, error, status, extra)

    def _unhandled(self, request: Request[Any, Any, Any], exc: Exception) -> Response[bytes]:
        errors_log.error("unhandled error while answering a request", exc_info=exc)
        return self._answer(request, ContractError())


def create_app(backend: Backend, settings: ContractSettings, **litestar_options: Any) -> Litestar:
    """Build a Litestar application that serves the contract around ``backend`` and
    nothing else (no OpenAPI routes unless ``openapi_config`` is given).

    Args:
        backend: answers searches; see :class:`~helpthread_kit.backend.Backend`.
        settings: registrations, declared capabilities and limits. Every declared
            capability must be implemented by the backend.
        litestar_options: passed to :class:`~litestar.Litestar` (``route_handlers`` of
            your own, ``openapi_config``…).

    Returns:
        The application, for :func:`~helpthread_kit.serving.serve` or any ASGI server.

    Raises:
        ValueError: a declared capability is unknown or not implemented by the backend.
        ConfigurationError: a per-process replay store in a worker of a multi-worker
            :func:`~helpthread_kit.serving.serve` (A5).
    """
    options: dict[str, Any] = {"openapi_config": None, "logging_config": None, **litestar_options}
    plugins = [ContractPlugin(backend, settings), *options.pop("plugins", [])]
    return Litestar(plugins=plugins, **options)


def openapi_document(app: Litestar, *, path: str = "/retrieve") -> dict[str, Any]:
    """The OpenAPI description of ``app`` (Litestar builds it from the routes; the shapes
    are the JSON Schemas msgspec generates from :mod:`~helpthread_kit.models`), with
    the ``/retrieve`` request body added from
    :class:`~helpthread_kit.models.RetrieveRequestBody` — which Litestar cannot see:
    the handler reads raw bytes, never a parsed body (A2, A7). Needs ``openapi_config``
    on the app (``create_app(..., openapi_config=OpenAPIConfig(...))``).

    Raises:
        ImproperlyConfiguredException: the app has no ``openapi_config``.
    """
    document: dict[str, Any] = app.openapi_schema.to_schema()
    components = document.setdefault("components", {}).setdefault("schemas", {})
    # msgspec's own schemas of the models, in place of Litestar's reading of them: the
    # ones tests/contract/test_models.py checks against the hand-kept files.
    for model in (RetrieveRequestBody, RetrieveResponse, CapabilitiesResponse, ErrorResponse):
        schema = json_schema(model)
        for name, definition in schema.pop("$defs", {}).items():
            components[name] = _openapi_refs(definition)
        components[model.__name__] = _openapi_refs(schema)
    operation = document.get("paths", {}).get(path, {}).get("post")
    if operation is not None:
        operation["requestBody"] = {"required": True, "content": {"application/json": {
            "schema": {"$ref": "#/components/schemas/RetrieveRequestBody"}}}}
    return document


def _openapi_refs(node: Any) -> Any:
    """msgspec's ``#/$defs/`` references as OpenAPI's ``#/components/schemas/``."""
    if isinstance(node, dict):
        return {k: (v.replace("#/$defs/", "#/components/schemas/") if k == "$ref" else _openapi_refs(v))
                for k, v in node.items()}
    if isinstance(node, list):
        return [_openapi_refs(item) for item in node]
    return node
