"""Authentication checks (CONTRACT W2, A1–A7; contract §3.1).

Every check that expects a refusal first makes sure the same request, correctly
signed, would have been accepted — otherwise a provider refusing everything would pass.
Each variant uses a fresh nonce, so no refusal can be explained by an earlier request.
"""

from __future__ import annotations

import secrets as _secrets
from collections.abc import Callable

from ..testing import JSON_CONTENT_TYPE, new_nonce
from .expect import Tally
from .model import CheckGroup, Failed, Skipped
from .session import CUSTOMER_SAFE, Exchange, Session, encode, v1

__all__ = ["checks"]

checks = CheckGroup()

SIGNATURE = "X-Helpthread-Signature"
REQUEST_ID = "X-Helpthread-Request"
VERSION = "X-Helpthread-Knowledge-Version"
#: Any valid request will do: authentication must not depend on the corpus.
BODY = encode({"query": "password reset", "limit": 1})
#: The contract's window is 300 s (A4); 10 s either side of it absorbs request latency
#: and a clock skew of a few seconds without making the test meaningless.
INSIDE_S = 290
OUTSIDE_S = 310
#: Beyond this measured skew between checker and provider, window checks cannot be judged.
MAX_TOLERATED_SKEW_S = 5


def _other_secret() -> str:
    """A secret the provider cannot know."""
    return _secrets.token_urlsafe(48)


def _send(
    s: Session, header: str, *, body: bytes = BODY, nonce: str | None = None, profile: str | None = None
) -> Exchange:
    """POST /retrieve with a hand-built signature header; everything else as the core sends it."""
    headers = {SIGNATURE: header, VERSION: "1", "Content-Type": JSON_CONTENT_TYPE}
    if nonce is not None and nonce.isascii() and nonce.isprintable():
        headers[REQUEST_ID] = nonce
    return s.send("POST", "/retrieve", body=body, headers=headers, profile=profile)


def _signed_header(s: Session, profile: str = CUSTOMER_SAFE, *, timestamp: int | None = None,
                   nonce: str | None = None, body: bytes = BODY) -> tuple[str, str, str, str]:
    """``(t, n, v1, header)`` for a correct signature of ``body``."""
    t = str(s.now() if timestamp is None else timestamp)
    n = nonce or new_nonce()
    sig = v1(s.secret(profile), t, n, body)
    return t, n, sig, f"t={t}, n={n}, v1={sig}"


def _accepted_baseline(s: Session, profile: str = CUSTOMER_SAFE) -> None:
    """Send one correct request; a provider that refuses it cannot be judged on refusals.

    Raises:
        Failed: the correct request was not answered 200.
    """
    exchange = s.retrieve(BODY, profile)
    if exchange.status != 200:
        raise Failed(f"a correctly signed {profile} request answered {exchange.describe()}, so refusals prove nothing")


def _window_usable(s: Session) -> None:
    skew = s.clock_skew_s()
    if skew is not None and abs(skew) > MAX_TOLERATED_SKEW_S:
        raise Skipped(
            f"the provider's Date header is {skew:+.0f} s from this machine's clock; synchronise the clocks (NTP) "
            "to judge the 300 s window"
        )


@checks.register("W2", "unsigned requests are refused on both routes")
def unsigned(s: Session) -> str:
    """W2, A1 (§3.1, §4.1): no signature on either route is 401 missing_signature."""
    _accepted_baseline(s)
    tally = Tally()
    version = {VERSION: "1"}
    tally.expect("POST /retrieve without a signature",
                 s.send("POST", "/retrieve", body=BODY, headers={**version, "Content-Type": JSON_CONTENT_TYPE}),
                 401, {"missing_signature"})
    tally.expect("GET /capabilities without a signature", s.send("GET", "/capabilities", headers=version),
                 401, {"missing_signature"})
    tally.expect("an empty signature header", _send(s, ""), 401, {"missing_signature", "malformed_signature"})
    return tally.verdict("answered 401 missing_signature without a signature, on /retrieve and /capabilities")


