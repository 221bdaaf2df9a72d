"""A reusable contract test kit: run the conformance checks against your backend, in your
own pytest suite (issue 7; contract §8.2).

Subclass :class:`ContractTestKit` (the subclass's name must start with ``Test``), say
how to build your backend, and pytest runs every conformance check against
``create_app(your backend, settings)`` in-process — no server, no socket — as one test
per check, named by its CONTRACT.md id::

    from helpthread_kit.testkit import ContractTestKit

    class TestMyAdapter(ContractTestKit):
        canary_queries = ("refund exception ledger",)  # phrases only internal documents contain

        def make_backend(self):
            return MyBackend(public_space="HELP", internal_space="SUPPORT")

A check that fails fails its test with the checker's reason; a check that cannot be
judged (say, the exposure checks without ``canary_queries``) is skipped with the reason.

Two more things the kit does that a black-box run cannot:

* **Strict** (``strict = True``, the default): the contract layer does not repair what
  a backend got wrong — a non-public result for ``customer_safe``, a field of an
  undeclared capability, more results than ``limit``, a result in another language
  than the declared ``locale`` asked for… — it refuses the answer
  (:class:`~helpthread_kit.errors.BackendFault`), and ``test_backend_needs_no_repairs``
  fails naming each duty broken. In production the same repairs are made, logged and
  counted; here they are bugs.
* **Workers** (``workers = 2`` if you deploy with several): the kit builds one app per
  worker, each from its own ``make_settings()`` and its own ``make_backend()`` (as each
  worker process opens its own index), and sends each request to the next, as fresh
  connections reach any worker. A per-process replay store then lets a replay through
  (A5 fails); a shared one (SQLite, Redis) passes; a ``documentId`` that differs per
  worker fails R2.
* **Rebuilds**: ``test_document_ids_survive_a_rebuild`` builds the backend a second time
  and asks both the same questions: every title must keep its ``documentId`` (R2).
* **Drafts** (``draft_canary_queries``): phrases only drafts and unpublished documents
  contain; no registration may be served them (X5).
* **Deadline**: ``test_a_search_past_its_deadline_is_answered_503`` requires
  ``make_settings()`` to give searches a deadline below the core's 10 s, then makes the
  backend slower than a short one: the answer must be ``503`` with ``Retry-After`` (W7).
The checks are the same ones ``knowledge-provider conformance URL`` runs against a
deployment, so run that too once your adapter is deployed: this kit proves your backend
and the contract layer agree, not that your deployment is wired correctly.

Needs pytest, httpx and jsonschema (the ``kit`` extra of the contract distribution).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Sequence
from typing import ClassVar

import httpx
import pytest

from .backend import Backend, SearchQuery
from .capabilities import MINIMUM
from .conformance import CHECKS, Report, Status, check_asgi_app
from .conformance.session import DEFAULT_PROBE_QUERIES
from .conformance.stability import IDS_ACROSS_RUNS
from .records import RequestRecord
from .registrations import Exposure, Registration
from .results import Result
from .settings import ContractSettings

__all__ = ["ContractTestKit"]


class ContractTestKit:
    """Base class of an adapter's conformance tests.

    Attributes:
        capabilities: what the adapter declares (default: the minimum set, C2). Result
            fields of undeclared capabilities must be absent (R4); the checks read them
            from ``GET /capabilities`` like any client.
        canary_queries: phrases that occur in internal documents and in no public one;
            they drive the exposure checks X2–X4. Without them those checks are skipped.
        draft_canary_queries: phrases that occur only in drafts and unpublished
            documents (X5). Without them that check is skipped.
        probe_queries: queries known to find public documents (default: common support
            words such as "password" and "invoice").
        serve_agent_only: whether the adapter has an ``agent_only`` registration. Set
            ``False`` for a customer-safe-only adapter; checks that need it are skipped.
        strict: refuse instead of repair (module docstring); default ``True``.
        workers: how many worker processes to simulate (module docstring); default 1.
    """

    capabilities: ClassVar[frozenset[str]] = MINIMUM
    canary_queries: ClassVar[Sequence[str]] = ()
    draft_canary_queries: ClassVar[Sequence[str]] = ()
    probe_queries: ClassVar[Sequence[str]] = ()
    serve_agent_only: ClassVar[bool] = True
    strict: ClassVar[bool] = True
    workers: ClassVar[int] = 1

    def make_backend(self) -> Backend:
        """Return the backend under test. Override this, or the ``contract_backend``
        fixture when building it needs other fixtures (``tmp_path_factory``…).

        Raises:
            NotImplementedError: not overridden.
        """
        raise NotImplementedError(f"{type(self).__name__} must override make_backend() or contract_backend")

    def make_settings(self, registrations: Sequence[Registration]) -> ContractSettings:
        """The settings ``create_app`` gets, called once per simulated worker; override to
        change limits or the replay store (keep ``strict=self.strict``)."""
        return ContractSettings(registrations=list(registrations), capabilities=frozenset(self.capabilities),
                                strict=self.strict)

    # Class-scoped fixtures are classmethods (pytest runs them once per class, outside
    # any test instance); the hooks above are called on a fresh instance for the author's
    # convenience — test classes have no __init__, so nothing is lost.

    @pytest.fixture(scope="class")
    @classmethod
    def contract_backend(cls) -> Backend:
        """The backend under test, built once per test class."""
        return cls().make_backend()

    @pytest.fixture(scope="class")
    @classmethod
    def repairs_seen(cls) -> dict[str, int]:
        """CONTRACT id -> answers the contract layer had to repair (or refused, strict)."""
        return {}

    @pytest.fixture(scope="class")
    @classmethod
    def conformance_report(cls, contract_backend: Backend, repairs_seen: dict[str, int]) -> Report:
        """Every check, run once per test class against ``create_app(contract_backend)``
        (one app per simulated worker)."""
        from .app import create_app

        customer, agent = secrets.token_urlsafe(48), secrets.token_urlsafe(48)
        registrations = [Registration.from_values("customer-safe", Exposure.CUSTOMER_SAFE, [customer])]
        if cls.serve_agent_only:
            registrations.append(Registration.from_values("agent-only", Exposure.AGENT_ONLY, [agent]))

        def count(record: RequestRecord) -> None:
            for duty in record.repairs:
                repairs_seen[duty] = repairs_seen.get(duty, 0) + 1

        apps = []
        for worker in range(max(1, cls.workers)):
            settings = cls().make_settings(registrations)
            backend = contract_backend if worker == 0 else _another_build(cls) or contract_backend
            author_observer = settings.observer

            def observer(record: RequestRecord, author: object = author_observer) -> None:
                count(record)
                if callable(author):
                    author(record)

            settings.observer = observer
            apps.append(create_app(backend, settings))
        return check_asgi_app(
            apps if len(apps) > 1 else apps[0],
            customer_safe_secret=customer,
            agent_only_secret=agent if cls.serve_agent_only else None,
            canary_queries=tuple(cls.canary_queries),
            draft_canary_queries=tuple(cls.draft_canary_queries),
            probe_queries=tuple(cls.probe_queries),
            strict_deployment=cls.strict,
        )

    # Two runs around a restart cannot happen in one in-process run: the rebuild test
    # below does that check's work.
    @pytest.mark.parametrize("check_key", [check.key for check in CHECKS if check.key != IDS_ACROSS_RUNS])
    def test_contract(self, conformance_report: Report, check_key: str) -> None:
        """One conformance check: passes, fails with its reason, or is skipped with it."""
        outcome = conformance_report.outcome(check_key)
        message = f"{outcome.id} {outcome.name}: {outcome.reason}"
        if outcome.status is Status.SKIP:
            pytest.skip(message)
        if outcome.status is Status.FAIL:
            pytest.fail(message, pytrace=False)

    def test_backend_needs_no_repairs(self, conformance_report: Report, repairs_seen: dict[str, int]) -> None:
        """No answer of the whole run needed the contract layer to fix the backend's
        results (``results.render_results`` lists what it fixes). Strict or not."""
        if repairs_seen:
            named = ", ".join(f"{duty} ({count} answers)" for duty, count in sorted(repairs_seen.items()))
            pytest.fail(f"the backend broke {named}: the contract layer had to repair its results "
                        f"({'refused in strict mode' if self.strict else 'repaired'}); see the log lines "
                        "'backend fault (…)'", pytrace=False)

    def test_document_ids_survive_a_rebuild(self, contract_backend: Backend) -> None:
        """R2: a second build of the backend (a re-index, a restart) gives every title the
        same ``documentId`` for the probe and canary queries, for every reach."""
        rebuilt = _another_build(type(self))
        if rebuilt is None:
            pytest.skip("make_backend() is not overridden (the backend comes from the contract_backend fixture): "
                        "cannot build it a second time")
        queries = [*self.probe_queries, *DEFAULT_PROBE_QUERIES, *self.canary_queries]
        changed: list[str] = []
        for query_text in queries:
            for reach in (Exposure.CUSTOMER_SAFE, Exposure.AGENT_ONLY):
                query = SearchQuery(text=query_text, limit=50, reach=reach, capabilities=frozenset(self.capabilities))
                try:
                    before = {r.title: r.document_id for r in contract_backend.search(query)}
                    after = rebuilt.search(query)
                except Exception:  # noqa: S112 - a search that raises fails R1 in test_contract
                    continue
                for result in after:
                    if before.get(result.title, result.document_id) != result.document_id:
                        changed.append(f"{result.title[:60]!r}: {before[result.title]!r} -> {result.document_id!r}")
        if changed:
            shown = "; ".join(list(dict.fromkeys(changed))[:3])
            pytest.fail(f"R2: documentId changed when the backend was built again ({len(set(changed))} titles), "
                        f"e.g. {shown}", pytrace=False)

    def test_a_search_past_its_deadline_is_answered_503(self, contract_backend: Backend) -> None:
        """W7: the settings give searches a deadline below the core's 10 s timeout, and a
        search that overruns it (the backend made slow here) is answered ``503
        overloaded`` with ``Retry-After``."""
        from .app import create_app
        from .conformance.transport import InProcessTransport
        from .testing import signed_headers

        secret = secrets.token_urlsafe(48)
        settings = self.make_settings([Registration.from_values("customer-safe", Exposure.CUSTOMER_SAFE, [secret])])
        deadline_s = settings.search_deadline_s
        if deadline_s is None or deadline_s >= CORE_TIMEOUT_S:
            pytest.fail(f"W7: search_deadline_s is {deadline_s}: a hanging upstream would hold the core until its "
                        f"{CORE_TIMEOUT_S:.0f} s timeout; set ContractSettings.search_deadline_s below it",
                        pytrace=False)
        settings.search_deadline_s = SLOW_DEADLINE_S
        app = create_app(_Slow(contract_backend, SLOW_DEADLINE_S * 4), settings)
        body = b'{"query":"password"}'
        with httpx.Client(transport=InProcessTransport(app), base_url="http://provider.invalid") as client:
            response = client.post("/retrieve", content=body, headers=signed_headers(body, secret))
        if response.status_code != 503 or not response.headers.get("retry-after"):
            pytest.fail(f"W7: a search slower than its deadline was answered {response.status_code} "
                        f"(Retry-After: {response.headers.get('retry-after')!r}), expected 503 with Retry-After",
                        pytrace=False)


#: The core gives up on a provider after this many seconds (contract §4.2).
CORE_TIMEOUT_S = 10.0
#: The deadline the kit gives a search it makes slow on purpose, in seconds.
SLOW_DEADLINE_S = 0.05


class _Slow:
    """``backend`` with every search ``delay_s`` seconds slower (an upstream that hangs)."""

    def __init__(self, backend: Backend, delay_s: float) -> None:
        self._backend = backend
        self._delay_s = delay_s
        self.implemented_capabilities = backend.implemented_capabilities

    def is_ready(self) -> bool:
        return self._backend.is_ready()

    def search(self, query: SearchQuery) -> Sequence[Result]:
        time.sleep(self._delay_s)
        return self._backend.search(query)


def _another_build(kit: type[ContractTestKit]) -> Backend | None:
    """A new backend from ``make_backend()``; ``None`` when the kit builds it another way."""
    if getattr(kit.make_backend, "__func__", kit.make_backend) is ContractTestKit.make_backend:
        return None
    return kit().make_backend()
