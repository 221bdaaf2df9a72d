"""Registrations and their secrets (CONTRACT X1, A3, A6 and the "Authentication" project decisions)."""

from __future__ import annotations

import logging

import pytest

from helpthread_kit.registrations import (
    MIN_SECRET_CHARS,
    ConfigurationError,
    Exposure,
    Registration,
    Secret,
    check_registrations,
)
from helpthread_kit.settings import ContractSettings

PUBLIC_SECRET = "P" * 20 + "public-secret-0123456789"
AGENT_SECRET = "A" * 20 + "agent-secret-0123456789"
SHARED_SECRET = "this-secret-is-shared-by-mistake-0123456789"
PUBLIC_SETTING = "KNOWLEDGE_PROVIDER_CUSTOMER_SAFE_SECRET"
AGENT_SETTING = "KNOWLEDGE_PROVIDER_AGENT_ONLY_SECRET"


def reg(name: str, exposure: Exposure, *secrets: str) -> Registration:
    return Registration.from_values(name, exposure, secrets)


def config_error(registrations: list[Registration], source: dict[str, str] | None = None) -> str:
    with pytest.raises(ConfigurationError) as info:
        check_registrations(registrations, source)
    return str(info.value)


# --------------------------------------------------------------------------------------
# Secret (A6)
# --------------------------------------------------------------------------------------


def test_a6_secret_repr_and_str_never_show_the_value() -> None:
    """A6: repr(), str(), format() and %-formatting of a Secret never contain its value."""
    secret = Secret(PUBLIC_SECRET)
    percent = "%s %r" % (secret, secret)  # noqa: UP031 - %-formatting is what logging does
    renderings = [repr(secret), str(secret), f"{secret}", f"{secret!r}", percent, format(secret)]
    for text in renderings:
        assert PUBLIC_SECRET not in text
        assert "public-secret" not in text


def test_a6_registration_repr_never_shows_secret_values() -> None:
    """A6: printing or logging a Registration (a dataclass) hides its secrets."""
    registration = reg("public", Exposure.CUSTOMER_SAFE, PUBLIC_SECRET, AGENT_SECRET)
    for text in (repr(registration), str(registration), repr([registration])):
        assert PUBLIC_SECRET not in text
        assert AGENT_SECRET not in text
        assert "public" in text  # the name is fine to show


def test_a6_logging_a_registration_does_not_leak(caplog: pytest.LogCaptureFixture) -> None:
    """A6: secrets are never logged, even when a registration is logged whole."""
    registration = reg("public", Exposure.CUSTOMER_SAFE, PUBLIC_SECRET)
    with caplog.at_level(logging.INFO):
        logging.getLogger("test").info("serving %r / %s", registration, registration.secrets[0])
    assert PUBLIC_SECRET not in caplog.text


def test_a2_secret_key_is_utf8_bytes() -> None:
    """A2: the HMAC key is the secret's UTF-8 bytes."""
    assert Secret("äöü-secret").key == "äöü-secret".encode()


def test_secret_equality_hash_and_length_in_characters() -> None:
    """A3/project decision: equal values are equal secrets; length counts characters, not bytes."""
    assert Secret(PUBLIC_SECRET) == Secret(PUBLIC_SECRET)
    assert hash(Secret(PUBLIC_SECRET)) == hash(Secret(PUBLIC_SECRET))
    assert Secret(PUBLIC_SECRET) != Secret(AGENT_SECRET)
    assert Secret(PUBLIC_SECRET) != PUBLIC_SECRET
    assert len(Secret("é" * 32)) == 32
    assert len(Secret("\U0001f511" * 10)) == 10


def test_from_values_strips_and_drops_blank_entries() -> None:
    """X1: secrets from settings are trimmed; blank entries (e.g. an unset previous secret) are dropped."""
    registration = Registration.from_values("public", Exposure.CUSTOMER_SAFE, [f"  {PUBLIC_SECRET}\n", "", "   "])
    assert registration.secrets == (Secret(PUBLIC_SECRET),)
    assert registration.exposure is Exposure.CUSTOMER_SAFE
    assert registration.name == "public"


def test_x1_exposure_values_are_the_contracts() -> None:
    """X1: exactly two exposures, spelt as in §2.2."""
    assert {e.value for e in Exposure} == {"customer_safe", "agent_only"}
    assert str(Exposure.CUSTOMER_SAFE) == "customer_safe"
    assert f"{Exposure.AGENT_ONLY}" == "agent_only"
    assert Exposure("agent_only") is Exposure.AGENT_ONLY


def test_x1_registration_exposure_cannot_be_changed() -> None:
    """X1/X4: a registration's exposure is fixed for its life."""
    registration = reg("public", Exposure.CUSTOMER_SAFE, PUBLIC_SECRET)
    with pytest.raises(AttributeError):
        registration.exposure = Exposure.AGENT_ONLY  # type: ignore[misc]


# --------------------------------------------------------------------------------------
# check_registrations
# --------------------------------------------------------------------------------------


def test_x1_customer_safe_only_is_complete() -> None:
    """X1: a provider may run with only a customer_safe registration."""
    check_registrations([reg("public", Exposure.CUSTOMER_SAFE, PUBLIC_SECRET)])


def test_x1_one_of_each_exposure_is_fine() -> None:
    """X1: customer_safe and agent_only with their own secrets, several per registration (A3)."""
    check_registrations(
        [
            reg("public", Exposure.CUSTOMER_SAFE, PUBLIC_SECRET, PUBLIC_SECRET[::-1]),
            reg("agents", Exposure.AGENT_ONLY, AGENT_SECRET),
        ]
    )


