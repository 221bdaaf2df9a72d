"""The checker's connection to a provider: signed requests, and a record of every exchange.

The session knows the provider only by its base URL (or an in-process transport) and the
secrets the operator handed over. Every answer is recorded as an :class:`Exchange`
and validated against the JSON Schemas on arrival (``validation.py``), so the final
checks can judge every body the provider ever sent — errors included.
"""

from __future__ import annotations

import email.utils
import hashlib
import hmac
import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx

from ..testing import JSON_CONTENT_TYPE, signed_headers
from .target import RawTarget
from .validation import Problem, body_problems, parse_json
from .verdicts import Skipped

__all__ = [
    "AGENT_ONLY",
    "CUSTOMER_SAFE",
    "DEFAULT_PROBE_QUERIES",
    "DEFAULT_TIMEOUT_S",
    "Exchange",
    "ProviderUnreachable",
    "SecretRefused",
    "Session",
    "encode",
    "v1",
]

CUSTOMER_SAFE = "customer_safe"
AGENT_ONLY = "agent_only"
#: Longer than the contract's 10 s (§4.2), so a slow answer is measured and reported
#: by the W6 check instead of vanishing as a transport error.
DEFAULT_TIMEOUT_S = 15.0
#: Tried in order when the operator names no ``--query``: common words of support
#: content. The first that finds public documents drives the checks that need results.
DEFAULT_PROBE_QUERIES = (
    "password", "account", "invoice", "payment", "login", "settings", "error", "help", "api", "how to",
)
NO_PROBE = "no probe query found a public document; pass --query with words your public documents contain"
#: The contract's default ``limit`` (§4.3).
DEFAULT_LIMIT = 10


def encode(value: Any) -> bytes:
    """Serialize a request body as compact UTF-8 JSON. Any serialization would do — the
    signature covers the bytes sent — but a compact one is what a re-serializing verifier
    would also produce, so ordinary requests do not trip that fault by accident; the A2
    raw-bytes check tests it on purpose."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


class ProviderUnreachable(Exception):
    """No HTTP answer at all from the provider's base URL (DNS, connection, TLS)."""


class SecretRefused(Exception):
    """A correctly signed ``GET /capabilities`` was answered ``401``: the secret given is
    not the registration's, or the provider's signature verification is broken. Either
    way every other check would fail for that one reason, so none is run."""


@dataclass
class Exchange:
    """One request the checker sent and the answer it got.

    Attributes:
        method, path: of the request (``path`` relative to the base URL).
        profile: ``"customer_safe"`` / ``"agent_only"`` when signed with that
            registration's secret; ``None`` for unsigned or wrongly signed requests.
        request_headers, request_body: exactly what was sent.
        status, headers, body: exactly what came back.
        elapsed_s: wall-clock seconds from sending to the full body.
        data: the parsed JSON body, or ``None`` when it is not JSON.
        problems: schema and envelope problems of the body, attributed to duties.
    """

    method: str
    path: str
    profile: str | None
    request_headers: dict[str, str]
    request_body: bytes
    status: int
    headers: httpx.Headers
    body: bytes
    elapsed_s: float
    data: Any
    problems: list[Problem] = field(default_factory=list)

    @property
    def error_code(self) -> str | None:
        """``error.code`` of an error envelope, if the body has one."""
        if isinstance(self.data, dict) and isinstance(self.data.get("error"), dict):
            code = self.data["error"].get("code")
            return code if isinstance(code, str) else None
        return None

    @property
    def results(self) -> list[dict[str, Any]]:
        """The result objects of a ``200`` answer to ``/retrieve`` (empty otherwise)."""
        if self.status != 200 or not self.path.endswith("/retrieve") or not isinstance(self.data, dict):
            return []
        results = self.data.get("results")
        if not isinstance(results, list):
            return []
        return [r for r in results if isinstance(r, dict)]

    @property
    def requested_limit(self) -> int | None:
        """The ``limit`` this request asked for (the default 10 when absent); ``None`` when
        the request body was not a JSON object with a valid limit."""
        value, error = parse_json(self.request_body)
        if error is not None or not isinstance(value, dict):
            return None
        limit = value.get("limit", DEFAULT_LIMIT)
        if isinstance(limit, bool) or not isinstance(limit, int):
            return None
        return limit

    def describe(self) -> str:
        """``"401 stale_timestamp"``, ``"200 with 3 results"``, ``"500"``."""
        if self.error_code:
            return f"{self.status} {self.error_code}"
        if self.status == 200 and self.path.endswith("/retrieve"):
            return f"200 with {len(self.results)} results"
        return str(self.status)


