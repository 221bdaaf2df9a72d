"""A reusable contract test kit: run the conformance checks against your backend, in your
own pytest suite (issue 7; contract §8.2).

Subclass :class:`ContractTestKit` (the subclass's name must start with ``Test``), say
how to build your backend, and pytest runs every conformance check against
``create_app(your backend, settings)`` in-process — no server, no socket — as one test
per check, named by its CONTRACT.md id::

    from provider.contract.testkit import ContractTestKit

    class TestMyAdapter(ContractTestKit):
        canary_queries = ("refund exception ledger",)  # phrases only internal documents contain

        def make_backend(self):
            return MyBackend(public_space="HELP", internal_space="SUPPORT")

A check that fails fails its test with the checker's reason; a check that cannot be
judged (say, the exposure checks without ``canary_queries``) is skipped with the reason.
The checks are the same ones ``knowledge-provider conformance URL`` runs against a
deployment, so run that too once your adapter is deployed: this kit proves your backend
and the contract layer agree, not that your deployment is wired correctly.

Needs pytest, httpx and jsonschema (and Litestar, through ``create_app``).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import ClassVar

import pytest

from provider.conformance import CHECKS, Report, Status, check_asgi_app

from .backend import Backend
from .capabilities import MINIMUM
from .registrations import Exposure, Registration
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
        probe_queries: queries known to find public documents (default: common support
            words such as "password" and "invoice").
        serve_agent_only: whether the adapter has an ``agent_only`` registration. Set
            ``False`` for a customer-safe-only adapter; checks that need it are skipped.
    """

    capabilities: ClassVar[frozenset[str]] = MINIMUM
    canary_queries: ClassVar[Sequence[str]] = ()
    probe_queries: ClassVar[Sequence[str]] = ()
    serve_agent_only: ClassVar[bool] = True

    def make_backend(self) -> Backend:
        """Return the backend under test. Override this, or the ``contract_backend``
        fixture when building it needs other fixtures (``tmp_path_factory``…).

        Raises:
            NotImplementedError: not overridden.
        """
        raise NotImplementedError(f"{type(self).__name__} must override make_backend() or contract_backend")

    def make_settings(self, registrations: Sequence[Registration]) -> ContractSettings:
        """The settings ``create_app`` gets; override to change limits or the replay store."""
        return ContractSettings(registrations=list(registrations), capabilities=frozenset(self.capabilities))

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
    def conformance_report(cls, contract_backend: Backend) -> Report:
        """Every check, run once per test class against ``create_app(contract_backend)``."""
        from .app import create_app  # Litestar only now (see provider.contract)

        customer, agent = secrets.token_urlsafe(48), secrets.token_urlsafe(48)
        registrations = [Registration.from_values("customer-safe", Exposure.CUSTOMER_SAFE, [customer])]
        if cls.serve_agent_only:
            registrations.append(Registration.from_values("agent-only", Exposure.AGENT_ONLY, [agent]))
        app = create_app(contract_backend, cls().make_settings(registrations))
        return check_asgi_app(
            app,
            customer_safe_secret=customer,
            agent_only_secret=agent if cls.serve_agent_only else None,
            canary_queries=tuple(cls.canary_queries),
            probe_queries=tuple(cls.probe_queries),
        )

    @pytest.mark.parametrize("check_key", [check.key for check in CHECKS])
    def test_contract(self, conformance_report: Report, check_key: str) -> None:
        """One conformance check: passes, fails with its reason, or is skipped with it."""
        outcome = conformance_report.outcome(check_key)
        message = f"{outcome.id} {outcome.name}: {outcome.reason}"
        if outcome.status is Status.SKIP:
            pytest.skip(message)
        if outcome.status is Status.FAIL:
            pytest.fail(message, pytrace=False)