def test_x1_no_registration_is_refused() -> None:
    """X1: the provider refuses to start with no registration."""
    assert "no registration" in config_error([])


def test_x1_registration_without_secret_is_refused_naming_the_setting() -> None:
    """X1: a registration whose setting held only blanks is refused, naming the setting."""
    message = config_error([reg("public", Exposure.CUSTOMER_SAFE, "  ")], {"public": PUBLIC_SETTING})
    assert PUBLIC_SETTING in message
    assert "no secret" in message


@pytest.mark.parametrize("length", [0, 1, 16, MIN_SECRET_CHARS - 1])
def test_short_secret_is_refused_naming_the_setting_not_the_secret(length: int) -> None:
    """Project decision: a secret shorter than 32 characters refuses to start; the message names the setting."""
    short = ("Zq9#" * 10)[:length]
    registrations = [Registration("agents", Exposure.AGENT_ONLY, (Secret(short),))]
    message = config_error(registrations, {"agents": AGENT_SETTING})
    assert AGENT_SETTING in message
    assert str(MIN_SECRET_CHARS) in message
    if length >= 3:
        assert short not in message


EIGHT_KEYS = "\U0001f511\U0001f512\U0001f513\U0001f510\U0001f5dd\u26bf\U0001f6aa\U0001f3e0"


def test_short_secret_counts_characters_not_bytes() -> None:
    """Project decision: 31 four-byte characters (124 bytes) are still too short; 32 are enough."""
    assert MIN_SECRET_CHARS == 32
    config_error([reg("public", Exposure.CUSTOMER_SAFE, (EIGHT_KEYS * 4)[:31])])
    check_registrations([reg("public", Exposure.CUSTOMER_SAFE, EIGHT_KEYS * 4)])


def test_secret_of_exactly_32_characters_is_accepted() -> None:
    """Project decision: the bound is inclusive."""
    check_registrations([reg("public", Exposure.CUSTOMER_SAFE, "abcdefgh" * (MIN_SECRET_CHARS // 8))])


@pytest.mark.parametrize("secret", ["x" * 40, "ab" * 20, "abcdefg" * 6, "abcd efgh" * 4, "abcdefgh" * 4 + "\0"])
def test_repetitive_or_padded_secrets_are_refused(secret: str) -> None:
    """Hardening: a repetitive secret is no secret; a space or NUL makes keys that HMAC's
    zero-padding would treat as equal to shorter ones."""
    message = config_error([reg("public", Exposure.CUSTOMER_SAFE, secret)])
    assert secret.strip() not in message


def test_short_second_secret_is_refused_and_numbered() -> None:
    """Project decision: every secret of a registration is checked; the message says which one."""
    registration = reg("public", Exposure.CUSTOMER_SAFE, PUBLIC_SECRET, "short-one")
    message = config_error([registration], {"public": PUBLIC_SETTING})
    assert "#2" in message
    assert PUBLIC_SETTING in message
    assert "short-one" not in message


@pytest.mark.parametrize("order", ["public-first", "agent-first"])
def test_x2_one_secret_for_two_exposures_is_refused_without_revealing_it(order: str) -> None:
    """X2/project decision: one secret shared by customer_safe and agent_only refuses to start.

    The message names both settings and never contains the secret.
    """
    public = reg("public", Exposure.CUSTOMER_SAFE, PUBLIC_SECRET, SHARED_SECRET)
    agents = reg("agents", Exposure.AGENT_ONLY, SHARED_SECRET)
    registrations = [public, agents] if order == "public-first" else [agents, public]
    message = config_error(registrations, {"public": PUBLIC_SETTING, "agents": AGENT_SETTING})
    assert PUBLIC_SETTING in message
    assert AGENT_SETTING in message
    assert SHARED_SECRET not in message
    assert SHARED_SECRET[:12] not in message
    assert PUBLIC_SECRET not in message


def test_x2_shared_secret_refused_without_source_map_names_registrations() -> None:
    """X2: without a settings map, the message names the registrations instead."""
    message = config_error(
        [
            reg("public-site", Exposure.CUSTOMER_SAFE, SHARED_SECRET),
            reg("agent-desk", Exposure.AGENT_ONLY, SHARED_SECRET),
        ]
    )
    assert "public-site" in message
    assert "agent-desk" in message
    assert SHARED_SECRET not in message


def test_x1_same_secret_for_two_registrations_of_one_exposure_is_allowed() -> None:
    """X1: the project decision forbids sharing across *different* exposures only."""
    check_registrations(
        [reg("public-a", Exposure.CUSTOMER_SAFE, SHARED_SECRET), reg("public-b", Exposure.CUSTOMER_SAFE, SHARED_SECRET)]
    )


def test_x1_duplicate_registration_names_are_refused() -> None:
    """X1: registration names identify registrations in logs; two with one name are refused."""
    message = config_error(
        [reg("public", Exposure.CUSTOMER_SAFE, PUBLIC_SECRET), reg("public", Exposure.AGENT_ONLY, AGENT_SECRET)]
    )
    assert "'public'" in message


def test_x1_contract_settings_check_registrations_on_creation() -> None:
    """X1: ContractSettings refuses bad credentials when it is built, before anything is served."""
    with pytest.raises(ConfigurationError):
        ContractSettings(registrations=[reg("public", Exposure.CUSTOMER_SAFE, "short")])
    with pytest.raises(ConfigurationError):
        ContractSettings(registrations=[])
    settings = ContractSettings(registrations=[reg("public", Exposure.CUSTOMER_SAFE, PUBLIC_SECRET)])
    assert settings.capabilities == frozenset({"retrieve"})
    assert settings.max_skew_s == 300
