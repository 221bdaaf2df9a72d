"""The markdown-wiki provider: the contract application around the Whoosh backend.

Adapter authors replace :class:`~provider.search.backend.WhooshBackend` with their own
:class:`~provider.contract.backend.Backend`; nothing else here is specific to a wiki.

Two ways to run it:

* one process (``serve``): :func:`build_app` is called with the live indexer's
  readiness event;
* worker processes (``serve``, one or ``--workers N``): uvicorn starts each worker with
  :func:`worker_app`, which rebuilds the same application from the settings the parent
  put in the environment and lowers its own CPU priority by ``serving_niceness``.
  Workers only read the index; the parent process is the one writer and creates a
  readiness marker file once its startup sync is done.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from .config import ProviderConfig, load_config, registrations_from_env
from .contract.app import ASGIApp, create_app
from .contract.capabilities import CITATION_URL
from .contract.records import RequestRecord
from .contract.registrations import Registration
from .contract.replay import ReplayStore, open_replay_store
from .contract.settings import ContractSettings
from .search.backend import ReadyGate, WhooshBackend

__all__ = ["WORKER_ENV", "MarkerGate", "build_app", "worker_app", "worker_environment"]

log = logging.getLogger("provider")

#: Environment variable through which ``serve`` hands its settings to worker processes.
WORKER_ENV = "KNOWLEDGE_PROVIDER_WORKER_SETTINGS"


class MarkerGate:
    """Ready once a marker file exists (the writer creates it after its startup sync).

    Args:
        path: the marker file.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._seen = False

    def is_set(self) -> bool:
        if not self._seen:
            self._seen = self.path.exists()
        return self._seen


def build_app(
    config: ProviderConfig,
    registrations: Sequence[Registration],
    *,
    ready: ReadyGate | None = None,
    replay_store: ReplayStore | None = None,
    observer: Callable[[RequestRecord], None] | None = None,
) -> tuple[ASGIApp, WhooshBackend]:
    """Create the ASGI application serving ``config.index``.

    Args:
        config: the provider's settings.
        registrations: the credentials to accept.
        ready: see :class:`~provider.search.backend.WhooshBackend`.
        replay_store: where verified nonces are recorded; default from
            ``config.replay_store_spec``.
        observer: called once per answered request (metrics).

    Raises:
        ConfigurationError: weak or shared secrets, or an unknown/unimplemented capability.
        ValueError: an unusable replay store setting.
    """
    # declared_only: the Whoosh backend fills every optional field its index has; the
    # contract layer counts removing undeclared ones as a repair (a backend fault), so
    # they are removed on the backend's side, where that is a choice (R4).
    backend = WhooshBackend(config.index, ready=ready, cache_entries=config.cache_entries,
                            cache_bytes=config.cache_mib * 1024 * 1024, fallback_locales=config.fallback_chain,
                            searchers=config.search_threads, declared_only=True)
    store = replay_store or open_replay_store(config.replay_store_spec, state_dir=config.state_dir)
    settings = ContractSettings(
        registrations=list(registrations),
        capabilities=config.declared_capabilities(backend.implemented_capabilities),
        max_in_flight=config.max_in_flight,
        search_threads=config.search_threads,
        replay_store=store,
        observer=observer,
    )
    if CITATION_URL in settings.capabilities and config.citation.base_url is None:
        log.warning("citationUrl is declared but citation_base_url is not set: only documents whose front matter "
                    "has an absolute https url carry one")
    return create_app(backend, settings), backend


def worker_environment(config_path: Path | None, overrides: Mapping[str, Any]) -> str:
    """Encode what a worker needs to rebuild the configuration (never a secret: secrets
    travel in their own environment variables)."""
    plain = {k: (str(v) if isinstance(v, Path) else v) for k, v in overrides.items() if v is not None}
    return json.dumps({"config": str(config_path) if config_path else None, "overrides": plain})


def _stop_with_parent() -> None:
    """SIGTERM this worker when the process that started it ends — even by SIGKILL or a
    crash, when its supervisor cannot stop the workers — so no serving process is left
    answering from an index nobody writes any more. A thread waiting on the parent's
    sentinel (readable once the parent is gone)."""
    import multiprocessing
    import signal
    import threading
    from multiprocessing.connection import wait

    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        wait([parent.sentinel])
        log.info("the parent process %s is gone; stopping this worker", parent.pid)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def worker_app() -> ASGIApp:
    """uvicorn factory for one serving worker process of ``serve``.

    Reads :data:`WORKER_ENV`, the secrets from their variables, and builds the
    application with the replay store ``serve`` handed down (shared with several
    workers) and the writer's readiness marker. Before that it lowers this process's
    CPU priority by ``serving_niceness`` (Unix nice; the threads it starts later
    inherit it), so the index writer in the parent wins the CPU when both want it
    (CONTRACT X7 under load).
    """
    from .logsetup import setup_logging
    from .metrics import MULTIPROC_ENV, Metrics

    spec = json.loads(os.environ[WORKER_ENV])
    overrides = dict(spec["overrides"])
    for key in ("content", "index", "ssl_certfile", "ssl_keyfile"):
        if key in overrides:
            overrides[key] = Path(overrides[key])
    config_path = Path(spec["config"]) if spec["config"] else None
    config = load_config(config_path).with_overrides(**overrides)
    setup_logging(config.log_level, config.log_format)
    _stop_with_parent()
    if config.serving_niceness and hasattr(os, "nice"):
        try:
            os.nice(config.serving_niceness)
        except OSError as exc:
            log.warning("serving_niceness %d not applied (%s): the index writer shares the CPU equally with "
                        "searches", config.serving_niceness, exc)
    metrics = Metrics() if os.environ.get(MULTIPROC_ENV) else None
    app, _ = build_app(
        config,
        registrations_from_env(),
        ready=MarkerGate(config.state_dir / "ready"),
        observer=metrics.observe_request if metrics else None,
    )
    return app
