"""The outermost layer of the contract routes, a plain ASGI middleware Litestar runs
around them: refusals made before a route runs (oversized or ambiguous headers, encoded
bodies, OPTIONS), and one access-log line and one
:class:`~helpthread_kit.records.RequestRecord` per request (CONTRACT A6, O2, W4).

Requests Litestar refuses before any middleware (no such path, no such method) are
reported by :func:`report_refusal`, called from the contract's exception handler."""

from __future__ import annotations

import hashlib
import json
import logging
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from .errors import ContractError, InvalidRequest, MethodNotAllowed, Overloaded, PayloadTooLarge, UnsupportedMediaType
from .records import RequestRecord, printable

__all__ = ["NOTE_KEY", "ASGIApp", "AccessLog", "Message", "Receive", "Scope", "Send", "note", "report_refusal"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
#: Any ASGI application (a Litestar app among them).
ASGIApp = Callable[..., Awaitable[None]]

log = logging.getLogger("provider.access")
errors_log = logging.getLogger("provider.errors")

_JSON = "application/json"
#: Headers a request may carry once: two version headers or two media types could be
#: read differently by a proxy and by us.
_SINGLE_HEADERS = (b"content-length", b"content-type", b"x-helpthread-knowledge-version")
#: Where the routes leave what the access log reports (status, registration, results…).
NOTE_KEY = "provider.request"


def note(scope: Any, **fields: Any) -> None:
    """Record ``fields`` for this request's access-log line and record."""
    current = scope.get(NOTE_KEY)
    if isinstance(current, dict):
        current.update(fields)


def _request_digest(value: str | None) -> str:
    """A short, non-reversible tag for log correlation (CONTRACT A6): never the nonce."""
    if not value:
        return "-"
    return hashlib.sha256(value.encode("utf-8", "replace")).hexdigest()[:12]


class RequestLimit:
    """The requests one process answers at once, counted across every route (Litestar
    builds a middleware instance per route; they share this): beyond ``max_requests``,
    :class:`AccessLog` answers ``503 overloaded`` with ``Retry-After: retry_after_s``
    in the envelope (CONTRACT W7). One event loop per process: no lock is needed.

    Raises:
        ValueError: ``max_requests`` below 1.
    """

    def __init__(self, max_requests: int, retry_after_s: int = 1) -> None:
        if max_requests < 1:
            raise ValueError(f"max_requests must be at least 1, not {max_requests}")
        self.max_requests = max_requests
        self.retry_after_s = retry_after_s
        self.in_flight = 0


class AccessLog:
    """Outermost ASGI layer: one log line per request, for every route including 404s,
    and one :class:`RequestRecord` for the observer.

    Logged: method, path, status, duration, registration name, result count and a
    digest of ``X-Helpthread-Request``. Never a secret, signature, nonce or query (A6, O2).
    """

    def __init__(
        self, app: ASGIApp, observer: Callable[[RequestRecord], None] | None = None, max_header_bytes: int = 16384,
        limit: RequestLimit | None = None,
    ) -> None:
        """Args:
            app: the routes.
            observer: called with each request's record; must be fast.
            max_header_bytes: larger request heads are answered ``431``.
            limit: the process's :class:`RequestLimit`; beyond it ``503 overloaded``
                with ``Retry-After``, in the envelope (W7), before any other work
                (``/healthz`` aside: a live process is live under load). ``None``: none.
        """
        self.app = app
        self.observer = observer
        self.max_header_bytes = max_header_bytes
        self.limit = limit

    def _refusal(self, scope: Scope) -> ContractError | None:
        """Answers given before the application sees the request: oversized headers,
        ambiguous framing or headers, encoded bodies, and OPTIONS (which the framework
        would otherwise answer without our envelope)."""
        headers = scope.get("headers", ())
        size = 0
        names: dict[bytes, int] = {}
        for name, value in headers:
            size += len(name) + len(value)
            lowered = name.lower()
            names[lowered] = names.get(lowered, 0) + 1
        if size > self.max_header_bytes:
            error: ContractError = PayloadTooLarge("request headers are larger than this provider accepts")
            error.status_override = 431  # type: ignore[attr-defined]
            return error
        if names.get(b"transfer-encoding") and names.get(b"content-length"):
            # RFC 9112 §6.1: a proxy in front may frame this request by Content-Length
            # while we frame it by Transfer-Encoding — request smuggling. Refuse, close.
            error = InvalidRequest("headers", "both Content-Length and Transfer-Encoding: the framing is ambiguous")
            error.close_connection = True  # type: ignore[attr-defined]
            return error
        if names.get(b"transfer-encoding"):
            # A chunked body may end in trailer fields, and uvicorn's httptools protocol
            # adds them to the scope's header list, where nothing tells them from the
            # request head's: a signature sent after the body would count (A1, A2). The
            # core and the reverse proxy send Content-Length; RFC 9112 §6.3 allows 411.
            error = InvalidRequest("body", "send it with Content-Length; a chunked body is not accepted")
            error.status_override = 411  # type: ignore[attr-defined]
            error.close_connection = True  # type: ignore[attr-defined]
            return error
        for name in _SINGLE_HEADERS:
            if names.get(name, 0) > 1:
                return InvalidRequest("headers", f"{name.decode()} appears more than once")
        if names.get(b"content-encoding"):
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
        noted: dict[str, object] = {"status": 500}
        scope[NOTE_KEY] = noted

        async def send_wrapper(message: Message) -> None:
            if message["type"] == "http.response.start":
                noted["status"] = message["status"]
            await send(message)

        limit = self.limit
        if limit is not None:
            limit.in_flight += 1
        try:
            refusal = self._refusal(scope)
            if (refusal is None and limit is not None and limit.in_flight > limit.max_requests
                    and not scope.get("path", "").endswith("/healthz")):  # liveness stays 200 under load
                # uvicorn's own limit (limit_concurrency) would answer plain text without
                # Retry-After; this one is set below it (helpthread_kit.serving).
                refusal = Overloaded("too many requests in flight; retry shortly", retry_after_s=limit.retry_after_s)
            if refusal is None:
                await self.app(scope, receive, send_wrapper)
            else:
                noted["error"] = refusal.code
                status = getattr(refusal, "status_override", refusal.status)
                body = json.dumps(refusal.envelope(), separators=(",", ":")).encode("utf-8")
                headers = [(b"content-type", _JSON.encode()), (b"cache-control", b"no-store"),
                           (b"content-length", str(len(body)).encode())]
                if getattr(refusal, "close_connection", False):
                    headers.append((b"connection", b"close"))
                headers += [(name.lower().encode(), value.encode()) for name, value in refusal.headers().items()]
                await send_wrapper({"type": "http.response.start", "status": status, "headers": headers})
                await send_wrapper({"type": "http.response.body", "body": body})
        finally:
            if limit is not None:
                limit.in_flight -= 1
            if self.observer is not None or log.isEnabledFor(logging.INFO):
                self._report(scope, noted, started)

    def _report(self, scope: Scope, noted: dict[str, object], started: float) -> None:
        _report(scope, noted, started, self.observer)


def report_refusal(scope: Any, status: int, code: str,
                   observer: Callable[[RequestRecord], None] | None) -> None:
    """Log and record a request refused before the middleware ran (a path or method
    Litestar's router has no route for): status and error code, no duration."""
    if scope.get(NOTE_KEY) is not None:
        return  # the middleware saw it and reports it
    if observer is not None or log.isEnabledFor(logging.INFO):
        _report(scope, {"status": status, "error": code}, time.perf_counter(), observer)


def _report(scope: Scope, noted: dict[str, object], started: float,
            observer: Callable[[RequestRecord], None] | None) -> None:
    """The request's record for the observer and its access-log line (only built when
    one of them is there to take it)."""
    request_id = None
    for name, value in scope.get("headers", ()):
        if name == b"x-helpthread-request":
            request_id = value.decode("latin-1")
    record = RequestRecord(
        method=str(scope.get("method", "-")),
        # Paths arrive percent-decoded: a newline in one must not forge a log line.
        path=printable(str(scope.get("path", "-"))),
        status=int(noted["status"]),  # type: ignore[call-overload]
        duration_s=time.perf_counter() - started,
        registration=noted.get("registration"),  # type: ignore[arg-type]
        result_count=noted.get("results"),  # type: ignore[arg-type]
        error_code=noted.get("error"),  # type: ignore[arg-type]
        request_digest=_request_digest(request_id),
        repairs=tuple(noted.get("repairs", ())),  # type: ignore[arg-type]
    )
    # A probe answered 200 is at debug: an orchestrator's probes every few seconds would
    # otherwise bury the requests (a probe that fails stays at info).
    level = logging.DEBUG if record.status == 200 and record.path in _PROBES else logging.INFO
    if log.isEnabledFor(level):  # the line's fields are built only when it is written
        _log_line(record, level)
    if observer is not None:
        try:
            observer(record)
        except Exception:  # an observer bug must not break answering
            errors_log.exception("request observer failed")


#: Liveness and readiness paths: logged at debug when they answer 200.
_PROBES = frozenset({"/healthz", "/readyz"})


def _log_line(record: RequestRecord, level: int = logging.INFO) -> None:
    log.log(
        level,
        "%s %s %s %.1fms registration=%s results=%s request=%s%s",
        record.method, record.path, record.status, record.duration_s * 1000,
        record.registration or "-", "-" if record.result_count is None else record.result_count,
        record.request_digest, f" repairs={','.join(record.repairs)}" if record.repairs else "",
        extra={
            "http_method": record.method,
            "http_path": record.path,
            "http_status": record.status,
            "duration_ms": round(record.duration_s * 1000, 2),
            "registration": record.registration,
            "result_count": record.result_count,
            "error_code": record.error_code,
            "request_digest": record.request_digest,
            "repairs": list(record.repairs),
        },
    )
