"""Moved to :mod:`provider.contract.httpserver` (the hardening belongs to every
provider, not only the wiki one); this name stays for existing imports."""

from .contract.httpserver import HEAD_TIMEOUT_S, PROTOCOL, HardenedH11Protocol, NoDelayH11Protocol

__all__ = ["HEAD_TIMEOUT_S", "PROTOCOL", "HardenedH11Protocol", "NoDelayH11Protocol"]
