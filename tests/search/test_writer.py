"""provider.search.writer: TermWriter writes the same index files as Whoosh's own writer.

Whatever is added, deleted, merged or spilled, every segment file (postings, term index,
stored fields, length and sort columns) is byte for byte what ``SegmentWriter`` writes,
so searches over either give the same answers (X2's public index is written the same way
as the agent index, by the same writer).
"""

from __future__ import annotations

import os
import random
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from whoosh import index as whoosh_index
from whoosh.writing import NO_MERGE, SegmentWriter

from provider.search.schema import build_schema
from provider.search.writer import TermPool, TermWriter

WORDS = [f"w{i}" for i in range(60)] + ["refund", "invoice", "payment", "é", "日本"]

# One commit: (documents added, paths deleted before, how it commits).
Commit = tuple[int, list[int], str]


def _write(writer_class: type[SegmentWriter], folder: Path, seed: int, commits: list[Commit],
           limitmb: int) -> dict[str, list[bytes]]:
    rng = random.Random(seed)
    ix = whoosh_index.create_in(str(folder), build_schema(("en", "any")))
    for added, deleted, how in commits:
        writer = writer_class(ix, limitmb=limitmb, compound=False)
        for path in deleted:
            writer.delete_by_term("path", f"p{path}")
        for i in range(added):
            path = rng.randrange(40)
            language = rng.choice(["en", "any"])
            writer.add_document(
                key=f"p{path}#{i}", path=f"p{path}", lang=language, locale=f"{language}-x", group=rng.choice(["", "g"]),
                **{f"title_{language}": " ".join(rng.choices(WORDS, k=rng.randrange(1, 6))),
                   f"body_{language}": " ".join(rng.choices(WORDS, k=rng.randrange(0, 300))),
                   f"code_{language}": rng.choice(["", "curl -X POST refund"])},
                doc={"id": path, "n": i}, passages=("a", "b"), passage_terms=("x",), passage_internal=(),
                passage_code=(1,))
        kwargs: dict[str, Any] = {"optimize": True} if how == "optimize" else (
            {"mergetype": NO_MERGE} if how == "no-merge" else {})
        writer.commit(**kwargs)
    files: dict[str, list[bytes]] = {}
    for name in os.listdir(folder):
        # The table of contents names the (random) segment ids; the segments' own files
        # are compared by extension.
        if "." in name and not name.endswith((".toc", ".lock")):
            files.setdefault(name.split(".", 1)[1], []).append((folder / name).read_bytes())
    return {ext: sorted(contents) for ext, contents in files.items()}


commits = st.lists(st.tuples(st.integers(0, 60), st.lists(st.integers(0, 39), max_size=8),
                             st.sampled_from(["merge", "optimize", "no-merge"])), min_size=1, max_size=4)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), commits=commits, limitmb=st.sampled_from([1, 64]))
def test_x2_term_writer_writes_the_same_files_as_whoosh(seed: int, commits: list[Commit], limitmb: int) -> None:
    with tempfile.TemporaryDirectory() as ours, tempfile.TemporaryDirectory() as whoosh:
        assert _write(TermWriter, Path(ours), seed, commits, limitmb) == _write(SegmentWriter, Path(whoosh), seed,
                                                                              commits, limitmb)


def test_term_pool_spills_to_whoosh_pool_past_its_limit(tmp_path: Path) -> None:
    ix = whoosh_index.create_in(str(tmp_path), build_schema(("en",)))
    writer = TermWriter(ix, limitmb=1)
    for i in range(400):
        writer.add_document(key=f"k{i}", path=f"p{i}", body_en=" ".join(f"t{i}x{j}" for j in range(50)))
    assert isinstance(writer.pool, TermPool) and writer.pool.spilled is not None
    writer.commit()
    with ix.searcher() as searcher:
        assert searcher.doc_count() == 400
        assert searcher.document(key="k399") is not None
        assert len(list(searcher.lexicon("body_en"))) == 400 * 50


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), commits=commits,
       deletes=st.lists(st.integers(0, 45), max_size=20))
def test_x2_term_writer_deletes_by_term_what_whoosh_deletes(seed: int, commits: list[Commit],
                                                              deletes: list[int]) -> None:
    # Its deletion reads posting lists directly instead of a scored Term query: the same
    # documents (across segments, already deleted ones and absent paths included).
    with tempfile.TemporaryDirectory() as folder:
        _write(SegmentWriter, Path(folder), seed, commits, 64)
        ix = whoosh_index.open_dir(folder)
        found: dict[str, tuple[list[int], list[tuple[str, tuple[int, ...]]]]] = {}
        for writer_class in (SegmentWriter, TermWriter):
            writer = writer_class(ix)
            counts = [writer.delete_by_term("path", f"p{path}") for path in deletes]
            counts.append(writer.delete_by_term("no-such-field", "p1"))
            deleted = [(segment.segment_id(), tuple(sorted(segment.deleted_docs()))) for segment in writer.segments]
            writer.cancel()
            found[writer_class.__name__] = (counts, deleted)
        assert found["TermWriter"] == found["SegmentWriter"]