@checks.register("A2", "a signature made with another secret is refused")
def wrong_secret(s: Session) -> str:
    """A2 (§3.1): a well-formed v1 made with a secret the provider cannot know is 401."""
    _accepted_baseline(s)
    tally = Tally()
    n = new_nonce()
    t = str(s.now())
    tally.expect("POST /retrieve", _send(s, f"t={t}, n={n}, v1={v1(_other_secret(), t, n, BODY)}", nonce=n),
                 401, {"invalid_signature"})
    n = new_nonce()
    header = f"t={t}, n={n}, v1={v1(_other_secret(), t, n, b'')}"
    tally.expect("GET /capabilities", s.send("GET", "/capabilities", headers={SIGNATURE: header, VERSION: "1"}),
                 401, {"invalid_signature"})
    return tally.verdict("answered 401 invalid_signature on both routes")


@checks.register("A2", "a tampered body, timestamp or nonce is refused")
def tampered(s: Session) -> str:
    """A2 (§3.1): the body, t and n are all inside the signed material — changing any one is 401."""
    _accepted_baseline(s)
    tally = Tally()
    bodies = {
        "one byte of the body changed": BODY.replace(b"password", b"passwore"),
        "a space appended to the body": BODY + b" ",
        "a newline appended to the body": BODY + b"\n",
        "the body truncated by one byte": BODY[:-1],
    }
    for label, sent in bodies.items():
        t, n, _, header = _signed_header(s)
        tally.expect(label, _send(s, header, body=sent, nonce=n), 401, {"invalid_signature"})
    t, n, sig, _ = _signed_header(s)
    tally.expect("t changed by one second", _send(s, f"t={int(t) - 1}, n={n}, v1={sig}", nonce=n),
                 401, {"invalid_signature"})
    t, n, sig, _ = _signed_header(s)
    other = new_nonce()
    tally.expect("n changed", _send(s, f"t={t}, n={other}, v1={sig}", nonce=other), 401, {"invalid_signature"})
    return tally.verdict(f"all {tally.tried} tampered requests answered 401 invalid_signature")


@checks.register("A2", "the signature covers the raw bytes, not a re-serialization")
def raw_bytes(s: Session) -> str:
    """A2 (§3.1): verification uses the bytes received. Odd-but-exact bytes (spaces, a ``\\u00e9``
    escape) signed as sent are accepted; the same bytes signed in a re-serialized form are
    refused — a verifier that re-encodes the parsed JSON gets both wrong."""
    tally = Tally()
    spaced = b'{ "query" : "password reset" ,\n  "limit" : 1 }'
    escaped = b'{"query":"caf\\u00e9 password","limit":1}'
    for label, raw in (("spaced JSON", spaced), ("JSON with a \\u escape", escaped)):
        _, n, _, header = _signed_header(s, body=raw)
        exchange = _send(s, header, body=raw, nonce=n, profile=CUSTOMER_SAFE)
        tally.expect(f"{label} signed over its own bytes", exchange, 200)
    reserialized = {
        "spaced JSON signed in compact form": (spaced, b'{"query":"password reset","limit":1}'),
        "spaced JSON signed in Python's default form": (spaced, b'{"query": "password reset", "limit": 1}'),
        "escaped JSON signed unescaped": (escaped, '{"query":"café password","limit":1}'.encode()),
    }
    for label, (sent, signed) in reserialized.items():
        t, n, _, _ = _signed_header(s, body=signed)
        header = f"t={t}, n={n}, v1={v1(s.secret(CUSTOMER_SAFE), t, n, signed)}"
        tally.expect(label, _send(s, header, body=sent, nonce=n), 401, {"invalid_signature"})
    return tally.verdict("bodies signed over their exact bytes were accepted; the same bodies signed over a "
                         "re-serialization were refused")


@checks.register("A2", "hexadecimal signatures are accepted in either case")
def hex_case(s: Session) -> str:
    """A2: hexadecimal is accepted in either case."""
    tally = Tally()
    t, n, sig, _ = _signed_header(s)
    tally.expect("upper-case v1", _send(s, f"t={t}, n={n}, v1={sig.upper()}", nonce=n, profile=CUSTOMER_SAFE), 200)
    return tally.verdict("an upper-case v1 was accepted")


@checks.register("A4", "timestamps just inside the window are accepted")
def inside_window(s: Session) -> str:
    """A4 (§3.1): ±290 s is inside the 300 s window. Skipped when the provider's ``Date``
    header shows the clocks more than 5 s apart, which would make the boundary unfair."""
    _window_usable(s)
    tally = Tally()
    for offset in (-INSIDE_S, INSIDE_S):
        _, n, _, header = _signed_header(s, timestamp=s.now() + offset)
        tally.expect(f"t=now{offset:+d}s", _send(s, header, nonce=n, profile=CUSTOMER_SAFE), 200)
    return tally.verdict(f"t=now-{INSIDE_S}s and t=now+{INSIDE_S}s were accepted")


