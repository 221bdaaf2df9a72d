"""Run every check against one provider and collect a :class:`Report` (contract §8.2).

Ordinary checks run in registry order, then the *final* checks that judge every
exchange of the run; the report lists them all in registry order.
"""

from __future__ import annotations

import ssl
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from urllib.parse import urlsplit

import httpx

from . import auth, exposure, fields, framing, hostile, responses, stability, wire
from .grouping import group_dependent_failures
from .model import Check, Failed, Outcome, Skipped, Status
from .session import (
    AGENT_ONLY,
    CUSTOMER_SAFE,
    DEFAULT_TIMEOUT_S,
    Exchange,
    ProviderUnreachable,
    SecretRefused,
    Session,
)
from .transport import ASGIApp, InProcessTransport

__all__ = ["CHECKS", "Report", "check_asgi_app", "check_url", "run_checks"]

#: Every check, in the order reports list them.
CHECKS: tuple[Check, ...] = (*auth.checks, *wire.checks, *framing.checks, *fields.checks, *hostile.checks,
                             *responses.checks, *exposure.checks, *stability.checks)
USER_AGENT = "helpthread-knowledge-conformance/1"
#: Longest reason kept, in characters; a check listing many misses is cut here.
MAX_REASON_CHARS = 600
#: Said in every report that saw no sign of a strict provider: the contract layer of a
#: provider in production mode repairs what its backend gets wrong (an internal result
#: dropped, results beyond ``limit`` cut…) and only logs it.
REPAIRS_INVISIBLE = ("repairs in production mode are invisible from outside; run against a strict deployment "
                     "(KNOWLEDGE_PROVIDER_STRICT=1 in the examples, ContractSettings(strict=True)) to see "
                     "the backend faults the contract layer would otherwise repair silently")
#: What a strict provider built on the contract kit says when it refuses to repair.
STRICT_REFUSAL = "not repaired in strict mode"


@dataclass(frozen=True)
class Report:
    """The outcome of one conformance run.

    Attributes:
        target: the base URL checked (or ``"in-process"``).
        outcomes: one per check, in registry order.
        duration_s: wall-clock seconds of the whole run.
        requests: how many requests were sent.
        notes: what the run could not see, one sentence each (e.g. :data:`REPAIRS_INVISIBLE`).
    """

    target: str
    outcomes: tuple[Outcome, ...]
    duration_s: float = 0.0
    requests: int = 0
    notes: tuple[str, ...] = ()

    def count(self, status: Status) -> int:
        return sum(1 for o in self.outcomes if o.status is status)

    @property
    def failed(self) -> bool:
        """``True`` when any check failed: the provider does not conform."""
        return self.count(Status.FAIL) > 0

    def outcome(self, key: str) -> Outcome:
        """The outcome of the check with this key (``Check.key``).

        Raises:
            KeyError: no such check.
        """
        for outcome in self.outcomes:
            if outcome.key == key:
                return outcome
        raise KeyError(key)


def _redact(text: str, secrets: Sequence[str]) -> str:
    for secret in secrets:
        if secret:
            text = text.replace(secret, "[secret]")
    return text


def _run_one(check: Check, session: Session) -> tuple[Outcome, tuple[str, ...], bool]:
    """The outcome; each miss, and whether they are the check's own subject, when it failed."""
    misses: tuple[str, ...] = ()
    own = False
    try:
        status, reason = Status.PASS, check.run(session)
    except Failed as exc:
        status, reason, misses, own = Status.FAIL, str(exc), exc.misses, exc.own
    except Skipped as exc:
        status, reason = Status.SKIP, str(exc)
    except httpx.HTTPError as exc:
        status, reason = Status.FAIL, f"a request got no answer: {type(exc).__name__}: {exc}"
        misses = (reason,)
    except Exception as exc:  # one unreadable answer must not abort the whole report
        status, reason = Status.FAIL, f"the checker could not judge an answer: {type(exc).__name__}: {exc}"
        misses = (reason,)
    reason = _redact(reason or "ok", list(session.secrets.values()))
    if len(reason) > MAX_REASON_CHARS:
        reason = reason[: MAX_REASON_CHARS - 1] + "…"
    return Outcome(check.id, check.name, status, " ".join(reason.split())), misses, own


