"""Signature header parsing and request verification (CONTRACT A1–A6; contract §3.1)."""

from __future__ import annotations

import hashlib
import hmac
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpthread_kit.errors import (
    AuthenticationError,
    InvalidSignature,
    MalformedSignature,
    MissingSignature,
    ReplayedNonce,
    ReplayStoreUnavailable,
    StaleTimestamp,
)
from helpthread_kit.registrations import Exposure, Registration
from helpthread_kit.replay import MemoryReplayStore
from helpthread_kit.signature import (
    DEFAULT_MAX_SKEW_S,
    MAX_HEADER_CHARS,
    ParsedSignature,
    Verifier,
    compute_signature,
    parse_signature_header,
)
from helpthread_kit.testing import signature_header

NOW = 1_700_000_000
SECRET = "customer-safe-secret-0123456789-abcdefghij"
OTHER_SECRET = "another-secret-which-is-long-enough-0123456789"
AGENT_SECRET = "agent-only-secret-0123456789-abcdefghijklmn"
ROTATED_SECRET = "rotated-customer-secret-0123456789-abcdefgh"
NONCE = "nonce-0123456789abcdef"
BODY = b'{"query": "reset password", "limit": 5}'
HEX_A = "a" * 64
HEX_B = "B" * 64


class Clock:
    """A settable clock (Unix seconds) shared by a verifier and its replay store."""

    def __init__(self, now: float = NOW) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def customer(*secrets: str, name: str = "public") -> Registration:
    return Registration.from_values(name, Exposure.CUSTOMER_SAFE, secrets or (SECRET,))


def agent(*secrets: str, name: str = "agents") -> Registration:
    return Registration.from_values(name, Exposure.AGENT_ONLY, secrets or (AGENT_SECRET,))


def make_verifier(*registrations: Registration, clock: Clock | None = None, **kwargs: int) -> Verifier:
    clock = clock or Clock()
    regs = registrations or (customer(),)
    return Verifier(list(regs), MemoryReplayStore(clock=clock), clock=clock, **kwargs)


def header(
    secret: str | list[str] = SECRET, *, t: int | str = NOW, n: str = NONCE, body: bytes = BODY
) -> str:
    secrets = [secret] if isinstance(secret, str) else secret
    parts = [f"t={t}", f"n={n}"] + [f"v1={compute_signature(s, t, n, body)}" for s in secrets]
    return ", ".join(parts)


# --------------------------------------------------------------------------------------
# compute_signature (A2)
# --------------------------------------------------------------------------------------


def test_a2_compute_signature_is_hmac_sha256_of_t_dot_n_dot_raw_body() -> None:
    """A2: v1 = hex(HMAC-SHA256(secret as UTF-8, t + "." + n + "." + body))."""
    expected = hmac.new(SECRET.encode("utf-8"), f"{NOW}.{NONCE}.".encode() + BODY, hashlib.sha256).hexdigest()
    assert compute_signature(SECRET, NOW, NONCE, BODY) == expected
    assert compute_signature(SECRET.encode("utf-8"), str(NOW), NONCE, BODY) == expected


def test_a2_compute_signature_uses_utf8_bytes_of_a_non_ascii_secret() -> None:
    """A2: the key is the secret's UTF-8 bytes, not Latin-1 or code points."""
    secret = "geheimnis-äöü-€-𝄞-0123456789-abcdefgh"
    expected = hmac.new(secret.encode("utf-8"), f"{NOW}.{NONCE}.".encode() + BODY, hashlib.sha256).hexdigest()
    assert compute_signature(secret, NOW, NONCE, BODY) == expected


def test_a2_compute_signature_is_lowercase_hex_of_64_characters() -> None:
    """A2: the signature is hex; we emit lowercase."""
    sig = compute_signature(SECRET, NOW, NONCE, BODY)
    assert len(sig) == 64
    assert sig == sig.lower()
    int(sig, 16)


