"""The four routes of the contract application and the work each does, in the order
the contract fixes (CONTRACT W1–W7, A1–A7, Q1–Q6, R1–R4, C2–C3, X1–X8). Each handler
takes Litestar's raw :class:`~litestar.Request` — never a parsed body — and answers an
:class:`~litestar.response.base.ASGIResponse` of bytes it encoded itself.

``POST /retrieve``:

1. body size (``413``) and arrival time (``400``);
2. signature over the raw bytes, timestamp, then nonce (``401``, A1–A5) — nothing about
   the request is looked at before this (A7);
3. contract version header (``400 unsupported_version``, W2);
4. media type (``415``, W3);
5. strict JSON and field rules (``400 invalid_request`` naming the field, Q1–Q6) — a
   body seen before with the same exposure is not parsed again (:meth:`ContractRoutes._query_of`);
6. readiness (``503 index_unavailable``) and admission (``503 overloaded`` with
   ``Retry-After`` when too many searches run, W7);
7. the answer: from the backend's cache on the event loop when it offers one
   (:meth:`~helpthread_kit.backend.CachedAnswers.answer_from_cache`), else the search
   on one of ``search_threads`` threads; then the envelope, filtered by exposure and
   capabilities (R1–R4, X6). What the filter had to repair is a backend bug: counted
   (``RequestRecord.repairs``), and in strict mode refused (``BackendFault``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from typing import Any, cast

import anyio
import anyio.to_thread
import msgspec
from litestar import Request
from litestar.response.base import ASGIResponse

from .accesslog import note
from .backend import Backend, SearchQuery, cached_answers_of
from .capabilities import ALL_CAPABILITIES
from .errors import (
    BackendFault,
    ContractError,
    IndexUnavailable,
    InvalidRequest,
    MalformedSignature,
    Overloaded,
    PayloadTooLarge,
    SearchDeadlineExceeded,
)
from .readiness import Readiness
from .registrations import Exposure, Registration
from .request import RetrieveRequest, check_content_type, check_version, parse_retrieve_request
from .results import Repair, Result, render_results
from .settings import ContractSettings
from .signature import Verifier
from .starting import HEALTHY

__all__ = ["ContractRoutes", "encode_json", "json_response", "read_body"]

debug_log = logging.getLogger("provider.requests")
errors_log = logging.getLogger("provider.errors")

#: Rendered answers kept for the backend's cached ones (:meth:`ContractRoutes._render_same`).
RENDERED_ENTRIES = 512
#: Request bodies whose parsed form is kept (:meth:`ContractRoutes._query_of`), and the
#: largest body kept, in bytes (a retrieval request is a query of a few words).
PARSED_ENTRIES = 1024
PARSED_BODY_BYTES = 1024
_READY = b'{"contractVersion":1,"status":"ready"}'
_NO_STORE = {"cache-control": "no-store"}


_ENCODER = msgspec.json.Encoder()


def encode_json(payload: object) -> bytes:
    """``payload`` as compact UTF-8 JSON, as every answer is sent. msgspec's encoder:
    the same bytes as ``json.dumps(ensure_ascii=False, separators=(",", ":"))`` for every
    answer (numbers below 1e-4 or from 1e16 on aside: written without an exponent, or
    ``1e16`` for ``1e+16``), in a quarter of its time — a tenth of a distinct query's
    work on the event loop (issue 27)."""
    return _ENCODER.encode(payload)


def json_response(status: int, payload: object, headers: dict[str, str] | None = None) -> ASGIResponse:
    """A JSON answer with ``Cache-Control: no-store``: ``payload`` is encoded with
    :func:`encode_json` unless it is ``bytes`` already."""
    body = payload if isinstance(payload, bytes) else encode_json(payload)
    return ASGIResponse(body=body, status_code=status, media_type="application/json",
                        headers={**_NO_STORE, **headers} if headers else _NO_STORE)


def header_values(request: Request[Any, Any, Any], name: bytes) -> list[str]:
    """Every value of header ``name`` (lowercase bytes), in order, as Latin-1 text."""
    return [value.decode("latin-1") for key, value in request.scope["headers"] if key.lower() == name]


def _header(request: Request[Any, Any, Any], name: bytes) -> str | None:
    for key, value in request.scope["headers"]:
        if key.lower() == name:
            return str(value.decode("latin-1"))
    return None


async def _read(request: Request[Any, Any, Any], max_bytes: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            raise InvalidRequest("body", "the client disconnected before sending the whole body")
        chunk = cast("bytes", message.get("body", b""))
        size += len(chunk)
        if size > max_bytes:
            raise PayloadTooLarge()
        chunks.append(chunk)
        if not message.get("more_body", False):
            return chunks[0] if len(chunks) == 1 else b"".join(chunks)


async def read_body(request: Request[Any, Any, Any], *, max_bytes: int, timeout_s: float) -> bytes:
    """The raw body bytes as received — what the signature covers (A2, A7) — at most
    ``max_bytes`` bytes, within ``timeout_s`` seconds. Nothing parses them here.

    Raises:
        PayloadTooLarge: ``Content-Length`` or the bytes received exceed ``max_bytes``
            (nothing more is read).
        InvalidRequest: ``body`` — not complete within ``timeout_s``, or the client
            went away first.
    """
    declared = _header(request, b"content-length")
    if declared is not None and declared.strip().isdigit() and int(declared) > max_bytes:
        raise PayloadTooLarge()
    try:
        # asyncio's own timeout under asyncio (uvicorn): anyio's cancel scope cost more
        # CPU than the rest of reading a small body.
        if _on_asyncio():
            async with asyncio.timeout(timeout_s):
                return await _read(request, max_bytes)
        with anyio.fail_after(timeout_s):
            return await _read(request, max_bytes)
    except TimeoutError:
        raise InvalidRequest("body", f"not received within {timeout_s:g} s") from None


def _on_asyncio() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


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
        self._capabilities_body = encode_json({"contractVersion": 1, "capabilities": list(self.declared)})
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
        self.cached_answer = cached_answers_of(backend)
        #: (a cached answer, exposure, limit, locale, fallback) -> its encoded envelope,
        #: the repairs made, the results sent; on the event loop only
        self._renders = lru_cache(maxsize=RENDERED_ENTRIES)(self._render_same)
        #: (exposure, body) -> what the body parsed to, and its query
        self._queries: dict[tuple[object, bytes], tuple[RetrieveRequest, SearchQuery]] = {}

    def _query_of(self, body: bytes, registration: Registration) -> tuple[RetrieveRequest, SearchQuery]:
        """The request ``body`` makes for this registration's exposure, and its search.

        Parsing is a function of the body's bytes, the exposure and the declared
        capabilities (fixed for this application) alone, so a body met again — a
        repeated question, the answer cache's case — is looked up instead (the strict
        parse was a large share of a cached answer's contract work). Only bodies that
        parsed are kept, and only small ones (:data:`PARSED_BODY_BYTES`); the oldest
        goes first beyond :data:`PARSED_ENTRIES`.

        Raises:
            InvalidRequest: as :func:`~helpthread_kit.request.parse_retrieve_request`.
        """
        key = (registration.exposure, body)
        found = self._queries.get(key)
        if found is not None:
            return found
        settings = self.settings
        parsed = parse_retrieve_request(body, exposure=registration.exposure, capabilities=settings.capabilities)
        query = SearchQuery(text=parsed.query, limit=parsed.limit, reach=registration.exposure,
                            capabilities=settings.capabilities, locale=parsed.locale,
                            locale_fallback=parsed.locale_fallback)
        if len(body) <= PARSED_BODY_BYTES:
            if len(self._queries) >= PARSED_ENTRIES:
                del self._queries[next(iter(self._queries))]
            self._queries[key] = (parsed, query)
        return parsed, query

    def _from_cache(self, query: SearchQuery) -> Sequence[Result] | None:
        """The backend's cached answer, on the event loop: no thread hand-off (which cost
        more CPU than the whole look-up). ``None`` when it has none."""
        if self.cached_answer is None:
            return None
        try:
            return self.cached_answer(query)
        except Exception:
            errors_log.exception("backend fault: answer_from_cache raised; searching instead")
            return None

    async def _search(self, query: SearchQuery) -> Sequence[Result]:
        """``backend.search`` on one of the ``search_threads`` threads of this application,
        counted in ``in_flight`` until its thread is done, and given up after
        ``search_deadline_s`` (a thread cannot be stopped: it finishes unseen).

        Under asyncio (uvicorn) the threads are a pool of their own: a hand-off to it
        costs less CPU than one to anyio's, and
        searches always run on the same few threads, so a backend keeping per-thread
        state (searchers) keeps ``search_threads`` of them, not one per thread of
        anyio's shared pool. Under another event loop, anyio's threads with the limiter.

        Raises:
            SearchDeadlineExceeded: no answer within the deadline (``503``, W7).
        """
        deadline_s = self.settings.search_deadline_s
        self.in_flight += 1
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            try:
                with anyio.fail_after(deadline_s):
                    return await anyio.to_thread.run_sync(self.backend.search, query, limiter=self.search_limiter,
                                                          abandon_on_cancel=True)
            except TimeoutError:
                errors_log.error("search deadline: no answer within %s s; answered 503", deadline_s)
                raise SearchDeadlineExceeded(retry_after_s=self.settings.retry_after_s) from None
            finally:
                self.in_flight -= 1
        future = loop.run_in_executor(self.search_pool, self.backend.search, query)
        # The request waits on a future of its own, woken by the search or by the
        # deadline, whichever comes first: the search's future is never cancelled (its
        # thread finishes unseen, counted in in_flight until then), and a request
        # cancelled while waiting leaves it alone too. What asyncio.wait_for(shield())
        # did, at about a third of its CPU on the event loop.
        waiter: asyncio.Future[None] = loop.create_future()
        future.add_done_callback(lambda done: self._search_done(done, waiter))
        timer = None if deadline_s is None else loop.call_later(deadline_s, _wake, waiter)
        try:
            await waiter
        finally:
            if timer is not None:
                timer.cancel()
        if not future.done():
            errors_log.error("search deadline: no answer within %s s; answered 503", deadline_s)
            raise SearchDeadlineExceeded(retry_after_s=self.settings.retry_after_s)
        return future.result()

    def _search_done(self, future: asyncio.Future[Sequence[Result]], waiter: asyncio.Future[None]) -> None:
        self.in_flight -= 1
        _wake(waiter)
        if not future.cancelled():
            # Retrieved here so that a search given up on and failing later is not
            # reported as "exception never retrieved"; a waiting request still gets it.
            future.exception()

    async def _body(self, request: Request[Any, Any, Any]) -> bytes:
        return await read_body(request, max_bytes=self.settings.max_body_bytes, timeout_s=self.settings.body_timeout_s)

    async def authenticate(self, request: Request[Any, Any, Any], body: bytes) -> Registration:
        """Verify the signature (off the event loop unless the replay store never blocks),
        then the version header.

        Raises:
            AuthenticationError, ReplayStoreUnavailable, UnsupportedVersion.
        """
        signatures = header_values(request, b"x-helpthread-signature")
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
        check_version(_header(request, b"x-helpthread-knowledge-version"))
        return registration

    async def retrieve(self, request: Request[Any, Any, Any]) -> ASGIResponse:
        """``POST /retrieve`` (module docstring)."""
        settings = self.settings
        body = await self._body(request)
        registration = await self.authenticate(request, body)
        check_content_type(_header(request, b"content-type"))
        parsed, query = self._query_of(body, registration)
        if not await self.readiness.backend_ready():
            raise IndexUnavailable(retry_after_s=settings.retry_after_s)
        if self.in_flight >= settings.max_in_flight:
            raise Overloaded(retry_after_s=settings.retry_after_s)
        results = self._from_cache(query)
        if results is not None:
            body_out, duties, count = self._renders(_Same(results), registration.exposure, parsed.limit,
                                                    parsed.locale, parsed.locale_fallback)
        else:
            results = await self._search(query)
            body_out, duties, count = self._render(results, registration.exposure, parsed.limit, parsed.locale,
                                                   parsed.locale_fallback)
        if duties:
            note(request.scope, repairs=list(duties))
            if settings.strict:
                raise BackendFault(list(duties))
        note(request.scope, results=count)
        return json_response(200, body_out)

    def _render(self, results: Sequence[Result], exposure: Exposure, limit: int, locale: str | None,
                locale_fallback: bool) -> tuple[bytes, tuple[str, ...], int]:
        """The envelope of ``results`` for this registration and request, encoded; the
        duties whose repairs it needed; the number of results sent."""
        repairs: list[Repair] = []
        payload = render_results(results, exposure=exposure, capabilities=self.settings.capabilities,
                                 limit=limit, locale=locale, locale_fallback=locale_fallback, repairs=repairs)
        return encode_json(payload), tuple(r.duty for r in repairs), len(payload["results"])  # type: ignore[arg-type]

    def _render_same(self, results: _Same, exposure: Exposure, limit: int, locale: str | None,
                     locale_fallback: bool) -> tuple[bytes, tuple[str, ...], int]:
        """:meth:`_render` of an answer from the backend's cache, kept in :attr:`_renders`
        and reused while the backend hands out the same sequence object for it.
        Everything :func:`render_results` depends on is in the key: the same gate,
        applied once."""
        return self._render(results.value, exposure, limit, locale, locale_fallback)

    async def capabilities(self, request: Request[Any, Any, Any]) -> ASGIResponse:
        """``GET /capabilities``, signed like ``/retrieve`` (C3)."""
        await self.authenticate(request, await self._body(request))
        return json_response(200, self._capabilities_body)

    async def healthz(self, request: Request[Any, Any, Any]) -> ASGIResponse:
        """Liveness only: says nothing about the corpus or the registrations."""
        return json_response(200, HEALTHY)

    async def readyz(self, request: Request[Any, Any, Any]) -> ASGIResponse:
        """Ready when the backend is and the replay store answers (a provider whose store
        is unreachable refuses every request, so it must not report itself ready)."""
        error: ContractError | None = None
        if not await self.readiness.backend_ready():
            error = IndexUnavailable(retry_after_s=self.settings.retry_after_s)
        else:
            error = await self.readiness.replay_store_error()
        if error is not None:
            note(request.scope, error=error.code)
            return json_response(error.status, error.envelope(), error.headers())
        return json_response(200, _READY)


def _wake(waiter: asyncio.Future[None]) -> None:
    """Let the request waiting on ``waiter`` go on (once: the search and the deadline
    both call this; a request cancelled meanwhile has a cancelled waiter)."""
    if not waiter.done():
        waiter.set_result(None)


class _Same:
    """A cache key equal only for the very same object: an answer's identity. It holds
    the object, so its ``id`` cannot be reused by another while the key is kept."""

    __slots__ = ("value",)

    def __init__(self, value: Sequence[Result]) -> None:
        self.value = value

    def __hash__(self) -> int:
        return id(self.value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and other.value is self.value
