"""The provider side of Knowledge Provider Interface v1, independent of any backend.

This package imports nothing from Whoosh, markdown-it-py or YAML, and works in an
environment where none of them is installed (tests check both), so an adapter author
can copy it — or depend on it — and supply only a :class:`Backend`::

    from provider.contract import ContractSettings, Registration, Exposure, create_app
    app = create_app(MyBackend(), ContractSettings(registrations=[...]))

:func:`create_app` is the one piece that needs an HTTP framework: it builds a Litestar
application, and Litestar itself imports PyYAML. It is therefore imported lazily, on
first use, so that ``import provider.contract`` and every other piece — signature
verification, replay stores, request parsing, result rendering, errors, capabilities,
schemas, the ``testing`` helper and the ``Backend`` interface — never load Litestar.
"""

from typing import TYPE_CHECKING

from .backend import Backend, SearchQuery
from .capabilities import ALL_CAPABILITIES, MINIMUM, OPTIONAL_CAPABILITIES, parse_capabilities
from .errors import (
    AuthenticationError,
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
from .results import INTERNAL, PUBLIC, SNIPPET_MAX_CHARS, Result, render_results
from .schemas import load_schema
from .settings import ContractSettings
from .signature import Verifier, compute_signature, parse_signature_header

if TYPE_CHECKING:
    from .app import create_app


def __getattr__(name: str) -> object:
    """Import :func:`create_app`, and with it Litestar, only when it is first asked for.

    Raises:
        ImportError: Litestar (or PyYAML, which Litestar imports) is not installed; the
            message says so and that every other piece works without it.
        AttributeError: any other unknown name.
    """
    if name == "create_app":
        try:
            from .app import create_app
        except ImportError as exc:
            raise ImportError(
                f"provider.contract.create_app serves HTTP with Litestar, which cannot be imported here ({exc}). "
                "Install litestar (it requires PyYAML), or serve the other pieces of provider.contract — "
                "Verifier, parse_retrieve_request, render_results, ContractError — from your own framework."
            ) from exc
        globals()["create_app"] = create_app
        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ALL_CAPABILITIES",
    "INTERNAL",
    "MINIMUM",
    "OPTIONAL_CAPABILITIES",
    "PUBLIC",
    "SNIPPET_MAX_CHARS",
    "AuthenticationError",
    "Backend",
    "ConfigurationError",
    "ContractError",
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
    "create_app",
    "load_schema",
    "parse_capabilities",
    "parse_retrieve_request",
    "parse_signature_header",
    "render_results",
]
