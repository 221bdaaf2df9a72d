"""Request signatures: parsing, computing and verifying (CONTRACT A1–A5, A7; §3.1).

Header form (A1)::

    X-Helpthread-Signature: t=<unix-seconds>, n=<nonce>, v1=<hex>[, v1=<hex>...]

``v1 = hex(HMAC-SHA256(secret as UTF-8, t + "." + n + "." + raw body bytes))`` (A2).
Verification order, each step cheaper than the next and none touching the corpus:

1. parse the header (``missing_signature`` / ``malformed_signature``);
2. check the timestamp against the clock, past **and** future (``stale_timestamp``, A4);
3. compare every ``v1`` with every secret in constant time (``invalid_signature``, A2/A3);
4. only then record the nonce in the replay store (``replayed_nonce``, A5), so a forged
   request never burns a nonce.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .errors import InvalidSignature, MalformedSignature, MissingSignature, ReplayedNonce, StaleTimestamp
from .registrations import Registration
from .replay import ReplayStore, accepts_signed_at

__all__ = [
    "DEFAULT_MAX_SKEW_S",
    "ParsedSignature",
    "Verifier",
    "compute_signature",
    "parse_signature_header",
]

#: Contract §3.1: a timestamp more than five minutes away from the provider's clock is refused.
DEFAULT_MAX_SKEW_S = 300

# Project decisions (CONTRACT, "Authentication"): nonce alphabet and length, timestamp digits.
_NONCE_RE = re.compile(r"[A-Za-z0-9._~-]{8,200}")
_TIMESTAMP_RE = re.compile(r"[0-9]{1,12}")
_V1_RE = re.compile(r"[0-9A-Fa-f]{64}")
#: A header longer than this is refused before it is split (ten v1 values fit with room).
MAX_HEADER_CHARS = 2048


@dataclass(frozen=True)
class ParsedSignature:
    """The parts of a well-formed ``X-Helpthread-Signature`` header.

    Attributes:
        timestamp: Unix time in whole seconds.
        timestamp_text: the ``t`` value exactly as received; it, not ``timestamp``, is
            what was signed (``t=0170...`` and ``t=170...`` sign different bytes).
        nonce: the nonce, as signed.
        v1: every ``v1`` value, lowercased hex (64 characters each), in header order.
    """

    timestamp: int
    timestamp_text: str
    nonce: str
    v1: tuple[str, ...]


def parse_signature_header(value: str | None) -> ParsedSignature:
    """Parse ``X-Helpthread-Signature`` (CONTRACT A1).

    Items are comma-separated ``key=value`` pairs; whitespace around items and around
    ``=`` is tolerated; ``v1`` may repeat; unknown keys (a future ``v2``) are ignored.

    Raises:
        MissingSignature: the header is absent or blank.
        MalformedSignature: anything else that is not exactly one ``t``, exactly one ``n``
            and at least one ``v1``, each of the right form.
    """
    if value is None or not value.strip():
        raise MissingSignature()
    if len(value) > MAX_HEADER_CHARS:
        raise MalformedSignature("X-Helpthread-Signature header is too long")
    timestamp: str | None = None
    nonce: str | None = None
    v1: list[str] = []
    for item in value.split(","):
        key, sep, val = item.partition("=")
        key, val = key.strip(), val.strip()
        if not sep or not key:
            raise MalformedSignature("X-Helpthread-Signature items must be key=value pairs")
        if key == "t":
            if timestamp is not None:
                raise MalformedSignature("X-Helpthread-Signature has more than one t")
            timestamp = val
        elif key == "n":
            if nonce is not None:
                raise MalformedSignature("X-Helpthread-Signature has more than one n")
            nonce = val
        elif key == "v1":
            if not _V1_RE.fullmatch(val):
                raise MalformedSignature("X-Helpthread-Signature v1 must be 64 hexadecimal digits")
            v1.append(val.lower())
        # Any other key is a future scheme: ignored (A1).
    if timestamp is None or not _TIMESTAMP_RE.fullmatch(timestamp):
        raise MalformedSignature("X-Helpthread-Signature t must be a decimal Unix time of at most 12 digits")
    if nonce is None or not _NONCE_RE.fullmatch(nonce):
        raise MalformedSignature("X-Helpthread-Signature n must be 8-200 characters from [A-Za-z0-9._~-]")
    if not v1:
        raise MalformedSignature("X-Helpthread-Signature carries no v1 signature")
    return ParsedSignature(timestamp=int(timestamp), timestamp_text=timestamp, nonce=nonce, v1=tuple(v1))


def _signed_message(timestamp: str | int, nonce: str, body: bytes) -> bytes:
    return f"{timestamp}.{nonce}.".encode("ascii") + body


def compute_signature(secret: str | bytes, timestamp: int | str, nonce: str, body: bytes) -> str:
    """Return the lowercase hex ``v1`` for a request (CONTRACT A2).

    Args:
        secret: the shared secret (text is used as its UTF-8 bytes).
        timestamp: Unix seconds, exactly as it will appear in the header.
        nonce: the nonce, exactly as it will appear in the header.
        body: the raw request body bytes (``b""`` for ``GET /capabilities``).
    """
    key = secret.encode("utf-8") if isinstance(secret, str) else secret
    return hmac.new(key, _signed_message(timestamp, nonce, body), hashlib.sha256).hexdigest()


class Verifier:
    """Authenticates requests against a set of registrations (CONTRACT A1–A5).

    Args:
        registrations: every registration this provider serves.
        replay_store: where verified nonces are recorded; shared by every process
            serving these registrations (A5).
        max_skew_s: accepted distance, in seconds, between the signed timestamp and the
            provider's clock, in both directions (A4). Default 300.
        clock: returns the current Unix time in seconds; injected so tests need no sleep.
    """

    def __init__(
        self,
        registrations: Sequence[Registration],
        replay_store: ReplayStore,
        *,
        max_skew_s: int = DEFAULT_MAX_SKEW_S,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._keys = [(secret.key, reg) for reg in registrations for secret in reg.secrets]
        self._replay_store = replay_store
        self._pass_signed_at = accepts_signed_at(replay_store)
        self.max_skew_s = max_skew_s
        self._clock = clock

    def verify(self, header: str | None, body: bytes) -> Registration:
        """Authenticate one request and record its nonce.

        Args:
            header: the raw ``X-Helpthread-Signature`` value, or ``None`` when absent.
            body: the raw body bytes exactly as received (never a re-serialization).

        Returns:
            The registration whose secret produced a matching ``v1``.

        Raises:
            MissingSignature, MalformedSignature, StaleTimestamp, InvalidSignature,
            ReplayedNonce: see the module docstring for the order. ``StaleTimestamp``
                also comes from a store that refuses what was signed before its memory
                began (a full memory store, a flushed Redis).
            ReplayStoreUnavailable: the replay store cannot be reached (503, fail closed).
        """
        parsed = parse_signature_header(header)
        if abs(self._clock() - parsed.timestamp) > self.max_skew_s:
            raise StaleTimestamp()
        registration = self._match(parsed, body)
        # The nonce must stay refused for as long as its timestamp is acceptable.
        expires_at = parsed.timestamp + self.max_skew_s + 1
        if self._pass_signed_at:
            # A store that can lose its memory (a replacement worker's, a flushed Redis)
            # refuses what was signed before it began.
            added = self._replay_store.add_if_absent(parsed.nonce, expires_at, signed_at=parsed.timestamp)
        else:
            added = self._replay_store.add_if_absent(parsed.nonce, expires_at)
        if not added:
            raise ReplayedNonce()
        return registration

    def _match(self, parsed: ParsedSignature, body: bytes) -> Registration:
        message = _signed_message(parsed.timestamp_text, parsed.nonce, body)
        matched: Registration | None = None
        # Every pair is compared, without stopping at the first match, so the time taken
        # does not depend on which secret or which v1 matched.
        for key, registration in self._keys:
            expected = hmac.new(key, message, hashlib.sha256).hexdigest()
            for candidate in parsed.v1:
                if hmac.compare_digest(expected, candidate) and matched is None:
                    matched = registration
        if matched is None:
            raise InvalidSignature()
        return matched