@checks.register("A4", "timestamps outside the window are refused, past and future")
def outside_window(s: Session) -> str:
    """A4 (§3.1): ±310 s, ±1 day and t=0 are refused — future as well as past."""
    _window_usable(s)
    _accepted_baseline(s)
    tally = Tally()
    for offset in (-OUTSIDE_S, OUTSIDE_S, -86_400, 86_400):
        _, n, _, header = _signed_header(s, timestamp=s.now() + offset)
        tally.expect(f"t=now{offset:+d}s", _send(s, header, nonce=n), 401, {"stale_timestamp"})
    _, n, _, header = _signed_header(s, timestamp=0)
    tally.expect("t=0", _send(s, header, nonce=n), 401, {"stale_timestamp"})
    return tally.verdict(f"t=now-{OUTSIDE_S}s, now+{OUTSIDE_S}s, ±1 day and 0 all answered 401 stale_timestamp")


@checks.register("A1", "malformed timestamps, nonces and signatures are refused")
def malformed(s: Session) -> str:
    """A1 and the project's header rules: each malformed t, n or v1 is 401, even when the
    signature over it is correct. Traps for lenient parsers: ``+<now>`` and ``000<now>``
    are the current time to ``int()`` but not a decimal of at most 12 digits."""
    _accepted_baseline(s)
    secret = s.secret(CUSTOMER_SAFE)
    now = s.now()

    def header(t: str, n: str) -> str:
        return f"t={t}, n={n}, v1={v1(secret, t, n, BODY)}"

    malformed_tn: dict[str, Callable[[str], str]] = {
        "t is not a number": lambda n: header("abc", n),
        "t is empty": lambda n: header("", n),
        "t has a fraction": lambda n: header(f"{now}.5", n),
        "t has a plus sign": lambda n: header(f"+{now}", n),
        "t has 13 digits": lambda n: header(f"000{now}", n),
        "t is hexadecimal": lambda n: header(hex(now), n),
        "t is missing": lambda n: f"n={n}, v1={v1(secret, now, n, BODY)}",
        "t appears twice": lambda n: f"t={now}, t={now - 1000}, n={n}, v1={v1(secret, now, n, BODY)}",
        "n appears twice": lambda n: f"t={now}, n={n}, n={new_nonce()}, v1={v1(secret, now, n, BODY)}",
    }
    tally = Tally()
    for label, build in malformed_tn.items():
        n = new_nonce()
        tally.expect(label, _send(s, build(n), nonce=n), 401, {"malformed_signature"})
    bad_nonces = {
        "n has 7 characters": "abcdefg",
        "n has 201 characters": "a" * 201,
        "n contains a space": "abc def ghi jkl",
        "n contains a slash": "abcd/efgh/ijkl",
        "n contains a plus sign": "abcd+efgh+ijkl",
        "n is empty": "",
    }
    for label, n in bad_nonces.items():
        tally.expect(label, _send(s, header(str(now), n), nonce=n), 401, {"malformed_signature"})
    # A broken v1 may fairly be called malformed or invalid.
    either = {"malformed_signature", "invalid_signature"}
    for label, value in (("v1 is not hexadecimal", "z" * 64), ("v1 has 63 digits", "a" * 63), ("v1 is empty", "")):
        n = new_nonce()
        tally.expect(label, _send(s, f"t={now}, n={n}, v1={value}", nonce=n), 401, either)
    n = new_nonce()
    tally.expect("v1 is missing", _send(s, f"t={now}, n={n}", nonce=n), 401, either)
    return tally.verdict(f"all {tally.tried} malformed headers answered 401")


@checks.register("A1", "header items in any order and with whitespace are accepted")
def item_order(s: Session) -> str:
    """A1: items in any order, with spaces and tabs around them, are accepted."""
    tally = Tally()
    layouts = {
        "no spaces": "t={t},n={n},v1={v}",
        "reversed order": "v1={v}, n={n}, t={t}",
        "v1 first, no spaces": "v1={v},t={t},n={n}",
        "tabs and spaces around items": "t={t} ,\tn={n}\t,   v1={v}",
    }
    for label, layout in layouts.items():
        t, n, sig, _ = _signed_header(s)
        tally.expect(label, _send(s, layout.format(t=t, n=n, v=sig), nonce=n, profile=CUSTOMER_SAFE), 200)
    return tally.verdict(f"all {tally.tried} layouts were accepted")