# --------------------------------------------------------------------------------------
# parse_signature_header (A1)
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    [
        f"t={NOW}, n={NONCE}, v1={HEX_A}",
        f"t={NOW},n={NONCE},v1={HEX_A}",
        f"  t={NOW} ,   n={NONCE}  ,v1={HEX_A}   ",
        f"t = {NOW}, n =  {NONCE}, v1  = {HEX_A}",
        f"\tt={NOW},\tn={NONCE},\tv1={HEX_A}\t",
        f"v1={HEX_A}, n={NONCE}, t={NOW}",
        f"n={NONCE}, v1={HEX_A}, t={NOW}",
        f"t={NOW}, v2=anything-goes-here, n={NONCE}, v1={HEX_A}",
        f"v0=old, t={NOW}, n={NONCE}, v1={HEX_A}, v2={HEX_A}, x=",
    ],
    ids=[
        "canonical",
        "no-spaces",
        "spaces-around-items",
        "spaces-around-equals",
        "tabs",
        "reversed-order",
        "mixed-order",
        "unknown-v2-ignored",
        "several-unknown-keys-ignored",
    ],
)
def test_a1_header_variants_parse_to_the_same_values(value: str) -> None:
    """A1: whitespace around items and '=', item order and unknown keys do not matter."""
    parsed = parse_signature_header(value)
    assert parsed == ParsedSignature(timestamp=NOW, timestamp_text=str(NOW), nonce=NONCE, v1=(HEX_A,))


def test_a1_repeated_v1_keeps_every_value_in_order_lowercased() -> None:
    """A1: v1 may repeat (rotation); values are kept in header order, hex lowercased."""
    parsed = parse_signature_header(f"t={NOW}, n={NONCE}, v1={HEX_B}, v1={HEX_A}, v1=0123456789ABCDEF" + "0" * 48)
    assert parsed.v1 == ("b" * 64, HEX_A, "0123456789abcdef" + "0" * 48)


def test_a1_timestamp_text_is_kept_exactly_as_received() -> None:
    """A1/A2: t=0<digits> keeps its leading zero as the signed text, and its integer value."""
    parsed = parse_signature_header(f"t=0{NOW}, n={NONCE}, v1={HEX_A}")
    assert parsed.timestamp == NOW
    assert parsed.timestamp_text == f"0{NOW}"


@pytest.mark.parametrize("nonce", ["a" * 8, "Z" * 200, "AZaz09._~-", "550e8400-e29b-41d4-a716-446655440000"])
def test_a1_nonce_alphabet_and_length_bounds_accepted(nonce: str) -> None:
    """A1 (project decision): nonces of 8–200 characters from [A-Za-z0-9._~-] are accepted."""
    assert parse_signature_header(f"t={NOW}, n={nonce}, v1={HEX_A}").nonce == nonce


@pytest.mark.parametrize("t", ["0", "1", "9" * 12, "000000000001"])
def test_a1_timestamp_of_one_to_twelve_digits_accepted(t: str) -> None:
    """A1 (project decision): t is a decimal integer of at most 12 digits."""
    parsed = parse_signature_header(f"t={t}, n={NONCE}, v1={HEX_A}")
    assert parsed.timestamp == int(t)
    assert parsed.timestamp_text == t


@pytest.mark.parametrize("value", [None, "", " ", "   \t  "], ids=["absent", "empty", "space", "whitespace"])
def test_a1_missing_or_blank_header_is_missing_signature(value: str | None) -> None:
    """A1: an absent or blank header is missing_signature, not malformed_signature."""
    with pytest.raises(MissingSignature) as info:
        parse_signature_header(value)
    assert type(info.value) is MissingSignature
    assert info.value.code == "missing_signature"
    assert info.value.status == 401


V1 = f"v1={HEX_A}"
T = f"t={NOW}"
N = f"n={NONCE}"


