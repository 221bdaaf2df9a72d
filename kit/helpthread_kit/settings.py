"""Settings of the contract layer, independent of any backend."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from .capabilities import MINIMUM
from .records import RequestRecord
from .registrations import Registration, check_registrations
from .replay import ReplayStore
from .serving import default_replay_store
from .signature import DEFAULT_MAX_SKEW_S

__all__ = ["STRICT_ENV", "ContractSettings", "strict_from_environment"]

#: The variable an adapter reads to run strict (a staging deployment the checker is
#: pointed at): ``1``/``true``/``yes``/``on`` or ``0``/``false``/``no``/``off``/unset.
STRICT_ENV = "KNOWLEDGE_PROVIDER_STRICT"
_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"", "0", "false", "no", "off"})


def strict_from_environment(environ: Mapping[str, str]) -> bool:
    """``ContractSettings.strict`` as :data:`STRICT_ENV` in ``environ`` says (case and
    surrounding spaces ignored; unset is ``False``).

    Raises:
        ValueError: any other value, naming the variable and the value.
    """
    value = environ.get(STRICT_ENV, "").strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ValueError(f"{STRICT_ENV}={environ[STRICT_ENV]!r}: expected 1 or 0 (true/false, yes/no, on/off)")


@dataclass
class ContractSettings:
    """Everything :func:`~helpthread_kit.app.create_app` needs besides the backend.

    Attributes:
        registrations: the credentials served (CONTRACT X1); checked on creation.
        capabilities: the declared capabilities (default: the minimum set, C2).
        max_skew_s: replay window half-width in seconds (A4). Default 300.
        max_body_bytes: larger request bodies are refused ``413`` before they are read
            in full. Default 16 KiB: the largest valid request — a 1024-code-point query
            of astral characters, each escaped as a 12-byte surrogate pair — is 12.3 KiB.
        body_timeout_s: a body not received within this many seconds is refused ``400``.
        max_in_flight: searches admitted at once; beyond it ``503 overloaded`` at once (W7).
        max_requests: HTTP requests one process answers at once, of any route; beyond it
            ``503 overloaded`` with ``Retry-After`` in the envelope, before any other work
            (W7). Default 256: below :func:`~helpthread_kit.serving.serve`'s
            ``max_connections`` (512), where uvicorn itself would answer ``503`` in plain
            text without ``Retry-After``. ``None``: no limit.
        search_threads: worker threads that run searches (Whoosh is CPU-bound Python, so
            a few threads only keep the event loop free; more workers add throughput).
        retry_after_s: the ``Retry-After`` sent with ``503`` answers, in seconds.
        search_deadline_s: a search not finished within this many seconds is answered
            ``503 overloaded`` with ``Retry-After`` (W7), below the core's 10 s timeout
            (§4.2); its thread finishes in the background and still counts against
            ``max_in_flight`` until it does. ``None``: no deadline. Default 8.
        replay_store: where verified nonces are recorded (A5). Default: the store
            :func:`~helpthread_kit.serving.serve` was given, else in-process —
            correct for a single serving process only.
        clock: Unix time in seconds; injected for tests.
        observer: called once per answered request with a :class:`RequestRecord`
            (for metrics); must be fast and must not raise.
        strict: refuse (``500``, :class:`~helpthread_kit.errors.BackendFault`) an
            answer the contract layer would have to repair — a non-public result for
            ``customer_safe``, a field of an undeclared capability, more results than
            ``limit``… (``results.render_results``) — instead of repairing it. For the
            test kit (its default) and staging; in production repairs are made, logged
            and counted (``RequestRecord.repairs``).
    """

    registrations: Sequence[Registration]
    capabilities: frozenset[str] = MINIMUM
    max_skew_s: int = DEFAULT_MAX_SKEW_S
    max_body_bytes: int = 16384
    body_timeout_s: float = 10.0
    max_in_flight: int = 32
    max_requests: int | None = 256
    search_threads: int = 4
    retry_after_s: int = 1
    search_deadline_s: float | None = 8.0
    replay_store: ReplayStore = field(default_factory=default_replay_store)
    clock: Callable[[], float] = time.time
    observer: Callable[[RequestRecord], None] | None = None
    strict: bool = False

    def __post_init__(self) -> None:
        check_registrations(self.registrations)
        if self.max_requests is not None and self.max_requests < 1:
            raise ValueError(f"max_requests must be at least 1 or None, not {self.max_requests}")
