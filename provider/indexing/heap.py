"""The garbage collector around the indexer's long-lived state.

After a pass that derived the whole corpus, the manifest, the kept decisions and the
near-copy graph are most of the heap and live until the next such pass: they are frozen
out of the collector's sight (:func:`settle_heap`). After each written batch, Whoosh's
leftovers are collected (:func:`collect_after_write`).
"""

from __future__ import annotations

import gc

__all__ = ["FREEZE_MIN_DOCS", "collect_after_write", "settle_heap"]

#: Documents from which a pass that derived the whole corpus freezes the heap
#: (:func:`settle_heap`): below, a full collection is short and the freeze's own
#: collection not worth it.
FREEZE_MIN_DOCS = 1000
#: Batches written between two full collections (see :func:`collect_after_write`).
FULL_COLLECTION_EVERY = 16


def settle_heap() -> None:
    """Collect, then move every object the collector tracks out of its sight (``gc.freeze``).

    Called after a pass that derived the whole corpus (a build, the first sync after a
    start): the manifest, the kept decisions and the near-copy graph are then most of the
    heap (millions of objects at 50,000 documents) and live until the next such pass. The
    collector's full passes walked them all, run on its own every few one-file updates
    (and by :func:`collect_after_write` every :data:`FULL_COLLECTION_EVERY`-th), which
    made the update's tail latency. Frozen objects are still freed by reference counting;
    only a reference cycle among them outlives its use, until the next call here
    unfreezes and collects everything first.
    """
    gc.unfreeze()
    gc.collect()
    gc.freeze()


def collect_after_write(writes: int) -> None:
    """Collect after the ``writes``-th written batch.

    Whoosh leaves the readers it used for deletions and merges in reference cycles that
    hold memory maps of segment files a merge just deleted; without a collection those
    descriptors pile up until the collector happens to run. They are young: the two
    younger generations hold them, and a pass over those is cheap, where a full pass over
    the heap is not; every :data:`FULL_COLLECTION_EVERY`-th batch collects everything,
    for any that grew old.
    """
    gc.collect(2 if writes % FULL_COLLECTION_EVERY == 0 else 1)
