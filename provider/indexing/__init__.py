"""The indexing pipeline: scan → read → decide → write, from the wiki into the indexes.

Above :mod:`provider.wiki` (reading and deciding) and :mod:`provider.search` (the Whoosh
indexes); :class:`~provider.indexing.indexer.Indexer` runs it.
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .indexer import Indexer, PendingBuild, SyncReport
    from .report import Progress

__all__ = ["Indexer", "PendingBuild", "Progress", "SyncReport"]

#: Where each name of :data:`__all__` is defined, imported when first used: a reader
#: process imports :mod:`~provider.indexing.units` only, not the writers of the indexer.
_HOMES = {"Indexer": "indexer", "PendingBuild": "indexer", "SyncReport": "indexer", "Progress": "report"}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module(f"{__name__}.{home}"), name)