@pytest.mark.parametrize(
    "value",
    [
        # missing parts
        pytest.param(f"{N}, {V1}", id="missing-t"),
        pytest.param(f"{T}, {V1}", id="missing-n"),
        pytest.param(f"{T}, {N}", id="missing-v1"),
        pytest.param(f"{T}, {N}, v2={HEX_A}", id="only-unknown-scheme"),
        pytest.param(f"{T}, {N}, V1={HEX_A}", id="v1-key-is-case-sensitive"),
        # duplicates
        pytest.param(f"{T}, {T}, {N}, {V1}", id="duplicate-t-same-value"),
        pytest.param(f"{T}, t={NOW + 1}, {N}, {V1}", id="duplicate-t-other-value"),
        pytest.param(f"{T}, {N}, n=otherNonce123, {V1}", id="duplicate-n"),
        pytest.param(f"{T}, {N}, {N}, {V1}", id="duplicate-n-same-value"),
        # timestamps
        pytest.param(f"t=, {N}, {V1}", id="t-empty"),
        pytest.param(f"t=17000000a0, {N}, {V1}", id="t-non-digit"),
        pytest.param(f"t=1700000000.5, {N}, {V1}", id="t-fraction"),
        pytest.param(f"t=-1700000000, {N}, {V1}", id="t-negative"),
        pytest.param(f"t=+1700000000, {N}, {V1}", id="t-plus-sign"),
        pytest.param(f"t={'1' * 13}, {N}, {V1}", id="t-13-digits"),
        pytest.param(f"t=1_700_000_000, {N}, {V1}", id="t-underscores"),
        pytest.param(f"t=0x6553F100, {N}, {V1}", id="t-hex"),
        pytest.param(f"t=1 700000000, {N}, {V1}", id="t-inner-space"),
        pytest.param(f"t=１７００００００００, {N}, {V1}", id="t-fullwidth-digits"),
        pytest.param(f"t=١٧٠٠٠٠٠٠٠٠, {N}, {V1}", id="t-arabic-indic-digits"),
        # nonces
        pytest.param(f"{T}, n=, {V1}", id="n-empty"),
        pytest.param(f"{T}, n={'a' * 7}, {V1}", id="n-7-chars"),
        pytest.param(f"{T}, n={'a' * 201}, {V1}", id="n-201-chars"),
        pytest.param(f"{T}, n=abc/defgh, {V1}", id="n-slash"),
        pytest.param(f"{T}, n=abc+defgh, {V1}", id="n-plus"),
        pytest.param(f"{T}, n=abcdefgh==, {V1}", id="n-equals"),
        pytest.param(f"{T}, n=abc defgh, {V1}", id="n-inner-space"),
        pytest.param(f"{T}, n=abc%20defgh, {V1}", id="n-percent"),
        pytest.param(f"{T}, n=nöncenonce, {V1}", id="n-non-ascii"),
        pytest.param(f"{T}, n=abcd\x00efgh, {V1}", id="n-nul"),
        # v1 values
        pytest.param(f"{T}, {N}, v1=", id="v1-empty"),
        pytest.param(f"{T}, {N}, v1={'a' * 63}", id="v1-63-hex"),
        pytest.param(f"{T}, {N}, v1={'a' * 65}", id="v1-65-hex"),
        pytest.param(f"{T}, {N}, v1={'g' * 64}", id="v1-non-hex"),
        pytest.param(f"{T}, {N}, v1=0x{'a' * 62}", id="v1-0x-prefix"),
        pytest.param(f"{T}, {N}, v1={'a' * 32} {'a' * 32}", id="v1-inner-space"),
        pytest.param(f"{T}, {N}, {V1}, v1=zz", id="second-v1-malformed"),
        # item syntax
        pytest.param(f"{T}, {N}, {V1}, garbage", id="item-without-equals"),
        pytest.param(f"{T}, {N}, {V1}, =value", id="item-without-key"),
        pytest.param(f"{T}; {N}; {V1}", id="semicolon-separated"),
    ],
)
def test_a1_malformed_headers_are_refused(value: str) -> None:
    """A1: anything but exactly one t, exactly one n and >= 1 well-formed v1 is malformed_signature."""
    with pytest.raises(MalformedSignature) as info:
        parse_signature_header(value)
    assert info.value.code == "malformed_signature"
    assert info.value.status == 401


def test_a1_header_longer_than_the_bound_is_malformed_but_the_bound_itself_is_accepted() -> None:
    """A1: an over-long header is refused before it is split; one of exactly MAX_HEADER_CHARS parses."""
    base = f"t={NOW}, n={NONCE}, v1={HEX_A}, v2="
    exact = base + "x" * (MAX_HEADER_CHARS - len(base))
    assert len(exact) == MAX_HEADER_CHARS
    assert parse_signature_header(exact).v1 == (HEX_A,)
    with pytest.raises(MalformedSignature, match="too long"):
        parse_signature_header(exact + "x")