class Session:
    """Sends requests to one provider and records every exchange.

    Args:
        client: an ``httpx.Client`` whose ``base_url`` is the provider's base URL (or
            whose transport is an in-process app, see ``transport.py``).
        customer_safe_secret: the secret of the provider's ``customer_safe`` registration.
        agent_only_secret: the ``agent_only`` secret, if the provider has one; checks
            that need it SKIP without it.
        canary_queries: phrases the operator knows occur only in internal documents.
        draft_canary_queries: phrases the operator knows occur only in drafts and
            unpublished documents, which no registration may be served (X5).
        document_ids_file: where the documentIds of this run are recorded, or compared
            with those of an earlier run when the file exists (R2, ``stability.py``).
        probe_queries: queries known to find public documents (default: common words).
        clock: Unix seconds; the checker signs with this clock.
        fresh_client: makes a client on a new connection, for requests that must not
            reuse the kept-alive one (``send(..., fresh=True)``); default: ``client``.
        raw_target: where raw-socket checks connect (``framing.py``); ``None``
            in-process, where they are skipped.
        application_only: the provider is served without the reverse proxy of its
            deployment: checks of the proxy's duties are skipped, saying so.
    """

    def __init__(
        self,
        client: httpx.Client,
        *,
        fresh_client: Callable[[], httpx.Client] | None = None,
        raw_target: RawTarget | None = None,
        customer_safe_secret: str,
        agent_only_secret: str | None = None,
        canary_queries: Sequence[str] = (),
        draft_canary_queries: Sequence[str] = (),
        probe_queries: Sequence[str] = (),
        clock: Callable[[], float] = time.time,
        application_only: bool = False,
        document_ids_file: str | None = None,
    ) -> None:
        self.client = client
        self.application_only = application_only
        self.fresh_client = fresh_client
        self.raw_target = raw_target
        self.secrets: dict[str, str] = {CUSTOMER_SAFE: customer_safe_secret}
        if agent_only_secret:
            self.secrets[AGENT_ONLY] = agent_only_secret
        self.canary_queries = tuple(q for q in canary_queries if q.strip())
        self.draft_canary_queries = tuple(q for q in draft_canary_queries if q.strip())
        self.document_ids_file = document_ids_file
        self.probe_queries = tuple(q for q in probe_queries if q.strip()) + DEFAULT_PROBE_QUERIES
        self.clock = clock
        self.exchanges: list[Exchange] = []
        self._declared: frozenset[str] | None = None
        self._probe: str | None = None
        self._broad: tuple[str, int] | None = None
        self._skew_s: float | None = None
        self._skew_measured = False

    # -- secrets -----------------------------------------------------------------------

    @property
    def has_agent(self) -> bool:
        return AGENT_ONLY in self.secrets

    def secret(self, profile: str) -> str:
        """The secret of a registration.

        Raises:
            Skipped: ``agent_only`` was asked for and no agent-only secret was given.
        """
        if profile not in self.secrets:
            raise Skipped("needs the agent_only secret (--agent-only-secret)")
        return self.secrets[profile]

    def profiles(self) -> list[str]:
        """The registrations the checker can sign for, customer_safe first."""
        return [p for p in (CUSTOMER_SAFE, AGENT_ONLY) if p in self.secrets]

    def now(self) -> int:
        return int(self.clock())

    # -- sending -----------------------------------------------------------------------

    def send(
        self,
        method: str,
        path: str,
        *,
        body: bytes = b"",
        headers: Mapping[str, str] | None = None,
        profile: str | None = None,
        fresh: bool = False,
    ) -> Exchange:
        """Send one request exactly as given and record the answer.

        Args:
            fresh: on a new connection, closed after it (see ``fresh_client``).

        Raises:
            httpx.HTTPError: no answer (the running check fails with the reason).
        """
        sent = dict(headers or {})
        started = time.perf_counter()
        if fresh and self.fresh_client is not None:
            with self.fresh_client() as client:
                response = client.request(method, path, content=body, headers=sent)
        else:
            response = self.client.request(method, path, content=body, headers=sent)
        elapsed = time.perf_counter() - started
        self._measure_skew(response)
        data, _ = parse_json(response.content)
        exchange = Exchange(
            method=method,
            path=path,
            profile=profile,
            request_headers=sent,
            request_body=body,
            status=response.status_code,
            headers=response.headers,
            body=response.content,
            elapsed_s=elapsed,
            data=data,
            problems=body_problems(
                path=path, status=response.status_code,
                content_type=response.headers.get("content-type"), body=response.content,
            ),
        )
        self.exchanges.append(exchange)
        return exchange

    def signed(
        self,
        body: bytes,
        profile: str = CUSTOMER_SAFE,
        *,
        timestamp: int | None = None,
        nonce: str | None = None,
        content_type: str | None = JSON_CONTENT_TYPE,
    ) -> dict[str, str]:
        """Headers the core would send for ``body`` signed by ``profile`` (W2, A1, A2)."""
        return signed_headers(
            body, self.secret(profile), timestamp=self.now() if timestamp is None else timestamp,
            nonce=nonce, content_type=content_type,
        )

    def retrieve(self, payload: Any, profile: str = CUSTOMER_SAFE, *, fresh: bool = False, **sign: Any) -> Exchange:
        """``POST /retrieve`` with ``payload`` (a JSON value, or raw bytes), correctly signed.

        Args:
            payload: the body; a JSON value is serialized with :func:`encode`.
            profile: which registration signs it.
            fresh: on a new connection (:meth:`send`).
            sign: ``timestamp``, ``nonce`` or ``content_type`` overrides.
        """
        body = payload if isinstance(payload, bytes) else encode(payload)
        return self.send("POST", "/retrieve", body=body, headers=self.signed(body, profile, **sign), profile=profile,
                         fresh=fresh)

    def search(
        self, query: str, profile: str = CUSTOMER_SAFE, *, limit: int = 50, extra: Mapping[str, Any] | None = None,
        fresh: bool = False,
    ) -> Exchange:
        """A valid retrieval of ``query`` with ``limit`` and any ``extra`` body fields
        (``fresh``: on a new connection)."""
        return self.retrieve({"query": query, "limit": limit, **(extra or {})}, profile, fresh=fresh)

    def capabilities(self, profile: str = CUSTOMER_SAFE) -> Exchange:
        """``GET /capabilities``, correctly signed (C3)."""
        headers = self.signed(b"", profile, content_type=None)
        return self.send("GET", "/capabilities", headers=headers, profile=profile)

    # -- what the provider is ----------------------------------------------------------

    def declared(self) -> frozenset[str]:
        """The capabilities the provider declares on ``GET /capabilities`` (cached).

        Raises:
            Skipped: ``/capabilities`` did not answer a list of names.
        """
        if self._declared is None:
            exchange = self.capabilities()
            names = exchange.data.get("capabilities") if isinstance(exchange.data, dict) else None
            if exchange.status != 200 or not isinstance(names, list):
                raise Skipped(f"cannot read the declared capabilities: GET /capabilities answered "
                              f"{exchange.describe()}")
            self._declared = frozenset(n for n in names if isinstance(n, str))
        return self._declared

    def probe_query(self) -> str:
        """A query that finds at least one document for ``customer_safe`` (cached).

        Raises:
            Skipped: none of the probe queries finds anything.
        """
        if self._probe is None:
            for query in self.probe_queries:
                if self.search(query).results:
                    self._probe = query
                    break
            else:
                raise Skipped(NO_PROBE)
        return self._probe

    def broad_query(self, wanted: int) -> tuple[str, int]:
        """The probe query with the most ``customer_safe`` results at ``limit`` 50, trying
        until one has ``wanted`` results (cached). Returns ``(query, result count)``.

        Raises:
            Skipped: no probe query finds anything.
        """
        if self._broad is None or self._broad[1] < wanted:
            best: tuple[str, int] = ("", 0)
            candidates = [*self.probe_queries, " ".join(self.probe_queries)]
            for query in candidates:
                count = len(self.search(query).results)
                if count > best[1]:
                    best = (query, count)
                if count >= wanted:
                    break
            if best[1] == 0:
                raise Skipped(NO_PROBE)
            self._broad = best
        return self._broad

    def clock_skew_s(self) -> float | None:
        """Provider clock minus checker clock, from the first ``Date`` header seen, in
        whole seconds; ``None`` when the provider sends no ``Date``."""
        return self._skew_s

    def _measure_skew(self, response: httpx.Response) -> None:
        if self._skew_measured:
            return
        self._skew_measured = True
        value = response.headers.get("date")
        if not value:
            return
        try:
            provider_time = email.utils.parsedate_to_datetime(value).timestamp()
        except (TypeError, ValueError):
            return
        self._skew_s = round(provider_time - self.clock())


def v1(secret: str, timestamp: int | str, nonce: str, body: bytes) -> str:
    """``hex(HMAC-SHA256(secret, t + "." + n + "." + body))`` (CONTRACT A2), computed here
    rather than borrowed, so a fault in the provider's own signing code cannot hide."""
    message = f"{timestamp}.{nonce}.".encode() + body
    return hmac.new(secret.encode("utf-8"), message, hashlib.sha256).hexdigest()