def run_checks(session: Session, *, target: str, checks: Sequence[Check] = CHECKS) -> Report:
    """Run ``checks`` on an open session.

    Args:
        session: connected to the provider; see :class:`~helpthread_kit.conformance.session.Session`.
        target: what to call the provider in the report.
        checks: which checks; all by default.
    """
    started = time.perf_counter()
    by_key: dict[str, Outcome] = {}
    sent: dict[str, tuple[list[Exchange], tuple[str, ...], bool]] = {}
    for check in [c for c in checks if not c.final] + [c for c in checks if c.final]:
        first = len(session.exchanges)
        by_key[check.key], misses, own = _run_one(check, session)
        sent[check.key] = (session.exchanges[first:], misses, own)
    outcomes = group_dependent_failures([by_key[c.key] for c in checks], sent, {c.key: c.depends_on for c in checks})
    strict_seen = any(STRICT_REFUSAL in e.body.decode("utf-8", "replace") for e in session.exchanges
                      if e.status == 500)
    return Report(
        target=target,
        outcomes=tuple(outcomes),
        duration_s=time.perf_counter() - started,
        requests=len(session.exchanges),
        notes=() if strict_seen else (REPAIRS_INVISIBLE,),
    )


def _run_client(
    client: httpx.Client,
    target: str,
    *,
    customer_safe_secret: str,
    agent_only_secret: str | None,
    canary_queries: Sequence[str],
    draft_canary_queries: Sequence[str],
    probe_queries: Sequence[str],
    clock: Callable[[], float],
    fresh_client: Callable[[], httpx.Client] | None = None,
    raw_target: framing.RawTarget | None = None,
    application_only: bool = False,
    strict_deployment: bool = False,
    document_ids_file: str | None = None,
) -> Report:
    session = Session(
        client,
        application_only=application_only,
        document_ids_file=document_ids_file,
        fresh_client=fresh_client,
        raw_target=raw_target,
        customer_safe_secret=customer_safe_secret,
        agent_only_secret=agent_only_secret,
        canary_queries=canary_queries,
        draft_canary_queries=draft_canary_queries,
        probe_queries=probe_queries,
        clock=clock,
    )
    for profile, secret in ((CUSTOMER_SAFE, customer_safe_secret), (AGENT_ONLY, agent_only_secret)):
        if secret is None:
            continue
        answer = session.capabilities(profile)
        if answer.status == 401:
            raise SecretRefused(
                f"a correctly signed GET /capabilities with the {profile} secret given was answered "
                f"{answer.describe()}: either that secret is not the one of the provider's {profile} "
                "registration, or its signature verification is broken (A1, A2); no other check can run"
            )
    report = run_checks(session, target=target)
    return replace(report, notes=()) if strict_deployment else report


def _raw_target(base: str, verify: ssl.SSLContext | bool) -> framing.RawTarget | None:
    parts = urlsplit(base)
    if not parts.hostname or parts.scheme not in ("http", "https"):
        return None
    tls: ssl.SSLContext | None = None
    if parts.scheme == "https":
        tls = verify if isinstance(verify, ssl.SSLContext) else ssl.create_default_context()
    return framing.RawTarget(parts.hostname, parts.port or (443 if tls else 80), parts.path or "/", tls)