def test_a1_ten_rotation_signatures_fit_in_the_header_bound() -> None:
    """A1: the bound leaves room for many v1 values (rotation)."""
    value = f"t={NOW}, n={'n' * 200}, " + ", ".join(f"v1={HEX_A}" for _ in range(10))
    assert len(value) <= MAX_HEADER_CHARS
    assert len(parse_signature_header(value).v1) == 10


def test_a6_parse_errors_do_not_echo_the_nonce_or_signature() -> None:
    """A6: error messages never contain the nonce or a signature."""
    bad_nonce = "secret/nonce/value"
    for value in (f"t={NOW}, n={bad_nonce}, v1={HEX_A}", f"t=x, n={NONCE}, v1={HEX_A}", f"t={NOW}, n={NONCE}, v1=abc"):
        with pytest.raises(MalformedSignature) as info:
            parse_signature_header(value)
        for fragment in (bad_nonce, NONCE, HEX_A, "abc"):
            assert fragment not in info.value.message
            assert fragment not in str(info.value)


# --------------------------------------------------------------------------------------
# Verifier (A2–A5)
# --------------------------------------------------------------------------------------


def test_a2_valid_request_is_accepted_and_returns_its_registration() -> None:
    """A2: a correctly signed request verifies and yields the registration of the secret."""
    reg = customer()
    verifier = make_verifier(reg)
    assert verifier.verify(header(), BODY) is reg


def test_a2_signature_helper_from_testing_module_verifies() -> None:
    """A2/W2: helpthread_kit.testing.signature_header signs as the core does."""
    reg = customer()
    value, nonce = signature_header(BODY, SECRET, timestamp=NOW, nonce=NONCE)
    assert nonce == NONCE
    assert make_verifier(reg).verify(value, BODY) is reg


def test_a2_empty_body_is_signed_too() -> None:
    """A2: GET /capabilities has an empty body; it is still signed over t.n."""
    reg = customer()
    assert make_verifier(reg).verify(header(body=b""), b"") is reg
    with pytest.raises(InvalidSignature):
        make_verifier(reg).verify(header(body=b""), b" ")


def test_a2_uppercase_hex_is_accepted() -> None:
    """A2: hex is accepted in either case."""
    sig = compute_signature(SECRET, NOW, NONCE, BODY)
    reg = customer()
    assert make_verifier(reg).verify(f"t={NOW}, n={NONCE}, v1={sig.upper()}", BODY) is reg


def test_a2_mixed_case_hex_is_accepted() -> None:
    """A2: hex is accepted in either case, even mixed."""
    sig = compute_signature(SECRET, NOW, NONCE, BODY)
    mixed = "".join(c.upper() if i % 2 else c for i, c in enumerate(sig))
    assert make_verifier(customer()).verify(f"t={NOW}, n={NONCE}, v1={mixed}", BODY).name == "public"


def test_a2_wrong_secret_is_invalid_signature() -> None:
    """A2: a signature made with a secret the provider does not hold is refused."""
    with pytest.raises(InvalidSignature) as info:
        make_verifier(customer()).verify(header(OTHER_SECRET), BODY)
    assert info.value.code == "invalid_signature"
    assert info.value.status == 401


def test_a2_secret_prefix_or_case_change_is_invalid() -> None:
    """A2: the key is the exact secret bytes."""
    verifier = make_verifier(customer())
    for wrong in (SECRET.upper(), SECRET[:-1], SECRET + " ", " " + SECRET):
        with pytest.raises(InvalidSignature):
            verifier.verify(header(wrong), BODY)


def test_a2_tampered_body_is_invalid_signature() -> None:
    """A2: the body is inside the signature."""
    with pytest.raises(InvalidSignature):
        make_verifier(customer()).verify(header(), BODY.replace(b"5", b"50"))


def test_a2_reserialized_body_is_rejected() -> None:
    """A2: verification is over the raw bytes received, never a re-serialization."""
    same_json = json.dumps(json.loads(BODY), separators=(",", ":")).encode()
    assert json.loads(same_json) == json.loads(BODY)
    assert same_json != BODY
    with pytest.raises(InvalidSignature):
        make_verifier(customer()).verify(header(), same_json)


