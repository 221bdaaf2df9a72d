"""Registrations: named credentials with a fixed exposure profile (CONTRACT X1; §2.2, §3).

A registration is what the core registers once per exposure. It holds one or more
secrets (several during the provider's own rotation, CONTRACT A3) and an exposure
that no request can change (CONTRACT X4).
"""

from __future__ import annotations

import enum
import hmac
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = [
    "MIN_SECRET_CHARS",
    "ConfigurationError",
    "Exposure",
    "Registration",
    "Secret",
    "check_registrations",
]

#: Project decision (CONTRACT, "Authentication"): shorter secrets refuse to start.
MIN_SECRET_CHARS = 32
#: A secret with fewer different characters than this (``aaaa…``) is refused as well.
MIN_DISTINCT_CHARS = 8


class ConfigurationError(Exception):
    """A setting is wrong; the provider refuses to start.

    The message names the setting and the next step, never a secret value.
    """


class Exposure(enum.StrEnum):
    """The exposure profile of a registration (§2.2)."""

    CUSTOMER_SAFE = "customer_safe"
    AGENT_ONLY = "agent_only"


class Secret:
    """A shared HMAC secret whose ``repr``/``str`` never show the value (CONTRACT A6).

    Args:
        value: the secret text; it is used as its UTF-8 bytes for HMAC-SHA256 (CONTRACT A2).
    """

    __slots__ = ("_key",)

    def __init__(self, value: str) -> None:
        self._key = value.encode("utf-8")

    @property
    def key(self) -> bytes:
        """The HMAC key: the secret's UTF-8 bytes."""
        return self._key

    def __len__(self) -> int:
        return len(self._key.decode("utf-8"))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and hmac.compare_digest(self._key, other._key)

    def __hash__(self) -> int:
        return hash(self._key)

    def __repr__(self) -> str:
        return "Secret('**********')"

    __str__ = __repr__


@dataclass(frozen=True)
class Registration:
    """One credential the core holds for this provider.

    Attributes:
        name: an operator-facing label used in logs (never secret).
        exposure: ``customer_safe`` or ``agent_only``; fixed for the registration's life.
        secrets: every secret accepted for it; any one verifies (CONTRACT A3).
    """

    name: str
    exposure: Exposure
    secrets: tuple[Secret, ...]

    @classmethod
    def from_values(cls, name: str, exposure: Exposure, values: Iterable[str]) -> Registration:
        """Build a registration from secret strings (blank entries are dropped)."""
        secrets = tuple(Secret(v.strip()) for v in values if v.strip())
        return cls(name=name, exposure=exposure, secrets=secrets)


def check_registrations(registrations: Sequence[Registration], source: dict[str, str] | None = None) -> None:
    """Refuse weak or ambiguous credentials (CONTRACT "Authentication", project decisions).

    Args:
        registrations: every registration the provider will serve.
        source: optional map from registration name to the setting it came from, so the
            error can name the setting (e.g. ``KNOWLEDGE_PROVIDER_AGENT_ONLY_SECRET``).

    Raises:
        ConfigurationError: no registration; a registration without secrets; a secret
            shorter than :data:`MIN_SECRET_CHARS` characters, with fewer than
            :data:`MIN_DISTINCT_CHARS` different characters, or with spaces or control
            characters; one secret held by two
            registrations of different exposure (which would let a customer-safe caller
            reach agent-only content); or two registrations with one name.
    """
    source = source or {}
    if not registrations:
        raise ConfigurationError("no registration is configured: set at least one secret")
    names: set[str] = set()
    seen: dict[Secret, Registration] = {}
    for reg in registrations:
        where = source.get(reg.name, f"registration {reg.name!r}")
        if reg.name in names:
            raise ConfigurationError(f"two registrations are named {reg.name!r}")
        names.add(reg.name)
        if not reg.secrets:
            raise ConfigurationError(f"{where}: no secret given")
        for i, secret in enumerate(reg.secrets, start=1):
            text = secret.key.decode("utf-8")
            generate = "generate one with: python3 -c 'import secrets; print(secrets.token_urlsafe(48))'"
            if len(secret) < MIN_SECRET_CHARS:
                raise ConfigurationError(
                    f"{where}: secret #{i} is shorter than {MIN_SECRET_CHARS} characters; {generate}"
                )
            if len(set(text)) < MIN_DISTINCT_CHARS:
                raise ConfigurationError(f"{where}: secret #{i} is too repetitive to be a secret; {generate}")
            if any(not ch.isprintable() or ch.isspace() for ch in text):
                # HMAC pads keys with zero bytes: "k\0" and "k" would be one key.
                raise ConfigurationError(f"{where}: secret #{i} contains spaces or control characters; {generate}")
            other = seen.get(secret)
            if other is not None and other.exposure is not reg.exposure:
                raise ConfigurationError(
                    f"{where}: secret #{i} is also used by {source.get(other.name, other.name)} "
                    f"({other.exposure}); each exposure needs its own secret"
                )
            seen[secret] = reg
