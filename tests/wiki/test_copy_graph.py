"""The near-copy graph's fast path finds exactly the pairs of the full comparison (X2, X5).

:class:`~provider.wiki.copies.CopyGraph` finds candidates by prefix filtering (only the
rarest values of each sketch are indexed and probed) and drops pairs by an upper bound
before computing their similarity. Either shortcut, if wrong, would let a public page that
nearly copies an internal one stay public. So its answers are compared, as a class, with
:func:`~provider.wiki.copies.near_copies` (every sketch value indexed, every candidate's
similarity computed) on generated corpora built like the ones that made the fast path
necessary: documents assembled from a shared pool of paragraphs, boilerplate paragraphs in
most documents, short documents with small sketches, near-copies with a few words changed,
after any sequence of additions, changes and removals (the graph's value order is taken at
its last rebuild and goes stale), at several thresholds.
"""

from __future__ import annotations

import random
from unittest.mock import patch

from hypothesis import given, settings
from hypothesis import strategies as st

from provider.wiki import copies
from provider.wiki.classify import INTERNAL, PUBLIC
from provider.wiki.copies import CopyGraph, near_copies, sketch
from provider.wiki.corpus import resolve
from provider.wiki.document import DocumentMeta

VOCABULARY = [f"{stem}{n}" for stem in ("server", "backup", "volume", "network", "image", "token") for n in range(120)]


def _corpus(seed: int, documents: int, pool: int, boilerplate: int, short: float) -> dict[str, str]:
    """``documents`` texts (key → text) assembled from ``pool`` paragraphs, each with
    every boilerplate paragraph (the first ``boilerplate`` of the pool) most of the time;
    a ``short`` share are one short paragraph (a sketch of fewer than 64 values); some are
    an earlier text with a few words changed."""
    rng = random.Random(seed)
    paragraphs = [" ".join(rng.choice(VOCABULARY) for _ in range(rng.randint(12, 40))) for _ in range(pool)]
    texts: dict[str, str] = {}
    for number in range(documents):
        roll = rng.random()
        if roll < short:
            words = rng.choice(paragraphs).split()
            text = " ".join(words[: rng.randint(10, 30)])
        elif roll < short + 0.25 and texts:
            words = rng.choice(list(texts.values())).split()
            for at in rng.sample(range(len(words)), min(len(words), rng.randint(1, 8))):
                words[at] = rng.choice(VOCABULARY)
            text = " ".join(words)
        else:
            chosen = [p for p in paragraphs[:boilerplate] if rng.random() < 0.8]
            chosen += rng.sample(paragraphs[boilerplate:], min(pool - boilerplate, rng.randint(1, 5)))
            rng.shuffle(chosen)
            text = "\n\n".join(chosen)
        texts[f"doc-{number:03d}"] = text
    return texts


corpora = st.builds(_corpus, seed=st.integers(0, 2**32), documents=st.integers(2, 60), pool=st.integers(4, 30),
                    boilerplate=st.integers(0, 3), short=st.sampled_from([0.0, 0.2, 0.5]))
#: Fewer documents, for the tests that compare after every change.
small_corpora = st.builds(_corpus, seed=st.integers(0, 2**32), documents=st.integers(2, 30), pool=st.integers(4, 20),
                          boilerplate=st.integers(0, 3), short=st.sampled_from([0.0, 0.2, 0.5]))
thresholds = st.sampled_from([0.0, 0.2, 0.35, 0.5, 0.9])


def _check(graph: CopyGraph, sketches: dict[str, str], rng: random.Random) -> None:
    present = {k: v for k, v in sketches.items() if v}
    # Every pair, whatever the roles: what the incremental rules follow (neighbours).
    every = near_copies(present, present, threshold=graph.threshold)
    for key in present:
        assert sorted(graph.neighbours(key)) == sorted(other for other, _ in every.get(key, ())), key
    # Rule 6's question: targets against sources, some keys in both.
    targets = {k: v for k, v in present.items() if rng.random() < 0.7}
    sources = {k: v for k, v in present.items() if k not in targets or rng.random() < 0.2}
    assert graph.near_copies(targets, sources) == near_copies(targets, sources, threshold=graph.threshold)
    # Rule 6's narrower question: the first pair of that list outside the target's group.
    groups = {key: rng.choice("abc") for key in present}
    expected = {}
    for target, pairs in near_copies(targets, sources, threshold=graph.threshold).items():
        kept = [pair for pair in pairs if groups[pair[0]] != groups[target]]
        if kept:
            expected[target] = kept[0]
    assert graph.closest(targets, sources, groups) == expected
    assert graph.closest(targets, sources) == {t: p[0] for t, p in near_copies(
        targets, sources, threshold=graph.threshold).items()}