def test_a2_signature_bound_to_nonce_and_timestamp() -> None:
    """A2: t and n are part of the signed message; moving a v1 to another t or n fails."""
    sig = compute_signature(SECRET, NOW, NONCE, BODY)
    verifier = make_verifier(customer())
    with pytest.raises(InvalidSignature):
        verifier.verify(f"t={NOW + 1}, n={NONCE}, v1={sig}", BODY)
    with pytest.raises(InvalidSignature):
        verifier.verify(f"t={NOW}, n={NONCE}x, v1={sig}", BODY)


def test_a2_leading_zero_timestamp_is_signed_as_sent() -> None:
    """A2: t=0<digits> verifies only when the signer signed that exact text."""
    zero_t = f"0{NOW}"
    reg = customer()
    ok = f"t={zero_t}, n={NONCE}, v1={compute_signature(SECRET, zero_t, NONCE, BODY)}"
    assert make_verifier(reg).verify(ok, BODY) is reg
    signed_without_zero = f"t={zero_t}, n={NONCE}, v1={compute_signature(SECRET, NOW, NONCE, BODY)}"
    with pytest.raises(InvalidSignature):
        make_verifier(reg).verify(signed_without_zero, BODY)
    signed_with_zero_sent_without = f"t={NOW}, n={NONCE}, v1={compute_signature(SECRET, zero_t, NONCE, BODY)}"
    with pytest.raises(InvalidSignature):
        make_verifier(reg).verify(signed_with_zero_sent_without, BODY)


@pytest.mark.parametrize("offset", [-DEFAULT_MAX_SKEW_S, DEFAULT_MAX_SKEW_S, 0, -1, 1])
def test_a4_timestamp_within_300_seconds_is_accepted(offset: int) -> None:
    """A4: exactly 300 s in the past or the future is still accepted."""
    clock = Clock(NOW)
    t = NOW + offset
    reg = customer()
    assert make_verifier(reg, clock=clock).verify(header(t=t), BODY) is reg


@pytest.mark.parametrize("offset", [-301, 301, -3600, 3600, -NOW])
def test_a4_timestamp_more_than_300_seconds_away_is_stale_past_or_future(offset: int) -> None:
    """A4: more than 300 s away from the provider clock, past or future, is stale_timestamp."""
    clock = Clock(NOW)
    with pytest.raises(StaleTimestamp) as info:
        make_verifier(customer(), clock=clock).verify(header(t=NOW + offset), BODY)
    assert info.value.code == "stale_timestamp"
    assert info.value.status == 401


@pytest.mark.parametrize("fraction", [0.001, 0.5])
def test_a4_fractional_clock_just_past_the_window_is_stale(fraction: float) -> None:
    """A4: 'more than 300 s' is strict even with a sub-second clock."""
    for now in (NOW + 300 + fraction, NOW - 300 - fraction):
        with pytest.raises(StaleTimestamp):
            make_verifier(customer(), clock=Clock(now)).verify(header(t=NOW), BODY)


def test_a4_custom_skew_is_honoured() -> None:
    """A4: max_skew_s is the half-width of the window, in seconds."""
    clock = Clock(NOW)
    verifier = make_verifier(customer(), clock=clock, max_skew_s=10)
    verifier.verify(header(t=NOW - 10, n="nonce-at-minus-10"), BODY)
    with pytest.raises(StaleTimestamp):
        verifier.verify(header(t=NOW + 11, n="nonce-at-plus-11"), BODY)


def test_a4_stale_check_happens_before_the_signature_check() -> None:
    """A4: a stale request with a bad signature is refused as stale (cheapest check first)."""
    with pytest.raises(StaleTimestamp):
        make_verifier(customer()).verify(header(OTHER_SECRET, t=NOW - 1000), BODY)


def test_a3_rotation_matching_v1_first_is_accepted() -> None:
    """A3: with v1=<new>, v1=<old>, a provider holding only the new secret accepts."""
    reg = customer(ROTATED_SECRET)
    assert make_verifier(reg).verify(header([ROTATED_SECRET, SECRET]), BODY) is reg


def test_a3_rotation_matching_v1_second_is_accepted() -> None:
    """A3: with v1=<new>, v1=<old>, a provider still holding only the old secret accepts."""
    reg = customer(SECRET)
    assert make_verifier(reg).verify(header([ROTATED_SECRET, SECRET]), BODY) is reg


