"""The markdown-wiki provider: the contract application around the Whoosh backend.

Adapter authors replace :class:`~provider.search.backend.WhooshBackend` with their own
:class:`~provider.contract.backend.Backend`; nothing else here is specific to a wiki.
"""

from __future__ import annotations

from collections.abc import Sequence

from .config import ProviderConfig
from .contract.app import ASGIApp, create_app
from .contract.registrations import Registration
from .contract.settings import ContractSettings
from .search.backend import WhooshBackend

__all__ = ["build_app"]


def build_app(config: ProviderConfig, registrations: Sequence[Registration]) -> tuple[ASGIApp, WhooshBackend]:
    """Create the ASGI application serving ``config.index``.

    Raises:
        ConfigurationError: weak or shared secrets, or an unknown/unimplemented capability.
    """
    backend = WhooshBackend(config.index)
    settings = ContractSettings(
        registrations=list(registrations),
        capabilities=config.declared_capabilities(backend.implemented_capabilities),
    )
    return create_app(backend, settings), backend