@checks.register("A1", "unknown signature header keys are ignored")
def unknown_keys(s: Session) -> str:
    """A1: unknown keys (a future ``v2``) are ignored, wherever they appear."""
    tally = Tally()
    extras = {
        "a future v2 after v1": "{base}, v2=" + "ab" * 32,
        "an unknown key first": "scheme=hmac-sha256, {base}",
        "a v0 key in the middle": "t={t}, v0=legacy, n={n}, v1={v}",
    }
    for label, layout in extras.items():
        t, n, sig, base = _signed_header(s)
        tally.expect(label, _send(s, layout.format(base=base, t=t, n=n, v=sig), nonce=n, profile=CUSTOMER_SAFE), 200)
    return tally.verdict(f"all {tally.tried} headers with unknown keys were accepted")


@checks.register("A3", "rotation: a matching v1 is accepted first or second")
def rotation(s: Session) -> str:
    """A3 (§3.1 rotation): with two v1 values the request is accepted whichever one matches."""
    tally = Tally()
    for profile in s.profiles():
        for position in ("first", "second"):
            t, n, good, _ = _signed_header(s, profile)
            other = v1(_other_secret(), t, n, BODY)
            pair = (good, other) if position == "first" else (other, good)
            exchange = _send(s, f"t={t}, n={n}, v1={pair[0]}, v1={pair[1]}", nonce=n, profile=profile)
            tally.expect(f"{profile}, matching v1 {position}", exchange, 200)
    return tally.verdict(f"accepted with the matching v1 first and second ({', '.join(s.profiles())})")


#: Replays sent over fresh connections: behind two workers with per-process stores, the
#: chance that every one lands on the worker that saw the original is 2**-REPLAYS.
REPLAYS = 12


@checks.register("A5", "a replayed request is refused")
def replay(s: Session) -> str:
    """A5 (§3.1): the identical bytes of an accepted request are refused, every time —
    :data:`REPLAYS` times over fresh connections (behind several workers or replicas
    without a shared store, one of them would reach a process that never saw the nonce
    and get through), once on the kept-alive connection, and on ``/capabilities`` too."""
    tally = Tally()
    headers = s.signed(BODY)
    first = s.send("POST", "/retrieve", body=BODY, headers=headers, profile=CUSTOMER_SAFE, fresh=True)
    if first.status != 200:
        raise Failed(f"a fresh, correctly signed request answered {first.describe()}, so a refused replay "
                     "proves nothing")
    for attempt in range(1, REPLAYS + 1):
        again = s.send("POST", "/retrieve", body=BODY, headers=headers, profile=CUSTOMER_SAFE, fresh=True)
        tally.expect(f"POST /retrieve replay #{attempt} (new connection)", again, 401, {"replayed_nonce"})
    again = s.send("POST", "/retrieve", body=BODY, headers=headers, profile=CUSTOMER_SAFE)
    tally.expect("POST /retrieve replay (kept-alive connection)", again, 401, {"replayed_nonce"})
    headers = s.signed(b"", content_type=None)
    first = s.send("GET", "/capabilities", headers=headers, profile=CUSTOMER_SAFE, fresh=True)
    if first.status != 200:
        tally.miss(f"a fresh GET /capabilities answered {first.describe()}")
    else:
        for attempt in range(1, 5):
            again = s.send("GET", "/capabilities", headers=headers, fresh=True)
            tally.expect(f"GET /capabilities replay #{attempt} (new connection)", again, 401, {"replayed_nonce"})
    if tally.misses:
        tally.miss("if several workers or replicas serve, their replay store must be shared by all of them (A5)")
    return tally.verdict(f"identical bytes sent again were refused 401 replayed_nonce ({REPLAYS} times over new "
                         "connections and once kept-alive on /retrieve, 4 times on /capabilities)")