def test_a3_rotation_with_no_matching_v1_is_invalid() -> None:
    """A3: several v1 values, none matching a held secret, are refused."""
    with pytest.raises(InvalidSignature):
        make_verifier(customer(AGENT_SECRET)).verify(header([ROTATED_SECRET, SECRET]), BODY)


@pytest.mark.parametrize("signing_secret", [SECRET, ROTATED_SECRET])
def test_a3_two_secrets_in_one_registration_each_verify(signing_secret: str) -> None:
    """A3: a registration may hold several secrets (the provider's own rotation); any one verifies."""
    reg = customer(SECRET, ROTATED_SECRET)
    assert len(reg.secrets) == 2
    assert make_verifier(reg).verify(header(signing_secret), BODY) is reg


def test_x1_matching_secret_selects_its_registration_among_exposures() -> None:
    """X1/A3: with customer_safe and agent_only registrations, the secret's own registration is returned."""
    public = customer(SECRET, ROTATED_SECRET)
    agents = agent(AGENT_SECRET)
    for order in ((public, agents), (agents, public)):
        clock = Clock()
        verifier = make_verifier(*order, clock=clock)
        assert verifier.verify(header(AGENT_SECRET, n="agent-nonce-1"), BODY) is agents
        assert verifier.verify(header(SECRET, n="public-nonce-1"), BODY) is public
        assert verifier.verify(header(ROTATED_SECRET, n="public-nonce-2"), BODY) is public
        assert verifier.verify(header(AGENT_SECRET, n="agent-nonce-2"), BODY).exposure is Exposure.AGENT_ONLY


def test_a5_replayed_nonce_is_rejected() -> None:
    """A5: the same nonce a second time within the window is replayed_nonce."""
    verifier = make_verifier(customer())
    verifier.verify(header(), BODY)
    with pytest.raises(ReplayedNonce) as info:
        verifier.verify(header(), BODY)
    assert info.value.code == "replayed_nonce"
    assert info.value.status == 401


def test_a5_replay_with_a_different_body_or_secret_is_still_a_replay() -> None:
    """A5: a nonce is single-use across registrations and bodies alike."""
    verifier = make_verifier(customer(), agent())
    verifier.verify(header(SECRET), BODY)
    with pytest.raises(ReplayedNonce):
        verifier.verify(header(SECRET, body=b"{}"), b"{}")
    with pytest.raises(ReplayedNonce):
        verifier.verify(header(AGENT_SECRET), BODY)


def test_a5_replay_store_shared_between_verifiers_catches_replays() -> None:
    """A5: two workers sharing one store: a replay sent to the other worker is still a replay."""
    clock = Clock()
    store = MemoryReplayStore(clock=clock)
    worker_a = Verifier([customer()], store, clock=clock)
    worker_b = Verifier([customer()], store, clock=clock)
    worker_a.verify(header(), BODY)
    with pytest.raises(ReplayedNonce):
        worker_b.verify(header(), BODY)


def test_a5_nonce_stays_refused_until_its_timestamp_leaves_the_window() -> None:
    """A5/A4: a replay at the last accepted second is still refused as a replay."""
    clock = Clock(NOW)
    verifier = make_verifier(customer(), clock=clock)
    verifier.verify(header(t=NOW), BODY)
    clock.now = NOW + DEFAULT_MAX_SKEW_S
    with pytest.raises(ReplayedNonce):
        verifier.verify(header(t=NOW), BODY)
    clock.now = NOW + DEFAULT_MAX_SKEW_S + 1
    with pytest.raises(StaleTimestamp):
        verifier.verify(header(t=NOW), BODY)


def test_a5_future_timestamp_nonce_is_remembered_for_its_whole_window() -> None:
    """A5/A4: a nonce signed 300 s in the future stays refused until 600 s from now."""
    clock = Clock(NOW)
    verifier = make_verifier(customer(), clock=clock)
    future_t = NOW + DEFAULT_MAX_SKEW_S
    verifier.verify(header(t=future_t), BODY)
    clock.now = NOW + 2 * DEFAULT_MAX_SKEW_S - 1
    with pytest.raises(ReplayedNonce):
        verifier.verify(header(t=future_t), BODY)
    clock.now = NOW + 2 * DEFAULT_MAX_SKEW_S
    with pytest.raises(ReplayedNonce):
        verifier.verify(header(t=future_t), BODY)


