"""Segment sub-files read in place from the memory map (provider.search.segment_files, issue 27)."""

from __future__ import annotations

import io
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from whoosh.filedb import compound, structfile

from helpthread_kit.backend import SearchQuery
from helpthread_kit.registrations import Exposure
from provider.indexing import Indexer
from provider.search.backend import WhooshBackend
from provider.search.layout import IndexLayout
from provider.search.segment_files import InPlaceBufferFile
from provider.wiki.document import WikiSettings

_steps = st.lists(st.one_of(st.tuples(st.just("read"), st.integers(-1, 40)),
                            st.tuples(st.just("seek"), st.integers(0, 40)),
                            st.tuples(st.just("skip"), st.integers(-5, 5))), max_size=20)


@given(data=st.binary(max_size=32), steps=_steps)
def test_reads_and_seeks_as_a_copy_would(data: bytes, steps: list[tuple[str, int]]) -> None:
    buf = memoryview(bytes(8) + data)[8:]  # a slice of a larger buffer, as of the map
    ours, theirs = InPlaceBufferFile(buf), structfile.BufferFile(buf)
    for kind, n in steps:
        if kind == "read":
            assert ours.read(n) == theirs.read(n)
        elif kind == "seek":
            assert ours.seek(n) == theirs.seek(n)
        elif theirs.tell() + n >= 0:
            assert ours.file.seek(n, io.SEEK_CUR) == theirs.file.seek(n, io.SEEK_CUR)
        assert ours.tell() == theirs.tell()
    assert bytes(ours.subset(1, 4).read()) == bytes(theirs.subset(1, 4).read())


def test_a_searcher_reads_its_segments_in_place_with_the_same_answers(tmp_path: Path) -> None:
    root = tmp_path / "wiki"
    for n, topic in enumerate(("dark mode", "display settings", "keyboard shortcuts", "printing")):
        (root / "en").mkdir(parents=True, exist_ok=True)
        page = f"---\naudience: public\ntitle: {topic}\n---\n\nAbout {topic}.\n"
        (root / "en" / f"p{n}.md").write_text(page, "utf-8")
    with Indexer(WikiSettings(root=root, default_locale="en", locales=("en",)), IndexLayout(tmp_path / "ix")) as ix:
        ix.sync()

    def answers() -> list[tuple[str, float | None]]:
        backend = WhooshBackend(tmp_path / "ix", fallback_locales=("en",), cache_entries=0)
        query = SearchQuery(text="dark display", limit=10, reach=Exposure.CUSTOMER_SAFE,
                            capabilities=frozenset({"retrieve"}))
        return [(r.document_id, r.score) for r in backend.search(query)]

    assert compound.BufferFile is InPlaceBufferFile  # installed by importing the backend
    in_place = answers()
    try:
        compound.BufferFile = structfile.BufferFile  # Whoosh's own: a copy of each sub-file
        copied = answers()
    finally:
        compound.BufferFile = InPlaceBufferFile
    assert in_place == copied
    assert [doc for doc, _ in in_place][:2] == ["en/p0", "en/p1"]
