"""The provider side of Knowledge Provider Interface v1, independent of any backend.

This package imports nothing from Whoosh, markdown-it-py or watchfiles, nor from the
wiki and search code of this repository, and works in an environment where none of them
is installed (tests check both); it is built on Litestar (which brings PyYAML and
msgspec). An adapter author can depend on it —
``kit/pyproject.toml`` makes it a distribution of its own, ``helpthread-kit``, which the
reference provider depends on too (docs/adapter.md) — and supply only a :class:`Backend`::

    from helpthread_kit import ContractSettings, Registration, Exposure, create_app
    from helpthread_kit.serving import serve
    serve(create_app(MyBackend(), ContractSettings(registrations=[...])))

or mount :class:`ContractPlugin` in their own Litestar application, beside their own
routes: ``Litestar(route_handlers=[...], plugins=[ContractPlugin(MyBackend(), settings)])``.

What the package holds: signature verification and replay stores, request parsing,
result rendering, errors, capabilities, schemas, the Litestar application and plugin
(:func:`create_app`, :class:`ContractPlugin`), serving it with stock uvicorn on one or
several worker processes (:mod:`~helpthread_kit.serving`), the signing
helper (:mod:`~helpthread_kit.testing`), the black-box conformance checker
(:mod:`~helpthread_kit.conformance`) and the test kit
(:mod:`~helpthread_kit.testkit`).
"""

from typing import TYPE_CHECKING, Any

from .backend import Backend, CachedAnswers, SearchQuery
from .capabilities import ALL_CAPABILITIES, MINIMUM, OPTIONAL_CAPABILITIES, parse_capabilities
from .errors import (
    AuthenticationError,
    BackendFault,
    ContractError,
    IndexUnavailable,
    InvalidRequest,
    InvalidSignature,
    MalformedSignature,
    MissingSignature,
    Overloaded,
    PayloadTooLarge,
    ReplayedNonce,
    ReplayStoreUnavailable,
    StaleTimestamp,
    Unavailable,
    UnsupportedMediaType,
    UnsupportedVersion,
)
from .records import RequestRecord
from .registrations import ConfigurationError, Exposure, Registration, Secret, check_registrations
from .replay import MemoryReplayStore, ReplayStore
from .request import RetrieveRequest, parse_retrieve_request
from .results import INTERNAL, PUBLIC, SNIPPET_MAX_CHARS, Repair, Result, render_results
from .schemas import load_schema
from .settings import STRICT_ENV, ContractSettings, strict_from_environment
from .signature import Verifier, compute_signature, parse_signature_header

if TYPE_CHECKING:
    from .app import ContractPlugin, contract_router, create_app

#: Names imported from :mod:`~helpthread_kit.app` when first used: it imports Litestar,
#: which a process that only parses files or checks signatures (a reader process of the
#: reference provider, a CLI command) never needs.
_FROM_APP = frozenset({"ContractPlugin", "contract_router", "create_app"})


def __getattr__(name: str) -> Any:
    if name in _FROM_APP:
        from . import app

        return getattr(app, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "ALL_CAPABILITIES",
    "INTERNAL",
    "MINIMUM",
    "OPTIONAL_CAPABILITIES",
    "PUBLIC",
    "SNIPPET_MAX_CHARS",
    "STRICT_ENV",
    "AuthenticationError",
    "Backend",
    "BackendFault",
    "CachedAnswers",
    "ConfigurationError",
    "ContractError",
    "ContractPlugin",
    "ContractSettings",
    "Exposure",
    "IndexUnavailable",
    "InvalidRequest",
    "InvalidSignature",
    "MalformedSignature",
    "MemoryReplayStore",
    "MissingSignature",
    "Overloaded",
    "PayloadTooLarge",
    "Registration",
    "Repair",
    "ReplayStore",
    "ReplayStoreUnavailable",
    "ReplayedNonce",
    "RequestRecord",
    "Result",
    "RetrieveRequest",
    "SearchQuery",
    "Secret",
    "StaleTimestamp",
    "Unavailable",
    "UnsupportedMediaType",
    "UnsupportedVersion",
    "Verifier",
    "check_registrations",
    "compute_signature",
    "contract_router",
    "create_app",
    "load_schema",
    "parse_capabilities",
    "parse_retrieve_request",
    "parse_signature_header",
    "render_results",
    "strict_from_environment",
]
