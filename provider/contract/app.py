"""The HTTP application: ``POST /retrieve``, ``GET /capabilities``, health routes
(CONTRACT W1–W7, A1–A7, Q1–Q6, R1–R4, C2–C3, X1–X8).

:func:`create_app` takes any :class:`~provider.contract.backend.Backend`. The order of
work on ``/retrieve`` is fixed by the contract:

1. body size (``413``; Litestar stops reading past ``max_body_bytes``);
2. signature over the raw bytes, timestamp, then nonce (``401``, A1–A5) — nothing about
   the request is looked at before this (A7);
3. contract version header (``400 unsupported_version``, W2);
4. media type (``415``, W3);
5. strict JSON and field rules (``400 invalid_request`` naming the field, Q1–Q6);
6. admission (``503 overloaded`` + ``Retry-After`` when too many searches run, W7);
7. the search, in a worker thread; then the envelope, filtered by exposure and
   capabilities (R1–R4, X6).
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from collections import Counter
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import anyio
import anyio.to_thread
from litestar import Litestar, Request, Response, get, post
from litestar.exceptions import HTTPException

from .backend import Backend, SearchQuery
from .capabilities import ALL_CAPABILITIES
from .errors import (
    ContractError,
    IndexUnavailable,
    InvalidRequest,
    MalformedSignature,
    MethodNotAllowed,
    NotFound,
    Overloaded,
    PayloadTooLarge,
    ReplayStoreUnavailable,
    UnsupportedMediaType,
)
from .records import RequestRecord, printable
from .registrations import Registration
from .request import check_content_type, check_version, parse_retrieve_request
from .results import render_results
from .serving import check_replay_store_for_workers
from .settings import ContractSettings
from .signature import Verifier

__all__ = ["create_app"]

log = logging.getLogger("provider.access")
errors_log = logging.getLogger("provider.errors")
debug_log = logging.getLogger("provider.requests")

_JSON = "application/json"
#: Headers a request may carry once: two version headers or two media types could be
#: read differently by a proxy and by us.
_SINGLE_HEADERS = (b"content-length", b"content-type", b"x-helpthread-knowledge-version")
_NO_STORE = {"Cache-Control": "no-store"}
_STATE_KEY = "provider.request"

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def _json_response(
    payload: dict[str, object], status: int = 200, headers: dict[str, str] | None = None
) -> Response[bytes]:
    body = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return Response(body, status_code=status, media_type=_JSON, headers={**_NO_STORE, **(headers or {})})


def _error_response(error: ContractError, request: Request[Any, Any, Any] | None = None) -> Response[bytes]:
    if request is not None:
        _note(request, error=error.code)
    return _json_response(error.envelope(), error.status, error.headers())


def _request_digest(value: str | None) -> str:
    """A short, non-reversible tag for log correlation (CONTRACT A6): never the nonce."""
    if not value:
        return "-"
    return hashlib.sha256(value.encode("utf-8", "replace")).hexdigest()[:12]


def _note(request: Request[Any, Any, Any], **fields: object) -> None:
    note = request.scope.get(_STATE_KEY)
    if isinstance(note, dict):
        note.update(fields)


class _AccessLog:
    """Outermost ASGI layer: one log line per request, for every route including 404s,
    and one :class:`RequestRecord` for the observer.

    Logged: method, path, status, duration, registration name, result count and a
    digest of ``X-Helpthread-Request``. Never a secret, signature, nonce or query (A6, O2).
    """

    def __init__(
        self, app: ASGIApp, observer: Callable[[RequestRecord], None] | None = None, max_header_bytes: int = 16384
    ) -> None:
        self.app = app
        self.observer = observer
        self.max_header_bytes = max_header_bytes

    def _refusal(self, scope: Scope) -> ContractError | None:
        """Answers given before the application sees the request: oversized headers,
        ambiguous framing or headers, encoded bodies, and OPTIONS (which the framework
        would otherwise answer without our envelope)."""
        headers = scope.get("headers", ())
        if sum(len(name) + len(value) for name, value in headers) > self.max_header_bytes:
            error: ContractError = PayloadTooLarge("request headers are larger than this provider accepts")
            error.status_override = 431  # type: ignore[attr-defined]
            return error
        names = Counter(name.lower() for name, _ in headers)
        if names[b"transfer-encoding"] and names[b"content-length"]:
            # RFC 9112 §6.1: a proxy in front may frame this request by Content-Length
            # while we frame it by Transfer-Encoding — request smuggling. Refuse, close.
            error = InvalidRequest("headers", "both Content-Length and Transfer-Encoding: the framing is ambiguous")
            error.close_connection = True  # type: ignore[attr-defined]
            return error
        for name in _SINGLE_HEADERS:
            if names[name] > 1:
                return InvalidRequest("headers", f"{name.decode()} appears more than once")
        for name, value in headers:
            if name.lower() == b"content-encoding" and value.strip().lower() not in (b"", b"identity"):
                return UnsupportedMediaType("the body must be sent without Content-Encoding")
        if scope.get("method") == "OPTIONS":
            return MethodNotAllowed()
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        note: dict[str, object] = {"status": 500}
        scope[_STATE_KEY] = note

        async def send_wrapper(message: Message) -> None:
            if message["type"] == "http.response.start":
                note["status"] = message["status"]
            await send(message)

        try:
            refusal = self._refusal(scope)
            if refusal is None:
                await self.app(scope, receive, send_wrapper)
            else:
                note["error"] = refusal.code
                status = getattr(refusal, "status_override", refusal.status)
                body = json.dumps(refusal.envelope(), separators=(",", ":")).encode("utf-8")
                headers = [(b"content-type", _JSON.encode()), (b"cache-control", b"no-store"),
                           (b"content-length", str(len(body)).encode())]
                if getattr(refusal, "close_connection", False):
                    headers.append((b"connection", b"close"))
                await send_wrapper({"type": "http.response.start", "status": status, "headers": headers})
                await send_wrapper({"type": "http.response.body", "body": body})
        finally:
            request_id = None
            for name, value in scope.get("headers", ()):
                if name == b"x-helpthread-request":
                    request_id = value.decode("latin-1")
            record = RequestRecord(
                method=str(scope.get("method", "-")),
                # Paths arrive percent-decoded: a newline in one must not forge a log line.
                path=printable(str(scope.get("path", "-"))),
                status=int(note["status"]),  # type: ignore[call-overload]
                duration_s=time.perf_counter() - started,
                registration=note.get("registration"),  # type: ignore[arg-type]
                result_count=note.get("results"),  # type: ignore[arg-type]
                error_code=note.get("error"),  # type: ignore[arg-type]
                request_digest=_request_digest(request_id),
            )
            log.info(
                "%s %s %s %.1fms registration=%s results=%s request=%s",
                record.method, record.path, record.status, record.duration_s * 1000,
                record.registration or "-", "-" if record.result_count is None else record.result_count,
                record.request_digest,
                extra={
                    "http_method": record.method,
                    "http_path": record.path,
                    "http_status": record.status,
                    "duration_ms": round(record.duration_s * 1000, 2),
                    "registration": record.registration,
                    "result_count": record.result_count,
                    "error_code": record.error_code,
                    "request_digest": record.request_digest,
                },
            )
            if self.observer is not None:
                try:
                    self.observer(record)
                except Exception:  # an observer bug must not break answering
                    errors_log.exception("request observer failed")


def create_app(backend: Backend, settings: ContractSettings) -> ASGIApp:
    """Build the provider's ASGI application around a backend.

    Args:
        backend: answers searches; see :class:`~provider.contract.backend.Backend`.
        settings: registrations, declared capabilities and limits. Every declared
            capability must be implemented by the backend.

    Returns:
        An ASGI application (a Litestar app behind an access-log layer) for uvicorn or
        any ASGI server.

    Raises:
        ValueError: a declared capability is unknown or not implemented by the backend.
        ConfigurationError: a per-process replay store in a worker of a multi-worker
            :func:`~provider.contract.serving.serve` (A5).
    """
    for name in settings.capabilities:
        if name not in ALL_CAPABILITIES:
            raise ValueError(f"unknown capability {name!r}")
        if name != "retrieve" and name not in backend.implemented_capabilities:
            raise ValueError(f"capability {name!r} is declared but not implemented by the backend")

    check_replay_store_for_workers(settings.replay_store)
    verifier = Verifier(
        settings.registrations,
        settings.replay_store,
        max_skew_s=settings.max_skew_s,
        clock=settings.clock,
    )
    capabilities = settings.capabilities
    declared = [name for name in ALL_CAPABILITIES if name in capabilities]
    limiter = anyio.CapacityLimiter(settings.search_threads)
    # The replay store may be a network round trip (Redis): verification runs off the
    # event loop so a slow store never stalls health checks or other requests.
    auth_limiter = anyio.CapacityLimiter(max(8, settings.search_threads))
    in_flight = 0

    async def read_body(request: Request[Any, Any, Any]) -> bytes:
        # A client trickling its body must not hold a connection (and a descriptor) for ever.
        try:
            with anyio.fail_after(settings.body_timeout_s):
                return await request.body()
        except TimeoutError:
            raise InvalidRequest("body", f"not received within {settings.body_timeout_s:g} s") from None

    async def authenticate(request: Request[Any, Any, Any], body: bytes) -> Registration:
        signatures = request.headers.getall("x-helpthread-signature", [])
        if len(signatures) > 1:
            raise MalformedSignature("X-Helpthread-Signature must appear once")
        header = signatures[0] if signatures else None
        try:
            registration = await anyio.to_thread.run_sync(verifier.verify, header, body, limiter=auth_limiter)
        except ContractError as exc:
            debug_log.debug("authentication refused: %s", exc.code)
            raise
        debug_log.debug("authenticated: registration %s (%s)", registration.name, registration.exposure)
        _note(request, registration=registration.name)
        check_version(request.headers.get("x-helpthread-knowledge-version"))
        return registration

    @post("/retrieve", status_code=200, request_max_body_size=settings.max_body_bytes)
    async def retrieve(request: Request[Any, Any, Any]) -> Response[bytes]:
        nonlocal in_flight
        body = await read_body(request)
        registration = await authenticate(request, body)
        check_content_type(request.headers.get("content-type"))
        parsed = parse_retrieve_request(body, exposure=registration.exposure, capabilities=capabilities)
        if not backend.is_ready():
            raise IndexUnavailable(retry_after_s=settings.retry_after_s)
        if in_flight >= settings.max_in_flight:
            raise Overloaded(retry_after_s=settings.retry_after_s)
        query = SearchQuery(
            text=parsed.query,
            limit=parsed.limit,
            reach=registration.exposure,
            capabilities=capabilities,
            locale=parsed.locale,
            locale_fallback=parsed.locale_fallback,
        )
        in_flight += 1
        try:
            results = await anyio.to_thread.run_sync(backend.search, query, limiter=limiter)
        finally:
            in_flight -= 1
        payload = render_results(
            results, exposure=registration.exposure, capabilities=capabilities, limit=parsed.limit
        )
        _note(request, results=len(payload["results"]))  # type: ignore[arg-type]
        return _json_response(payload)

    @get("/capabilities", request_max_body_size=settings.max_body_bytes)
    async def get_capabilities(request: Request[Any, Any, Any]) -> Response[bytes]:
        body = await read_body(request)
        await authenticate(request, body)
        return _json_response({"contractVersion": 1, "capabilities": declared})

    @get("/healthz")
    async def healthz() -> Response[bytes]:
        # Liveness only: says nothing about the corpus or the registrations.
        return _json_response({"contractVersion": 1, "status": "ok"})

    store_health: dict[str, Any] = {"checked": 0.0, "error": None}

    async def replay_store_error() -> ContractError | None:
        """The replay store's state, checked at most every 2 s: a provider whose store is
        unreachable refuses every request, so it must not report itself ready."""
        ping = getattr(settings.replay_store, "ping", None)
        if not callable(ping):
            return None
        if time.monotonic() - store_health["checked"] > 2.0:
            try:
                await anyio.to_thread.run_sync(ping, limiter=auth_limiter)
                store_health["error"] = None
            except ContractError as exc:
                if store_health["error"] is None:
                    errors_log.error("the replay store cannot be reached: %s", exc.message)
                store_health["error"] = exc
            store_health["checked"] = time.monotonic()
        error: ContractError | None = store_health["error"]
        return error

    @get("/readyz")
    async def readyz() -> Response[bytes]:
        if not backend.is_ready():
            return _error_response(IndexUnavailable(retry_after_s=settings.retry_after_s))
        store_error = await replay_store_error()
        if store_error is not None:
            return _error_response(store_error)
        return _json_response({"contractVersion": 1, "status": "ready"})

    last_store_log = [0.0]

    def handle_contract_error(request: Request[Any, Any, Any], exc: ContractError) -> Response[bytes]:
        if isinstance(exc, ReplayStoreUnavailable) and time.monotonic() - last_store_log[0] > 10:
            # Every request is refused while the store is down: say so, but not per request.
            last_store_log[0] = time.monotonic()
            errors_log.error("refusing requests: %s", exc.message)
        return _error_response(exc, request)

    def handle_http_exception(request: Request[Any, Any, Any], exc: HTTPException) -> Response[bytes]:
        error: ContractError
        if exc.status_code == 404:
            error = NotFound()
        elif exc.status_code == 405:
            error = MethodNotAllowed()
        elif exc.status_code == 413:
            error = PayloadTooLarge()
        elif exc.status_code == 400:
            error = InvalidRequest("headers", "the request could not be read")
        elif exc.status_code == 500 and "disconnected" in str(exc.detail):
            # The client went away mid-body: nothing to answer, and not our fault.
            error = InvalidRequest("body", "the client disconnected before sending the whole body")
        else:
            errors_log.error("unexpected HTTP exception %s", exc.status_code)
            error = ContractError()
        return _error_response(error, request)

    def handle_unexpected(request: Request[Any, Any, Any], exc: Exception) -> Response[bytes]:
        errors_log.error("unhandled error while answering a request", exc_info=exc)
        return _error_response(ContractError(), request)

    app = Litestar(
        route_handlers=[retrieve, get_capabilities, healthz, readyz],
        exception_handlers={
            ContractError: handle_contract_error,
            HTTPException: handle_http_exception,
            Exception: handle_unexpected,
        },
        openapi_config=None,
        logging_config=None,
        debug=False,
        request_max_body_size=settings.max_body_bytes,
    )
    return _AccessLog(app, settings.observer)  # type: ignore[arg-type]  # Litestar types its ASGI callable more narrowly
