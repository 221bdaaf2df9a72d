"""The public index of a cold build written in a second process (provider.indexing.sidewriter)
is the index the main process writes: the same stored fields, postings and lengths, and no internal
document or section in it (X2)."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from whoosh import index as whoosh_index

from provider.indexing import Indexer
from provider.indexing import write as write_module
from provider.indexing.sidewriter import SideWriter, SideWriterFailed
from provider.search.layout import ALL, PUBLIC, IndexLayout
from provider.wiki.document import WikiSettings

WORDS = "invoice refund payment export report customer token webhook limit receipt".split()


def _wiki(root: Path, count: int) -> None:
    rng = random.Random(7)
    for i in range(count):
        audience = "internal" if i % 4 == 0 else "public"
        body = " ".join(rng.choices(WORDS, k=40))
        internal = f"\n\n<!-- internal -->\nSecret canary{i} zebrafish.\n<!-- /internal -->\n" if i % 3 == 0 else ""
        locale = "de" if i % 5 == 0 else "en"
        path = root / f"s{i % 3}" / f"page-{i:03d}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"---\ntitle: Page {i}\naudience: {audience}\nlocale: {locale}\n---\n# Page {i}\n\n{body}"
                        f"{internal}\n\n## More\n\n{' '.join(rng.choices(WORDS, k=30))}\n", "utf-8")


def _contents(index: Path, sub: str) -> tuple[object, ...]:
    """Everything a search reads, by entry key (the order in which documents are added
    follows the reader processes, in both ways of writing): stored fields, every term's
    postings (entry, weight, encoded value) and every entry's field lengths."""
    layout = IndexLayout(index)
    name = layout.current_name()
    assert name is not None
    with whoosh_index.open_dir(str(layout.build_dir(name) / sub)).searcher() as searcher:
        reader = searcher.reader()
        keys = {docnum: reader.stored_fields(docnum)["key"] for docnum in reader.all_doc_ids()}
        stored = {keys[docnum]: reader.stored_fields(docnum) for docnum in keys}
        postings = {}
        for fieldname, text in reader.all_terms():
            matcher = reader.postings(fieldname, text)
            found = []
            while matcher.is_active():
                found.append((keys[matcher.id()], matcher.weight(), matcher.value()))
                matcher.next()
            postings[(fieldname, text)] = sorted(found)
        lengths = {(keys[docnum], field): reader.doc_field_length(docnum, field) for docnum in keys
                   for field in reader.schema.scorable_names()}
        return stored, postings, lengths


