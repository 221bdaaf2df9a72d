"""Build and serve the adapter: ``python -m sqlite_adapter``.

=======================================  ================================================
``SQLITE_ADAPTER_DATABASE``              path of the SQLite database (required)
``SQLITE_ADAPTER_CUSTOMER_SAFE_SECRET``  secret(s) of the customer_safe registration
``SQLITE_ADAPTER_AGENT_ONLY_SECRET``     secret(s) of the agent_only registration (optional)
``SQLITE_ADAPTER_CAPABILITIES``          ``retrieve`` (default) or ``retrieve,citationUrl``
``SQLITE_ADAPTER_HOST``/``_PORT``        where to listen (default 127.0.0.1:8091)
``SQLITE_ADAPTER_WORKERS``               serving processes (default 1)
``SQLITE_ADAPTER_REPLAY_STORE``          ``sqlite:///path`` or ``redis://…``: required with
                                         more than one worker
``KNOWLEDGE_PROVIDER_STRICT``            ``1`` in staging: a backend fault the contract layer
                                         would repair silently is answered ``500`` naming
                                         the duty, so ``conformance`` sees it (default ``0``)
=======================================  ================================================
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from helpthread_kit import (
    ConfigurationError,
    ContractSettings,
    Exposure,
    Registration,
    create_app,
    parse_capabilities,
    strict_from_environment,
)
from helpthread_kit.app import ASGIApp
from helpthread_kit.serving import WorkerStartFailed, serve

from .backend import SQLiteBackend

__all__ = ["app_from_environment", "build_app", "main"]


def build_app(
    database: Path,
    *,
    customer_safe_secrets: Sequence[str],
    agent_only_secrets: Sequence[str] = (),
    capabilities: str = "retrieve",
    strict: bool = False,
) -> ASGIApp:
    """The adapter's ASGI app; ``strict``: refuse (``500`` naming the duty) an answer the
    contract layer would have to repair, instead of repairing it (staging).

    Raises:
        ConfigurationError: weak or shared secrets, or a per-process replay store with
            several workers (from the contract layer).
        ValueError: an unknown or unimplemented capability.
    """
    backend = SQLiteBackend(database)
    registrations = [Registration.from_values("customer-safe", Exposure.CUSTOMER_SAFE, customer_safe_secrets)]
    if any(s.strip() for s in agent_only_secrets):
        registrations.append(Registration.from_values("agent-only", Exposure.AGENT_ONLY, agent_only_secrets))
    declared = parse_capabilities(capabilities, implemented=backend.implemented_capabilities)
    return create_app(backend, ContractSettings(registrations=registrations, capabilities=declared, strict=strict))


def app_from_environment(environ: Mapping[str, str] = os.environ) -> ASGIApp:
    """The app configured from ``environ``: the factory each worker calls.

    Raises:
        ConfigurationError, ValueError: see :func:`build_app`; or no database set.
    """

    def secrets(name: str) -> list[str]:
        return [s for s in environ.get(name, "").split(",") if s.strip()]

    if not environ.get("SQLITE_ADAPTER_DATABASE"):
        raise ValueError("set SQLITE_ADAPTER_DATABASE to the path of the article database")
    return build_app(Path(environ["SQLITE_ADAPTER_DATABASE"]),
                     customer_safe_secrets=secrets("SQLITE_ADAPTER_CUSTOMER_SAFE_SECRET"),
                     agent_only_secrets=secrets("SQLITE_ADAPTER_AGENT_ONLY_SECRET"),
                     capabilities=environ.get("SQLITE_ADAPTER_CAPABILITIES", "retrieve"),
                     strict=strict_from_environment(environ))


def main(environ: Mapping[str, str] = os.environ) -> None:
    """Serve with stock uvicorn through the contract layer's serve(); exits 2 on bad settings."""
    workers = int(environ.get("SQLITE_ADAPTER_WORKERS", "1"))
    try:
        app = app_from_environment(environ)  # bad settings fail here, before any worker starts
        serve(app if workers == 1 else "sqlite_adapter.app:app_from_environment", workers=workers,
              replay_store=environ.get("SQLITE_ADAPTER_REPLAY_STORE"),
              host=environ.get("SQLITE_ADAPTER_HOST", "127.0.0.1"),
              port=int(environ.get("SQLITE_ADAPTER_PORT", "8091")))
    except (ConfigurationError, ValueError) as exc:
        print(f"sqlite_adapter: {exc}", file=sys.stderr)
        sys.exit(2)
    except WorkerStartFailed:
        sys.exit(1)  # serve() logged the worker's error once and stopped every worker
