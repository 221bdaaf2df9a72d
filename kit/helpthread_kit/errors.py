"""The wire error hierarchy (CONTRACT "Errors"; contract §4.2, §9.1).

Every error the provider can answer with is a :class:`ContractError`. Each class
knows its HTTP status and its ``code``; the application turns any of them into the
envelope ``{"contractVersion": 1, "error": {"code": ..., "message": ...}}``.

The tree lets callers catch at the depth they care about::

    ContractError
    ├── AuthenticationError (401)      missing/malformed signature, stale timestamp,
    │                                  invalid signature, replayed nonce
    ├── UnsupportedVersion (400)
    ├── UnsupportedMediaType (415)
    ├── PayloadTooLarge (413)
    ├── InvalidRequest (400)           names the offending field
    └── Unavailable (503)              always carries ``Retry-After``
        ├── Overloaded
        │   └── SearchDeadlineExceeded   no answer within ``search_deadline_s``
        └── IndexUnavailable

Messages are written for the operator of the calling system. They never contain a
secret, a signature, a nonce or query text (CONTRACT A6, O2).
"""

from __future__ import annotations

from typing import ClassVar

__all__ = [
    "AuthenticationError",
    "BackendFault",
    "ContractError",
    "IndexUnavailable",
    "InvalidRequest",
    "InvalidSignature",
    "MalformedSignature",
    "MethodNotAllowed",
    "MissingSignature",
    "NotFound",
    "Overloaded",
    "PayloadTooLarge",
    "ReplayStoreUnavailable",
    "ReplayedNonce",
    "SearchDeadlineExceeded",
    "StaleTimestamp",
    "Unavailable",
    "UnsupportedMediaType",
    "UnsupportedVersion",
]


class ContractError(Exception):
    """Base of every error answered on the wire.

    Attributes:
        status: HTTP status code of the answer.
        code: machine-readable error code placed in the envelope.
        message: human-readable text placed in the envelope.
    """

    status: ClassVar[int] = 500
    code: ClassVar[str] = "internal_error"
    default_message: ClassVar[str] = "internal error"

    def __init__(self, message: str | None = None) -> None:
        self.message = message or self.default_message
        super().__init__(self.message)

    def headers(self) -> dict[str, str]:
        """Extra response headers this error requires (e.g. ``Retry-After``)."""
        return {}

    def envelope(self) -> dict[str, object]:
        """The JSON error envelope (CONTRACT W4 and "Errors")."""
        return {"contractVersion": 1, "error": {"code": self.code, "message": self.message}}


class AuthenticationError(ContractError):
    """The request is not authenticated (CONTRACT A1–A5). Answered ``401``."""

    status = 401
    code = "invalid_signature"
    default_message = "request signature is not valid"


class MissingSignature(AuthenticationError):
    code = "missing_signature"
    default_message = "X-Helpthread-Signature header is missing"


class MalformedSignature(AuthenticationError):
    code = "malformed_signature"
    default_message = "X-Helpthread-Signature header is malformed"


class StaleTimestamp(AuthenticationError):
    code = "stale_timestamp"
    default_message = "signature timestamp is outside the accepted window"


class InvalidSignature(AuthenticationError):
    code = "invalid_signature"
    default_message = "no v1 signature matches a secret held by this provider"


class ReplayedNonce(AuthenticationError):
    code = "replayed_nonce"
    default_message = "this nonce was already used within the replay window"


class UnsupportedVersion(ContractError):
    status = 400
    code = "unsupported_version"
    default_message = "X-Helpthread-Knowledge-Version must be 1"


class UnsupportedMediaType(ContractError):
    status = 415
    code = "unsupported_media_type"
    default_message = "Content-Type must be application/json; charset=utf-8"


class PayloadTooLarge(ContractError):
    status = 413
    code = "payload_too_large"
    default_message = "request body is larger than this provider accepts"


class InvalidRequest(ContractError):
    """A request body that breaks CONTRACT Q1–Q6. The message names the field.

    Args:
        field: the JSON path of the offending field (``"limit"``, ``"context.conversationId"``),
            or ``"body"`` when the body as a whole is unusable.
        problem: what is wrong with it, without echoing its value.
    """

    status = 400
    code = "invalid_request"

    def __init__(self, field: str, problem: str) -> None:
        self.field = field
        super().__init__(f"{field}: {problem}")


class BackendFault(ContractError):
    """In strict mode, an answer the backend got wrong and the contract layer would have
    had to repair (``results.Repair``): refused as a ``500`` naming the duties broken,
    never sent repaired. Only a test kit or a staging deployment runs strict.

    Args:
        duties: the CONTRACT ids broken, e.g. ``["X6", "Q2"]``.
    """

    def __init__(self, duties: list[str] | None = None) -> None:
        self.duties = tuple(duties or ["an unnamed duty"])
        super().__init__(f"backend fault, not repaired in strict mode: the backend broke {', '.join(self.duties)} "
                         "(see the provider's log)")


class NotFound(ContractError):
    status = 404
    code = "not_found"
    default_message = "no such route; this provider serves POST /retrieve and GET /capabilities"


class MethodNotAllowed(ContractError):
    status = 405
    code = "method_not_allowed"
    default_message = "method not allowed on this route"


class Unavailable(ContractError):
    """Transient unavailability: ``503`` with ``Retry-After`` (CONTRACT W7).

    Args:
        message: human-readable text.
        retry_after_s: whole seconds the caller should wait before retrying.
    """

    status = 503
    # The error vocabulary (CONTRACT "Errors") has no plain "unavailable": a 503 is
    # "overloaded" unless a subclass says "index_unavailable".
    code = "overloaded"

    def __init__(self, message: str | None = None, retry_after_s: int = 1) -> None:
        self.retry_after_s = max(1, int(retry_after_s))
        super().__init__(message)

    def headers(self) -> dict[str, str]:
        return {"Retry-After": str(self.retry_after_s)}


class Overloaded(Unavailable):
    code = "overloaded"
    default_message = "too many searches in flight; retry shortly"


class SearchDeadlineExceeded(Overloaded):
    """The backend did not answer within ``ContractSettings.search_deadline_s``: the
    caller is told to retry (``503 overloaded`` with ``Retry-After``, W7) instead of
    waiting past the core's 10 s timeout (§4.2)."""

    default_message = "the search did not finish in time; retry shortly"


class IndexUnavailable(Unavailable):
    code = "index_unavailable"
    default_message = "the search index is not loaded yet; retry shortly"


class ReplayStoreUnavailable(Unavailable):
    """The replay store cannot be reached. Failing closed: the request is refused,
    never accepted unverifiable (CONTRACT A5)."""

    code = "overloaded"
    default_message = "replay protection is temporarily unavailable; retry shortly"
