"""The markdown-wiki provider: the contract application around the Whoosh backend.

Adapter authors replace :class:`~provider.search.backend.WhooshBackend` with their own
:class:`~helpthread_kit.backend.Backend`; nothing else here is specific to a wiki.

``serve`` runs it in worker processes started by :func:`provider.startup.worker_app`;
workers only read the index, and are ready once the writer's marker file
(:class:`MarkerGate`) exists.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from pathlib import Path

from helpthread_kit.app import ASGIApp, create_app
from helpthread_kit.capabilities import CITATION_URL
from helpthread_kit.records import RequestRecord
from helpthread_kit.registrations import ConfigurationError, Registration
from helpthread_kit.replay import ReplayStore, open_replay_store
from helpthread_kit.settings import ContractSettings

from .config import ProviderConfig
from .search.backend import ReadyGate, WhooshBackend
from .search.embedding import EmbeddingUnavailable
from .search.semantic import Semantic

__all__ = ["MarkerGate", "build_app"]

log = logging.getLogger("provider")


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


def semantic_of(config: ProviderConfig) -> Semantic | None:
    """The ``semanticSearch`` model and fusion the configuration switches on, or ``None``.

    Raises:
        ConfigurationError: ``semantic_search`` is on and the model cannot be loaded.
    """
    if not config.semantic_search:
        return None
    try:
        return Semantic.load(config.semantic_model_path, config.semantic_weight)
    except EmbeddingUnavailable as exc:
        raise ConfigurationError(f"semantic_model: {exc}") from None


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
                            searchers=config.search_threads, declared_only=True, semantic=semantic_of(config))
    store = replay_store or open_replay_store(config.replay_store_spec, state_dir=config.state_dir)
    settings = ContractSettings(
        registrations=list(registrations),
        capabilities=config.declared_capabilities(backend.implemented_capabilities),
        max_in_flight=config.max_in_flight,
        # Below uvicorn's limit_concurrency (max_connections), which answers plain text.
        max_requests=max(1, config.max_connections // 2),
        search_threads=config.search_threads,
        replay_store=store,
        observer=observer,
    )
    if CITATION_URL in settings.capabilities and config.citation_base_url is None:
        log.warning("citationUrl is declared but citation_base_url is not set: only documents whose front matter "
                    "has an absolute https url carry one")
    return create_app(backend, settings), backend