def test_a5_same_nonce_with_a_new_timestamp_outside_the_old_window_is_accepted() -> None:
    """A5: a nonce is only remembered within the window; afterwards it may be used again."""
    clock = Clock(NOW)
    verifier = make_verifier(customer(), clock=clock)
    verifier.verify(header(t=NOW), BODY)
    clock.now = NOW + 1000
    assert verifier.verify(header(t=NOW + 1000), BODY).name == "public"


def test_a5_forged_request_does_not_burn_the_nonce() -> None:
    """A5: a nonce is recorded only after its signature verified; a forgery cannot block the genuine request."""
    reg = customer()
    verifier = make_verifier(reg)
    for forged in (header(OTHER_SECRET), f"t={NOW}, n={NONCE}, v1={HEX_A}"):
        with pytest.raises(InvalidSignature):
            verifier.verify(forged, BODY)
    with pytest.raises(InvalidSignature):
        verifier.verify(header(), BODY + b" ")
    assert verifier.verify(header(), BODY) is reg


def test_a5_stale_request_does_not_burn_the_nonce() -> None:
    """A5/A4: a stale (even correctly signed) request leaves its nonce unused."""
    reg = customer()
    verifier = make_verifier(reg, clock=Clock(NOW))
    with pytest.raises(StaleTimestamp):
        verifier.verify(header(t=NOW - 301), BODY)
    with pytest.raises(StaleTimestamp):
        verifier.verify(header(t=NOW + 301), BODY)
    assert verifier.verify(header(t=NOW), BODY) is reg


def test_a5_malformed_request_does_not_burn_the_nonce() -> None:
    """A5: a malformed header with nonce N leaves N usable."""
    reg = customer()
    verifier = make_verifier(reg)
    with pytest.raises(MalformedSignature):
        verifier.verify(f"t={NOW}, n={NONCE}, v1=zz", BODY)
    assert verifier.verify(header(), BODY) is reg


class _BrokenStore:
    def add_if_absent(self, nonce: str, expires_at: float) -> bool:
        raise ReplayStoreUnavailable("store down", retry_after_s=7)


def test_a5_unreachable_replay_store_fails_closed() -> None:
    """A5: when the store cannot answer, the request is refused with 503 + Retry-After, never accepted."""
    verifier = Verifier([customer()], _BrokenStore(), clock=Clock())
    with pytest.raises(ReplayStoreUnavailable) as info:
        verifier.verify(header(), BODY)
    assert info.value.status == 503
    assert info.value.headers() == {"Retry-After": "7"}


def test_a5_replay_store_is_not_consulted_for_unauthenticated_requests() -> None:
    """A5/A7: bad signatures never reach the store (it would raise here)."""
    verifier = Verifier([customer()], _BrokenStore(), clock=Clock())
    with pytest.raises(InvalidSignature):
        verifier.verify(header(OTHER_SECRET), BODY)
    with pytest.raises(StaleTimestamp):
        verifier.verify(header(t=NOW - 1000), BODY)


def test_a5_nonce_recorded_until_timestamp_plus_window() -> None:
    """A5: the verifier asks the store to remember the nonce past the last second t is acceptable."""
    calls: list[tuple[str, float]] = []

    class Recording:
        def add_if_absent(self, nonce: str, expires_at: float) -> bool:
            calls.append((nonce, expires_at))
            return True

    Verifier([customer()], Recording(), clock=Clock(NOW)).verify(header(t=NOW - 100), BODY)
    assert len(calls) == 1
    nonce, expires_at = calls[0]
    assert nonce == NONCE
    assert expires_at > NOW - 100 + DEFAULT_MAX_SKEW_S


def test_a6_verification_errors_do_not_echo_secret_signature_or_nonce() -> None:
    """A6: no error message contains the secret, a signature or the nonce."""
    verifier = make_verifier(customer())
    wrong = header(OTHER_SECRET)
    errors: list[AuthenticationError] = []
    for value, body in ((wrong, BODY), (header(t=NOW - 999), BODY)):
        with pytest.raises(AuthenticationError) as info:
            verifier.verify(value, body)
        errors.append(info.value)
    verifier.verify(header(), BODY)
    with pytest.raises(ReplayedNonce) as replay_info:
        verifier.verify(header(), BODY)
    errors.append(replay_info.value)
    sig = compute_signature(SECRET, NOW, NONCE, BODY)
    for error in errors:
        text = f"{error} {error.message} {error.envelope()}"
        for fragment in (SECRET, OTHER_SECRET, NONCE, sig, compute_signature(OTHER_SECRET, NOW, NONCE, BODY)):
            assert fragment not in text


