"""A body met again is not parsed again (``ContractRoutes._query_of``): whatever the
order of requests, every one reaches the backend as the query a fresh parse of its
own body gives for its own registration (X4, X8, Q1–Q6), and a refused body is
refused again."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import httpx
from hypothesis import given, settings
from hypothesis import strategies as st

from helpthread_kit import (
    ContractSettings,
    Exposure,
    MemoryReplayStore,
    Registration,
    Result,
    SearchQuery,
    create_app,
)
from helpthread_kit.capabilities import LOCALE, LOCALE_FALLBACK, RETRIEVE
from helpthread_kit.errors import InvalidRequest
from helpthread_kit.request import parse_retrieve_request
from helpthread_kit.testing import signed_headers

CS = "customer-safe-secret-0123456789-abcdefgh"
AO = "agent-only-secret-0123456789-abcdefghijk"
SECRETS = {Exposure.CUSTOMER_SAFE: CS, Exposure.AGENT_ONLY: AO}
REGISTRATIONS = [
    Registration.from_values("customer_safe", Exposure.CUSTOMER_SAFE, [CS]),
    Registration.from_values("agent_only", Exposure.AGENT_ONLY, [AO]),
]
CAPABILITIES = frozenset({RETRIEVE, LOCALE, LOCALE_FALLBACK})
#: A small pool, so that sequences repeat bodies under both exposures.
BODIES = [
    b'{"query": "reset password"}',
    b'{"query": "reset password", "limit": 3}',
    b'{"query": "reset password", "locale": "de-at", "localeFallback": true}',
    b'{"query": "refund", "context": {"conversationId": "c-1"}}',
    b'{"query": "refund", "audience": "internal"}',
    b'{"query": "  "}',
    b'{"query": "x", "limit": 0}',
    b'{"query": "x", "query": "y"}',
    b'[1, 2]',
]


class RecordingBackend:
    implemented_capabilities: frozenset[str] = frozenset({LOCALE, LOCALE_FALLBACK})

    def __init__(self) -> None:
        self.queries: list[SearchQuery] = []

    def is_ready(self) -> bool:
        return True

    def search(self, query: SearchQuery) -> Sequence[Result]:
        self.queries.append(query)
        return []


def _expected(body: bytes, exposure: Exposure) -> SearchQuery | str:
    """What a fresh parse makes of ``body`` for ``exposure``: the query, or the refusal's
    message (which names the field)."""
    try:
        parsed = parse_retrieve_request(body, exposure=exposure, capabilities=CAPABILITIES)
    except InvalidRequest as exc:
        return exc.message
    return SearchQuery(text=parsed.query, limit=parsed.limit, reach=exposure, capabilities=CAPABILITIES,
                       locale=parsed.locale, locale_fallback=parsed.locale_fallback)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(list(Exposure)), st.sampled_from(BODIES)), min_size=1, max_size=12))
def test_a_repeated_body_reaches_the_backend_as_its_own_parse_for_its_own_exposure(
    requests: list[tuple[Exposure, bytes]],
) -> None:
    backend = RecordingBackend()
    app = create_app(backend, ContractSettings(registrations=REGISTRATIONS, replay_store=MemoryReplayStore(),
                                               capabilities=CAPABILITIES))

    async def scenario() -> list[tuple[int, object]]:
        seen: list[tuple[int, object]] = []
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app)) as client:
            for exposure, body in requests:
                reply = await client.post("http://provider/retrieve", content=body,
                                          headers=signed_headers(body, SECRETS[exposure]))
                if reply.status_code == 200:
                    seen.append((200, backend.queries[-1]))
                else:
                    seen.append((reply.status_code, reply.json()["error"]["message"]))
        return seen

    answers = asyncio.run(scenario())
    for (exposure, body), (status, got) in zip(requests, answers, strict=True):
        expected = _expected(body, exposure)
        if isinstance(expected, str):
            assert (status, got) == (400, expected)
        else:
            assert status == 200 and got == expected
            assert got.reach is exposure  # never the reach of whoever sent the body first


def test_x8_the_same_body_signed_by_customer_safe_after_agent_only_keeps_customer_reach() -> None:
    body = b'{"query": "refund", "context": {"conversationId": "c-1"}}'
    backend = RecordingBackend()
    app = create_app(backend, ContractSettings(registrations=REGISTRATIONS, replay_store=MemoryReplayStore()))

    async def scenario() -> None:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app)) as client:
            for secret in (AO, CS, AO):
                reply = await client.post("http://provider/retrieve", content=body,
                                          headers=signed_headers(body, secret))
                assert reply.status_code == 200

    asyncio.run(scenario())
    assert [q.reach for q in backend.queries] == [Exposure.AGENT_ONLY, Exposure.CUSTOMER_SAFE, Exposure.AGENT_ONLY]
