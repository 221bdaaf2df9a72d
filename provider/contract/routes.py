"""The four routes of the contract application and the work each does, in the order
the contract fixes (CONTRACT W1–W7, A1–A7, Q1–Q6, R1–R4, C2–C3, X1–X8).

``POST /retrieve``:

1. body size (``413``) and arrival time (``400``);
2. signature over the raw bytes, timestamp, then nonce (``401``, A1–A5) — nothing about
   the request is looked at before this (A7);
3. contract version header (``400 unsupported_version``, W2);
4. media type (``415``, W3);
5. strict JSON and field rules (``400 invalid_request`` naming the field, Q1–Q6);
6. readiness (``503 index_unavailable``) and admission (``503 overloaded`` with
   ``Retry-After`` when too many searches run, W7);
7. the search, on one of ``search_threads`` threads; then the envelope, filtered by exposure and
   capabilities (R1–R4, X6). What the filter had to repair is a backend bug: counted
   (``RequestRecord.repairs``), and in strict mode refused (``BackendFault``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

import anyio
import anyio.to_thread

from .accesslog import note
from .asgi import HTTPRequest
from .backend import Backend, SearchQuery
from .capabilities import ALL_CAPABILITIES
from .errors import BackendFault, IndexUnavailable, MalformedSignature, Overloaded
from .readiness import Readiness
from .registrations import Registration
from .request import check_content_type, check_version, parse_retrieve_request
from .results import Repair, Result, render_results
from .settings import ContractSettings
from .signature import Verifier

__all__ = ["Answer", "ContractRoutes", "Handler"]

debug_log = logging.getLogger("provider.requests")

#: What a route answers: ``(status, JSON payload, extra headers)``.
Answer = tuple[int, dict[str, object], dict[str, str]]
Handler = Callable[[HTTPRequest], Awaitable[Answer]]


class ContractRoutes:
    """The route handlers around one backend.

    Args:
        backend: answers searches.
        settings: registrations, capabilities, limits, replay store.
    """

    def __init__(self, backend: Backend, settings: ContractSettings) -> None:
        self.backend = backend
        self.settings = settings
        self.verifier = Verifier(settings.registrations, settings.replay_store, max_skew_s=settings.max_skew_s,
                                 clock=settings.clock)
        self.declared = [name for name in ALL_CAPABILITIES if name in settings.capabilities]
        self.search_limiter = anyio.CapacityLimiter(settings.search_threads)
        self.search_pool = ThreadPoolExecutor(max_workers=settings.search_threads, thread_name_prefix="kp-search")
        # The replay store may be a network round trip (Redis) and is_ready() a call to
        # the upstream product: both run off the event loop, so neither stalls health
        # checks or other requests.
        self.side_limiter = anyio.CapacityLimiter(max(8, settings.search_threads))
        self.readiness = Readiness(backend.is_ready, settings.replay_store, self.side_limiter)
        # An HMAC over a small body takes microseconds; only the store can wait. With a
        # store that never does (the in-memory one), verifying on the event loop saves a
        # thread hand-off that cost more CPU than the verification itself.
        self.verify_inline = getattr(settings.replay_store, "blocking", True) is False
        self.in_flight = 0

    async def _search(self, query: SearchQuery) -> Sequence[Result]:
        """``backend.search`` on one of the ``search_threads`` threads of this application.

        Under asyncio (uvicorn) the threads are a pool of their own: a hand-off to it
        costs about half the CPU of anyio's (measured 44–61 µs against 98–169 µs), and
        searches always run on the same few threads, so a backend keeping per-thread
        state (searchers) keeps ``search_threads`` of them, not one per thread of
        anyio's shared pool. Under another event loop, anyio's threads with the limiter.
        """
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return await anyio.to_thread.run_sync(self.backend.search, query, limiter=self.search_limiter)
        return await loop.run_in_executor(self.search_pool, self.backend.search, query)

    def table(self) -> dict[str, dict[str, Handler]]:
        """``{path: {method: handler}}``."""
        return {
            "/retrieve": {"POST": self.retrieve},
            "/capabilities": {"GET": self.capabilities},
            "/healthz": {"GET": self.healthz},
            "/readyz": {"GET": self.readyz},
        }

    async def _body(self, request: HTTPRequest) -> bytes:
        return await request.body(max_bytes=self.settings.max_body_bytes, timeout_s=self.settings.body_timeout_s)

    async def authenticate(self, request: HTTPRequest, body: bytes) -> Registration:
        """Verify the signature (off the event loop unless the replay store never blocks),
        then the version header.

        Raises:
            AuthenticationError, ReplayStoreUnavailable, UnsupportedVersion.
        """
        signatures = request.header_values("x-helpthread-signature")
        if len(signatures) > 1:
            raise MalformedSignature("X-Helpthread-Signature must appear once")
        header = signatures[0] if signatures else None
        try:
            if self.verify_inline:
                registration = self.verifier.verify(header, body)
            else:
                registration = await anyio.to_thread.run_sync(self.verifier.verify, header, body,
                                                              limiter=self.side_limiter)
        except Exception as exc:
            debug_log.debug("authentication refused: %s", getattr(exc, "code", type(exc).__name__))
            raise
        debug_log.debug("authenticated: registration %s (%s)", registration.name, registration.exposure)
        note(request.scope, registration=registration.name)
        check_version(request.header("x-helpthread-knowledge-version"))
        return registration

    async def retrieve(self, request: HTTPRequest) -> Answer:
        """``POST /retrieve`` (module docstring)."""
        settings = self.settings
        body = await self._body(request)
        registration = await self.authenticate(request, body)
        check_content_type(request.header("content-type"))
        parsed = parse_retrieve_request(body, exposure=registration.exposure, capabilities=settings.capabilities)
        if not await self.readiness.backend_ready():
            raise IndexUnavailable(retry_after_s=settings.retry_after_s)
        if self.in_flight >= settings.max_in_flight:
            raise Overloaded(retry_after_s=settings.retry_after_s)
        query = SearchQuery(text=parsed.query, limit=parsed.limit, reach=registration.exposure,
                            capabilities=settings.capabilities, locale=parsed.locale,
                            locale_fallback=parsed.locale_fallback)
        self.in_flight += 1
        try:
            results = await self._search(query)
        finally:
            self.in_flight -= 1
        repairs: list[Repair] = []
        payload = render_results(results, exposure=registration.exposure, capabilities=settings.capabilities,
                                 limit=parsed.limit, locale=parsed.locale, locale_fallback=parsed.locale_fallback,
                                 repairs=repairs)
        if repairs:
            note(request.scope, repairs=[r.duty for r in repairs])
            if settings.strict:
                raise BackendFault([r.duty for r in repairs])
        note(request.scope, results=len(payload["results"]))  # type: ignore[arg-type]
        return 200, payload, {}

    async def capabilities(self, request: HTTPRequest) -> Answer:
        """``GET /capabilities``, signed like ``/retrieve`` (C3)."""
        await self.authenticate(request, await self._body(request))
        return 200, {"contractVersion": 1, "capabilities": list(self.declared)}, {}

    async def healthz(self, request: HTTPRequest) -> Answer:
        """Liveness only: says nothing about the corpus or the registrations."""
        return 200, {"contractVersion": 1, "status": "ok"}, {}

    async def readyz(self, request: HTTPRequest) -> Answer:
        """Ready when the backend is and the replay store answers (a provider whose store
        is unreachable refuses every request, so it must not report itself ready)."""
        if not await self.readiness.backend_ready():
            error = IndexUnavailable(retry_after_s=self.settings.retry_after_s)
            return error.status, error.envelope(), error.headers()
        store_error = await self.readiness.replay_store_error()
        if store_error is not None:
            return store_error.status, store_error.envelope(), store_error.headers()
        return 200, {"contractVersion": 1, "status": "ready"}, {}