# --------------------------------------------------------------------------------------
# Property tests (A2)
# --------------------------------------------------------------------------------------

_WIDE = 10**13  # a skew so large the timestamp check never interferes with the signature check


@settings(max_examples=200, deadline=None)
@given(body=st.binary(min_size=1, max_size=256), data=st.data())
def test_a2_property_any_one_byte_change_of_the_body_fails(body: bytes, data: st.DataObject) -> None:
    """A2: changing any single byte of the body makes verification fail."""
    reg = customer()
    verifier = make_verifier(reg)
    signed = header(body=body)
    index = data.draw(st.integers(min_value=0, max_value=len(body) - 1), label="index")
    new_byte = data.draw(st.integers(min_value=0, max_value=255).filter(lambda b: b != body[index]), label="byte")
    tampered = body[:index] + bytes([new_byte]) + body[index + 1 :]
    with pytest.raises(InvalidSignature):
        verifier.verify(signed, tampered)
    assert verifier.verify(signed, body) is reg


@settings(max_examples=100, deadline=None)
@given(body=st.binary(max_size=64), extra=st.binary(min_size=1, max_size=8), cut=st.booleans())
def test_a2_property_appending_or_truncating_the_body_fails(body: bytes, extra: bytes, cut: bool) -> None:
    """A2: adding or removing bytes at the end of the body makes verification fail."""
    verifier = make_verifier(customer())
    signed = header(body=body + extra)
    tampered = body if cut else body + extra + extra
    with pytest.raises(InvalidSignature):
        verifier.verify(signed, tampered)


_HEADER_CHARS = st.characters(codec="utf-8", exclude_characters="\r\n")


@settings(max_examples=200, deadline=None)
@given(data=st.data(), replacement=_HEADER_CHARS)
def test_a2_property_any_one_character_change_of_t_fails(data: st.DataObject, replacement: str) -> None:
    """A2/A1: changing one character of t makes the request invalid or malformed, never accepted."""
    t = str(NOW)
    index = data.draw(st.integers(min_value=0, max_value=len(t) - 1), label="index")
    if replacement == t[index]:
        return
    sig = compute_signature(SECRET, t, NONCE, BODY)
    changed = t[:index] + replacement + t[index + 1 :]
    verifier = make_verifier(customer(), max_skew_s=_WIDE)
    with pytest.raises((InvalidSignature, MalformedSignature)):
        verifier.verify(f"t={changed}, n={NONCE}, v1={sig}", BODY)


@settings(max_examples=200, deadline=None)
@given(data=st.data(), replacement=_HEADER_CHARS)
def test_a2_property_any_one_character_change_of_n_fails(data: st.DataObject, replacement: str) -> None:
    """A2/A1: changing one character of n makes the request invalid or malformed, never accepted."""
    index = data.draw(st.integers(min_value=0, max_value=len(NONCE) - 1), label="index")
    if replacement == NONCE[index]:
        return
    sig = compute_signature(SECRET, NOW, NONCE, BODY)
    changed = NONCE[:index] + replacement + NONCE[index + 1 :]
    verifier = make_verifier(customer())
    with pytest.raises((InvalidSignature, MalformedSignature)):
        verifier.verify(f"t={NOW}, n={changed}, v1={sig}", BODY)


@settings(max_examples=100, deadline=None)
@given(
    t=st.integers(min_value=0, max_value=10**12 - 1),
    nonce=st.text(alphabet="ABCXYZabcxyz0189._~-", min_size=8, max_size=200),
    body=st.binary(max_size=128),
)
def test_a2_property_signed_requests_round_trip(t: int, nonce: str, body: bytes) -> None:
    """A1/A2: every well-formed (t, n, body) signed with a held secret verifies."""
    reg = customer()
    verifier = make_verifier(reg, clock=Clock(t))
    assert verifier.verify(header(t=t, n=nonce, body=body), body) is reg