@settings(max_examples=100, deadline=None)
@given(corpora, thresholds, st.integers(0, 2**32))
def test_x2_fast_path_misses_no_near_copy_of_shared_paragraph_corpora(texts: dict[str, str], threshold: float,
                                                                       seed: int) -> None:
    sketches = {key: sketch(text) for key, text in texts.items()}
    graph = CopyGraph(threshold)
    graph.sync(sketches)
    _check(graph, sketches, random.Random(seed))


@settings(max_examples=50, deadline=None)
@given(small_corpora, thresholds, st.lists(st.tuples(st.integers(0, 80), st.integers(0, 80), st.integers(0, 3)),
                                     min_size=1, max_size=12), st.integers(0, 2**32))
def test_x2_fast_path_stays_exact_after_any_sequence_of_changes(
    texts: dict[str, str], threshold: float, changes: list[tuple[int, int, int]], seed: int,
) -> None:
    """The value order goes stale as sketches change (new values count as the rarest):
    still exact, one update at a time and through a rebuilding sync."""
    sketches = {key: sketch(text) for key, text in texts.items()}
    graph = CopyGraph(threshold)
    graph.sync(sketches)
    keys = sorted(sketches)
    rng = random.Random(seed)
    for target, source, how in changes:
        key = keys[target % len(keys)] if how else f"new-{target}"
        other = sketches.get(keys[source % len(keys)], "")
        if how == 0 or how == 1:  # a copy of another document (or a new key with one)
            sketches[key] = other
        elif how == 2:  # a new text of shared words: new values, an order not seen at the rebuild
            words = texts[keys[source % len(keys)]].split()
            rng.shuffle(words)
            sketches[key] = sketch(" ".join(words[: len(words) // 2]) + " " + texts[keys[target % len(keys)]])
        else:
            sketches[key] = ""
        if rng.random() < 0.8:
            graph.update(key, sketches[key])
        else:
            graph.sync(sketches)
        _check(graph, sketches, rng)


def _meta(relpath: str, text_sketch: str, audience: str) -> DocumentMeta:
    stem = relpath.rsplit(".", 1)[0]
    return DocumentMeta(relpath=relpath, size=1, mtime_ns=0, revision="r1", doc_id=stem, title=stem,
                        audience=audience, draft=False, locale="en", translation_group=stem, text_hash=relpath,
                        sketch=text_sketch)


@settings(max_examples=40, deadline=None)
@given(corpora, st.integers(0, 2**32))
def test_x2_no_public_copy_of_internal_text_reaches_customer_safe_through_the_graph(texts: dict[str, str],
                                                                                    seed: int) -> None:
    """The rule's outcome, spelled out: with the kept graph, every public document that
    the full comparison pairs with an internal one is internal — and every decision is the
    graph-less resolve's."""
    rng = random.Random(seed)
    docs = {f"{key}.md": _meta(f"{key}.md", sketch(text), INTERNAL if rng.random() < 0.3 else PUBLIC)
            for key, text in texts.items()}
    kept = resolve(docs, default_locale="en", copies=CopyGraph())
    assert kept == resolve(docs, default_locale="en")
    targets = {p: m.sketch for p, m in docs.items() if m.audience == PUBLIC and m.sketch}
    sources = {p: m.sketch for p, m in docs.items() if m.audience == INTERNAL and m.sketch}
    for relpath in near_copies(targets, sources):
        assert not kept[relpath].public, relpath


def _cluster_corpus(seed: int, clusters: int, size: int, changed: int) -> dict[str, str]:
    """``clusters`` groups of ``size`` documents each: one boilerplate text per cluster,
    its members identical copies or the same text with up to ``changed`` words changed."""
    rng = random.Random(seed)
    texts: dict[str, str] = {}
    for cluster in range(clusters):
        words = [rng.choice(VOCABULARY) for _ in range(rng.randint(20, 120))]
        for member in range(size):
            copy = list(words)
            for at in rng.sample(range(len(copy)), rng.randint(0, min(changed, len(copy)))):
                copy[at] = rng.choice(VOCABULARY)
            texts[f"c{cluster:02d}-m{member:03d}"] = " ".join(copy)
    return texts


cluster_corpora = st.builds(_cluster_corpus, seed=st.integers(0, 2**32), clusters=st.integers(1, 4),
                            size=st.integers(2, 40), changed=st.sampled_from([0, 0, 2, 6]))


@settings(max_examples=60, deadline=None)
@given(cluster_corpora, st.sampled_from([1, 2, 24]), st.sampled_from([4, 1 << 16]), st.integers(0, 2**32))
def test_x2_closest_in_clusters_of_identical_sketches_is_the_full_comparisons_first_pair(
    texts: dict[str, str], first: int, buckets: int, seed: int,
) -> None:
    """Clusters of identical and nearly identical sketches: every candidate has the same
    bound and most the same similarity, so the answer rests on the tie by key, whatever
    share of the candidates is scored first (``_FIRST``), and whether a target's values
    are looked up by table (``_BUCKETS`` large) or by ``searchsorted`` (4 buckets: two
    values always share one)."""
    rng = random.Random(seed)
    keys = list(texts)
    rng.shuffle(keys)  # sources in no key order: the tie must be broken by key, not met first
    sketches = {key: sketch(texts[key]) for key in keys}
    graph = CopyGraph()
    graph.sync(sketches)
    with patch.object(copies, "_FIRST", first), patch.object(copies, "_BUCKETS", buckets):
        _check(graph, sketches, rng)


@settings(max_examples=60, deadline=None)
@given(cluster_corpora, st.sampled_from([1, 24]), st.integers(0, 2**32))
def test_x2_one_internal_member_of_a_cluster_withholds_its_public_copies_from_customer_safe(
    texts: dict[str, str], first: int, seed: int,
) -> None:
    """One member of each cluster of copies is internal: every public member whose text
    the full comparison finds a near-copy of it is internal too (never in the
    ``customer_safe`` index), and every decision equals the graph-less resolve's."""
    rng = random.Random(seed)
    internal = {key.partition("-")[0]: key for key in rng.sample(sorted(texts), len(texts))}
    docs = {f"{key}.md": _meta(f"{key}.md", sketch(text), INTERNAL if key in internal.values() else PUBLIC)
            for key, text in texts.items()}
    with patch.object(copies, "_FIRST", first):
        kept = resolve(docs, default_locale="en", copies=CopyGraph())
    assert kept == resolve(docs, default_locale="en")
    targets = {p: m.sketch for p, m in docs.items() if m.audience == PUBLIC and m.sketch}
    sources = {p: m.sketch for p, m in docs.items() if m.audience == INTERNAL and m.sketch}
    copied = near_copies(targets, sources)
    for relpath in copied:
        assert not kept[relpath].public, relpath
    # Identical copies of an internal text always count (similarity 1.0).
    for relpath, meta in docs.items():
        if meta.audience == PUBLIC and meta.sketch and any(meta.sketch == s for s in sources.values()):
            assert relpath in copied and not kept[relpath].public, relpath


@settings(max_examples=60, deadline=None)
@given(st.one_of(corpora, cluster_corpora), thresholds)
def test_x2_a_rebuilds_prefixes_sorted_at_once_are_each_sketchs_own(texts: dict[str, str], threshold: float) -> None:
    """A rebuild orders every sketch's values in one numpy sort; each prefix must be the
    one :meth:`CopyGraph._prefix_of` takes alone (rarest first, ties by value), or a
    near-copy could go unprobed."""
    graph = CopyGraph(threshold)
    graph.sync({key: sketch(text) for key, text in texts.items()})
    for key, ordered in graph._sorted.items():
        assert graph._prefix[key] == graph._prefix_of(ordered, known=True), key