def _build(content: Path, index: Path, *, side: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(write_module, "SIDE_WRITER_MIN_DOCS", 0 if side else 10**9)
    monkeypatch.setattr(write_module, "SIDE_WRITER_MIN_BATCH", 10**9)
    with Indexer(WikiSettings(root=content, locales=("en", "de")), IndexLayout(index)) as indexer:
        report = indexer.sync()
        assert ("wait for the public index (second process)" in report.timings) is side


def test_x2_public_index_from_the_second_process_equals_the_one_written_in_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    content = tmp_path / "content"
    _wiki(content, 40)
    _build(content, tmp_path / "side", side=True, monkeypatch=monkeypatch)
    _build(content, tmp_path / "here", side=False, monkeypatch=monkeypatch)
    for sub in (PUBLIC, ALL):
        assert _contents(tmp_path / "side", sub) == _contents(tmp_path / "here", sub)
    layout = IndexLayout(tmp_path / "side")
    name = layout.current_name()
    assert name is not None
    with whoosh_index.open_dir(str(layout.build_dir(name) / PUBLIC)).searcher() as searcher:
        stored = list(searcher.all_stored_fields())
        assert stored and all(fields["doc"]["audience"] == "public" for fields in stored)
        assert not any("canary" in text for fields in stored for text in fields["passages"])
        assert not any(term.startswith(b"canary") for term in searcher.lexicon("body_en"))


def test_x2_a_batch_with_the_agent_index_written_beside_equals_one_written_in_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    content = tmp_path / "content"
    _wiki(content, 30)
    _build(content, tmp_path / "beside", side=False, monkeypatch=monkeypatch)
    shutil.copytree(tmp_path / "beside", tmp_path / "here")
    changed = []
    for i, path in enumerate(sorted(content.rglob("*.md"))):
        text = path.read_text("utf-8")
        if i % 4 == 1:  # public -> internal
            text = text.replace("audience: public", "audience: internal")
        elif i % 4 == 0:  # internal -> public
            text = text.replace("audience: internal", "audience: public")
        if i % 7 == 3:
            path.unlink()
        else:
            path.write_text(text + f"\nEdited {i} refund.\n", "utf-8")
        changed.append(path.relative_to(content).as_posix())
    reports = {}
    for name, threshold in (("beside", 1), ("here", 10**9)):
        monkeypatch.setattr(write_module, "SIDE_WRITER_MIN_BATCH", threshold)
        with Indexer(WikiSettings(root=content, locales=("en", "de")), IndexLayout(tmp_path / name)) as indexer:
            reports[name] = indexer.sync(changed)
    assert reports["beside"].written == reports["here"].written > 0
    assert reports["beside"].removed == reports["here"].removed > 0
    for sub in (PUBLIC, ALL):
        assert _contents(tmp_path / "beside", sub) == _contents(tmp_path / "here", sub)


def test_a_failing_second_process_fails_the_commit(tmp_path: Path) -> None:
    folder = tmp_path / "ix"
    folder.mkdir()
    # No index in the folder: the child cannot open a writer.
    side = SideWriter(folder, limitmb=16, languages=("en",), chunking=False)
    with pytest.raises(SideWriterFailed):
        side.add(None, None, {"group": ""}, None)
        side.commit()


def test_x2_a_large_batch_that_changes_nothing_leaves_the_agent_index_writable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A large batch starts the agent index's writer process before reading; when the
    # rules find nothing to write it is cancelled, and the next batch (in process or
    # beside) still gets the index's write lock and writes as it would have.
    content = tmp_path / "content"
    _wiki(content, 30)
    _build(content, tmp_path / "early", side=False, monkeypatch=monkeypatch)
    shutil.copytree(tmp_path / "early", tmp_path / "here")
    paths = sorted(p.relative_to(content).as_posix() for p in content.rglob("*.md"))
    edited = content / paths[1]

    def sync_both(written: int) -> None:
        for name, threshold in (("early", 1), ("here", 10**9)):
            monkeypatch.setattr(write_module, "SIDE_WRITER_MIN_BATCH", threshold)
            with Indexer(WikiSettings(root=content, locales=("en", "de")), IndexLayout(tmp_path / name)) as indexer:
                report = indexer.sync(paths)
            assert (report.read, report.written, report.removed) == (len(paths), written, 0)
            assert (report.side_writer_cpu_s > 0) is (name == "early" and written > 0)

    sync_both(0)
    edited.write_text(edited.read_text("utf-8").replace("audience: public", "audience: internal")
                      + "\nEdited refund.\n", "utf-8")
    sync_both(1)
    for sub in (PUBLIC, ALL):
        assert _contents(tmp_path / "early", sub) == _contents(tmp_path / "here", sub)


def test_a_second_process_stopping_after_the_commits_surfaces_as_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The public index's process failing once the agent index has committed: the build
    fails with that failure (not a "writer is closed" error from cleaning up the writer
    that already committed), and no build is published."""
    content = tmp_path / "content"
    _wiki(content, 12)

    def stopped(self: SideWriter) -> tuple[int, float]:
        self.cancel()
        raise SideWriterFailed("the index writer process stopped: exit code 1")

    monkeypatch.setattr(write_module, "SIDE_WRITER_MIN_DOCS", 0)
    monkeypatch.setattr(write_module, "_two_cpus", lambda: True)
    monkeypatch.setattr(SideWriter, "commit", stopped)
    with pytest.raises(SideWriterFailed, match="exit code 1"), \
            Indexer(WikiSettings(root=content, locales=("en", "de")), IndexLayout(tmp_path / "ix")) as indexer:
        indexer.sync()
    assert IndexLayout(tmp_path / "ix").current_name() is None
