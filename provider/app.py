"""The markdown-wiki provider: the contract application around the Whoosh backend.

Adapter authors replace :class:`~provider.search.backend.WhooshBackend` with their own
:class:`~provider.contract.backend.Backend`; nothing else here is specific to a wiki.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

from .config import ProviderConfig
from .contract.app import ASGIApp, create_app
from .contract.registrations import Registration
from .contract.settings import ContractSettings
from .search.backend import WhooshBackend

__all__ = ["build_app"]


def build_app(
    config: ProviderConfig, registrations: Sequence[Registration], *, ready: threading.Event | None = None
) -> tuple[ASGIApp, WhooshBackend]:
    """Create the ASGI application serving ``config.index``.

    Args:
        config: the provider's settings.
        registrations: the credentials to accept.
        ready: see :class:`~provider.search.backend.WhooshBackend`.

    Raises:
        ConfigurationError: weak or shared secrets, or an unknown/unimplemented capability.
    """
    backend = WhooshBackend(config.index, ready=ready)
    settings = ContractSettings(
        registrations=list(registrations),
        capabilities=config.declared_capabilities(backend.implemented_capabilities),
    )
    return create_app(backend, settings), backend