def check_url(
    url: str,
    *,
    customer_safe_secret: str,
    agent_only_secret: str | None = None,
    canary_queries: Sequence[str] = (),
    draft_canary_queries: Sequence[str] = (),
    probe_queries: Sequence[str] = (),
    timeout_s: float = DEFAULT_TIMEOUT_S,
    clock: Callable[[], float] = time.time,
    cafile: str | None = None,
    application_only: bool = False,
    strict_deployment: bool = False,
    document_ids_file: str | None = None,
) -> Report:
    """Check a provider over HTTP(S).

    Args:
        url: the provider's base URL, e.g. ``https://kb.example.com/helpthread``;
            ``/retrieve`` and ``/capabilities`` are appended.
        customer_safe_secret: the secret of its ``customer_safe`` registration.
        agent_only_secret: the secret of its ``agent_only`` registration, if any.
        canary_queries: phrases that occur only in internal documents (X2–X4).
        draft_canary_queries: phrases that occur only in drafts and unpublished
            documents (X5).
        probe_queries: queries known to find public documents.
        timeout_s: per-request timeout in seconds.
        clock: Unix seconds used to sign.
        cafile: a PEM certificate (or CA bundle) to trust for https, e.g. a dev-cert.
        application_only: ``url`` is the application served without the reverse proxy
            of its deployment (a test): the proxy's duties (W4 on requests that never
            reach the application) are skipped, saying so.
        strict_deployment: the operator vouches that ``url`` runs strict
            (``ContractSettings(strict=True)``): a repair would show as a ``500``, so the
            report drops its note that repairs are invisible.
        document_ids_file: a JSON file of the documentIds seen: written when absent,
            compared with when present — run, restart or re-index, run again (R2).

    Raises:
        ProviderUnreachable: no HTTP answer at all from ``url``.
        SecretRefused: a correctly signed request with a secret given was answered 401.
    """
    base = url.rstrip("/")
    headers = {"User-Agent": USER_AGENT}
    verify: ssl.SSLContext | bool = ssl.create_default_context(cafile=cafile) if cafile else True
    def fresh_client() -> httpx.Client:
        # A new connection each time, closed after one request: behind several workers
        # or replicas, a replay must be refused wherever it lands (A5).
        return httpx.Client(base_url=base, timeout=timeout_s, headers={**headers, "Connection": "close"},
                            follow_redirects=False, verify=verify)

    with httpx.Client(base_url=base, timeout=timeout_s, headers=headers, follow_redirects=False,
                      verify=verify) as client:
        try:
            client.get("/capabilities")
        except httpx.HTTPError as exc:
            raise ProviderUnreachable(f"cannot reach {base}: {type(exc).__name__}: {exc}") from None
        return _run_client(
            client, base, customer_safe_secret=customer_safe_secret, agent_only_secret=agent_only_secret,
            canary_queries=canary_queries, draft_canary_queries=draft_canary_queries, probe_queries=probe_queries,
            clock=clock, fresh_client=fresh_client, raw_target=_raw_target(base, verify),
            application_only=application_only, strict_deployment=strict_deployment,
            document_ids_file=document_ids_file,
        )


def check_asgi_app(
    app: ASGIApp | Sequence[ASGIApp],
    *,
    customer_safe_secret: str,
    agent_only_secret: str | None = None,
    canary_queries: Sequence[str] = (),
    draft_canary_queries: Sequence[str] = (),
    probe_queries: Sequence[str] = (),
    clock: Callable[[], float] = time.time,
    strict_deployment: bool = False,
    document_ids_file: str | None = None,
) -> Report:
    """Check an ASGI application in-process (no socket); arguments as for :func:`check_url`.

    ``app`` may be several applications, one per simulated worker process: requests
    then go to each in turn (see :class:`~helpthread_kit.conformance.transport.InProcessTransport`).

    Raises:
        SecretRefused: a correctly signed request with a secret given was answered 401.
    """
    transport = InProcessTransport(app)
    headers = {"User-Agent": USER_AGENT}
    with httpx.Client(transport=transport, base_url="http://provider.invalid", headers=headers) as client:
        return _run_client(
            client, "in-process", customer_safe_secret=customer_safe_secret, agent_only_secret=agent_only_secret,
            canary_queries=canary_queries, draft_canary_queries=draft_canary_queries, probe_queries=probe_queries,
            clock=clock, strict_deployment=strict_deployment, document_ids_file=document_ids_file,
        )
