"""The indexing pipeline: scan → read → decide → write, from the wiki into the indexes.

Above :mod:`provider.wiki` (reading and deciding) and :mod:`provider.search` (the Whoosh
indexes); :class:`~provider.indexing.indexer.Indexer` runs it.
"""

from .indexer import Indexer, PendingBuild, SyncReport
from .report import Progress

__all__ = ["Indexer", "PendingBuild", "Progress", "SyncReport"]
