"""Build and serve the adapter: ``python -m json_adapter``.

Configuration comes from the environment (secrets never from files in the repository):

=====================================  ==================================================
``JSON_ADAPTER_PUBLIC``                path of public.json (required)
``JSON_ADAPTER_INTERNAL``              path of internal.json; leave unset in a
                                       customer-safe-only deployment
``JSON_ADAPTER_CUSTOMER_SAFE_SECRET``  secret(s) of the customer_safe registration, comma-separated
``JSON_ADAPTER_AGENT_ONLY_SECRET``     secret(s) of the agent_only registration (optional)
``JSON_ADAPTER_CAPABILITIES``          ``retrieve`` (default) or ``retrieve,citationUrl``
``JSON_ADAPTER_HOST``/``_PORT``        where to listen (default 127.0.0.1:8090)
``JSON_ADAPTER_WORKERS``               serving processes (default 1)
``JSON_ADAPTER_REPLAY_STORE``          ``sqlite:///path`` or ``redis://…``: required with
                                       more than one worker (one shared replay store)
``KNOWLEDGE_PROVIDER_STRICT``          ``1`` in staging: a backend fault the contract layer
                                       would repair silently is answered ``500`` naming the
                                       duty, so ``conformance`` sees it (default ``0``)
=====================================  ==================================================
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

from .backend import JsonBackend

__all__ = ["app_from_environment", "build_app", "main"]


def build_app(
    public: Path,
    internal: Path | None = None,
    *,
    customer_safe_secrets: Sequence[str],
    agent_only_secrets: Sequence[str] = (),
    capabilities: str = "retrieve",
    strict: bool = False,
) -> ASGIApp:
    """The adapter's ASGI app; ``strict``: refuse (``500`` naming the duty) an answer the
    contract layer would have to repair, instead of repairing it (staging).

    Raises:
        ConfigurationError: weak or shared secrets (from the contract layer).
        ValueError: an unknown or unimplemented capability.
    """
    backend = JsonBackend(public, internal)
    registrations = [Registration.from_values("customer-safe", Exposure.CUSTOMER_SAFE, customer_safe_secrets)]
    if any(s.strip() for s in agent_only_secrets):
        registrations.append(Registration.from_values("agent-only", Exposure.AGENT_ONLY, agent_only_secrets))
    declared = parse_capabilities(capabilities, implemented=backend.implemented_capabilities)
    return create_app(backend, ContractSettings(registrations=registrations, capabilities=declared, strict=strict))


def app_from_environment(environ: Mapping[str, str] = os.environ) -> ASGIApp:
    """The app configured from ``environ`` (the variables above): the factory each
    worker process of ``serve`` calls.

    Raises:
        ConfigurationError: weak or shared secrets, or a per-process replay store with
            several workers.
        ValueError: a missing JSON_ADAPTER_PUBLIC, or an unknown capability.
    """

    def secrets(name: str) -> list[str]:
        return [s for s in environ.get(name, "").split(",") if s.strip()]

    if not environ.get("JSON_ADAPTER_PUBLIC"):
        raise ValueError("set JSON_ADAPTER_PUBLIC to the path of public.json")
    internal = environ.get("JSON_ADAPTER_INTERNAL")
    return build_app(
        Path(environ["JSON_ADAPTER_PUBLIC"]),
        Path(internal) if internal else None,
        customer_safe_secrets=secrets("JSON_ADAPTER_CUSTOMER_SAFE_SECRET"),
        agent_only_secrets=secrets("JSON_ADAPTER_AGENT_ONLY_SECRET"),
        capabilities=environ.get("JSON_ADAPTER_CAPABILITIES", "retrieve"),
        strict=strict_from_environment(environ),
    )


def main(environ: Mapping[str, str] = os.environ) -> None:
    """Serve with stock uvicorn through the contract layer's serve() (``helpthread_kit.serving``),
    configured from ``environ``; exits 2 with a message on bad settings."""
    workers = int(environ.get("JSON_ADAPTER_WORKERS", "1"))
    replay_store = environ.get("JSON_ADAPTER_REPLAY_STORE")
    try:
        # Built once here even with several workers: bad settings fail before any worker starts.
        app = app_from_environment(environ)
        serve(
            app if workers == 1 else "json_adapter.app:app_from_environment",
            workers=workers,
            replay_store=replay_store,
            host=environ.get("JSON_ADAPTER_HOST", "127.0.0.1"),
            port=int(environ.get("JSON_ADAPTER_PORT", "8090")),
        )
    except (ConfigurationError, ValueError) as exc:
        print(f"json_adapter: {exc}", file=sys.stderr)
        sys.exit(2)
    except WorkerStartFailed:
        sys.exit(1)  # serve() logged the worker's error once and stopped every worker