@checks.register("A5", "a used nonce is refused with another body or route")
def nonce_reuse(s: Session) -> str:
    """A5: a nonce already accepted is refused with a new body, signed afresh, and on the
    other route — the nonce, not the request, is what is remembered."""
    n = new_nonce()
    first = s.retrieve(BODY, nonce=n)
    if first.status != 200:
        raise Failed(f"a fresh, correctly signed request answered {first.describe()}")
    tally = Tally()
    tally.expect("same nonce, another body, signed afresh",
                 s.retrieve(encode({"query": "invoice", "limit": 2}), nonce=n), 401, {"replayed_nonce"})
    headers = s.signed(b"", nonce=n, content_type=None)
    tally.expect("same nonce on GET /capabilities", s.send("GET", "/capabilities", headers=headers), 401,
                 {"replayed_nonce"})
    return tally.verdict("a nonce used once was refused 401 replayed_nonce with a new body and on the other route")


@checks.register("A5", "a forged request does not burn its nonce")
def forged_does_not_burn(s: Session) -> str:
    """A5: a nonce is recorded only after its signature verified. A request with nonce N
    and a wrong signature (another secret; a changed body) is refused, then a genuine
    request with N must be accepted — otherwise anyone could block the core's nonces."""
    tally = Tally()
    forgeries: tuple[tuple[str, Callable[[str, str, str], tuple[str, bytes]]], ...] = (
        ("signed with another secret", lambda t, n, sig: (v1(_other_secret(), t, n, BODY), BODY)),
        ("a changed body under a genuine signature", lambda t, n, sig: (sig, BODY.replace(b"password", b"passwore"))),
    )
    for forgery, forge in forgeries:
        t, n, sig, _ = _signed_header(s)
        signature, body = forge(t, n, sig)
        forged = _send(s, f"t={t}, n={n}, v1={signature}", body=body, nonce=n)
        tally.expect(f"forged: {forgery}", forged, 401, {"invalid_signature"})
        genuine = s.retrieve(BODY, nonce=n)
        if genuine.status == 401 and genuine.error_code == "replayed_nonce":
            tally.miss(f"a genuine request reusing the nonce of a forged request ({forgery}) was refused "
                       "replayed_nonce: the forged request burned the nonce")
        else:
            tally.expect(f"genuine request after the forgery ({forgery})", genuine, 200)
    return tally.verdict("after a refused forgery with nonce N, a genuine request with N was accepted")


@checks.register("A7", "authentication comes before JSON parsing")
def auth_before_parsing(s: Session) -> str:
    """A7: invalid JSON without a valid signature is 401, not 400 — nothing is parsed
    before the caller is authenticated."""
    _accepted_baseline(s)
    tally = Tally()
    broken = b'{"query": "password'
    headers = {VERSION: "1", "Content-Type": JSON_CONTENT_TYPE}
    tally.expect("unsigned invalid JSON", s.send("POST", "/retrieve", body=broken, headers=headers),
                 401, {"missing_signature"})
    t, n = str(s.now()), new_nonce()
    tally.expect("invalid JSON signed with another secret",
                 _send(s, f"t={t}, n={n}, v1={v1(_other_secret(), t, n, broken)}", body=broken, nonce=n),
                 401, {"invalid_signature"})
    return tally.verdict("invalid JSON without a valid signature answered 401, not 400")


def _tokens(exchange: Exchange) -> dict[str, str]:
    """What the request carried that must never come back: nonce and v1 values."""
    tokens: dict[str, str] = {}
    for item in exchange.request_headers.get(SIGNATURE, "").split(","):
        key, _, value = item.strip().partition("=")
        value = value.strip()
        # Short values (the malformed-nonce probes) could match by coincidence.
        if key == "n" and len(value) >= 16:
            tokens[value.lower()] = "the nonce"
        elif key == "v1" and len(value) == 64:
            tokens[value.lower()] = "a v1 signature"
    return tokens


@checks.register("A6", "no secret, signature or nonce is echoed in any answer", final=True)
def nothing_echoed(s: Session) -> str:
    """A6 (final): no answer, body or header, contains a secret, a v1 or a nonce (of 16+
    characters) that was sent in any request of the run."""
    secrets = {value.lower(): f"the {profile} secret" for profile, value in s.secrets.items()}
    tally = Tally()
    for exchange in s.exchanges:
        answer = (exchange.body.decode("utf-8", "replace") + "\n" + "\n".join(
            f"{k}: {v}" for k, v in exchange.headers.items())).lower()
        for token, what in {**_tokens(exchange), **secrets}.items():
            if token in answer:
                tally.miss(f"{what} appears in the answer to {exchange.method} {exchange.path} ({exchange.status})")
                break
        if len(tally.misses) >= 3:
            break
    return tally.verdict(f"none of {len(s.exchanges)} answers echoed a secret, signature or nonce")

