"""The provider side of Knowledge Provider Interface v1, independent of any backend.

This package imports nothing from Whoosh, markdown-it-py or YAML (a test checks it),
so an adapter author can copy it — or depend on it — and supply only a
:class:`Backend`::

    from provider.contract import ContractSettings, Registration, Exposure, create_app
    app = create_app(MyBackend(), ContractSettings(registrations=[...]))
"""

from .app import create_app
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
