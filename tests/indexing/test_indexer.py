"""The indexer: public index by construction (X2), incremental == fresh build, restarts,
the writer lock."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from whoosh import index as whoosh_index

from provider.indexing import Indexer
from provider.search.layout import ALL, PUBLIC, IndexLayout, WriterLockHeld
from provider.search.schema import SCHEMA_VERSION
from provider.wiki.classify import AudienceRule
from provider.wiki.document import WikiSettings
from tests.support import REPO_ROOT


def _page(audience: str | None, body: str, **extra: str) -> str:
    lines = ["---"]
    if audience is not None:
        lines.append(f"audience: {audience}")
    lines += [f"{k}: {v}" for k, v in extra.items()]
    return "\n".join([*lines, "---", body, ""])


def _write(root: Path, relpath: str, text: str) -> None:
    path = root / relpath
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")


_OPEN: list[Indexer] = []


def _indexer(content: Path, index: Path, **settings: object) -> Indexer:
    indexer = Indexer(WikiSettings(root=content, locales=("en", "de"), **settings), IndexLayout(index))  # type: ignore[arg-type]
    indexer.open()
    _OPEN.append(indexer)
    return indexer


@pytest.fixture(autouse=True)
def _close_indexers() -> object:
    yield
    while _OPEN:
        _OPEN.pop().close()


def _stored(index: Path) -> dict[str, dict[str, object]]:
    """Stored documents per index: {"public": {path: doc}, "all": {...}}."""
    layout = IndexLayout(index)
    name = layout.current_name()
    assert name is not None
    out: dict[str, dict[str, object]] = {}
    for sub in (PUBLIC, ALL):
        ix = whoosh_index.open_dir(str(layout.build_dir(name) / sub))
        with ix.searcher() as searcher:
            out[sub] = {fields["path"]: (fields["doc"], fields["passages"]) for fields in searcher.all_stored_fields()}
    return out


@pytest.fixture()
def wiki(tmp_path: Path) -> Path:
    content = tmp_path / "content"
    _write(content, "en/a.md", _page("public", "# Alpha\n\nPublic alpha text about invoices."))
    _write(content, "de/a.md", _page("public", "# Alpha DE\n\nÖffentlicher Text über Rechnungen."))
    _write(content, "en/secret.md", _page("internal", "# Secret\n\nInternal canary zebrafish."))
    _write(content, "en/nokey.md", _page(None, "# No key\n\nUnlabelled canary okapi."))
    _write(content, "en/draft.md", _page("public", "# Draft\n\nDraft canary narwhal.", draft="true"))
    _write(content, "en/odd.md", _page("Public", "# Odd\n\nNear miss canary axolotl."))
    return content


def test_x2_public_index_holds_only_public_servable_documents(wiki: Path, tmp_path: Path) -> None:
    """X2 by construction: the customer_safe index never contains an internal or draft document."""
    _indexer(wiki, tmp_path / "index").sync()
    stored = _stored(tmp_path / "index")
    assert set(stored[PUBLIC]) == {"en/a.md", "de/a.md"}
    assert set(stored[ALL]) == {"en/a.md", "de/a.md", "en/secret.md", "en/nokey.md", "en/odd.md"}
    for doc, passages in stored[PUBLIC].values():
        assert doc["audience"] == "public"  # type: ignore[index]
        assert not any(word in " ".join(passages) for word in ("zebrafish", "okapi", "narwhal", "axolotl"))


def test_x5_rules_and_front_matter(wiki: Path, tmp_path: Path) -> None:
    """X5: a public rule makes the unlabelled file public; explicit front matter still wins."""
    indexer = _indexer(wiki, tmp_path / "index", audience_rules=(AudienceRule("en/**", "public"),))
    indexer.sync()
    public = set(_stored(tmp_path / "index")[PUBLIC])
    assert "en/nokey.md" in public
    assert "en/secret.md" not in public and "en/odd.md" not in public and "en/draft.md" not in public


def _snapshot(index: Path) -> dict[str, dict[str, object]]:
    return {sub: dict(sorted(docs.items())) for sub, docs in _stored(index).items()}


def test_incremental_updates_equal_a_fresh_build(wiki: Path, tmp_path: Path) -> None:
    """After any sequence of changes, the index equals a fresh full build of the folder."""
    index = tmp_path / "index"
    indexer = _indexer(wiki, index)
    indexer.sync()
    # Reclassify, delete, add, duplicate an id, rename, make a draft.
    _write(wiki, "en/a.md", _page("internal", "# Alpha\n\nNow internal alpha text."))
    (wiki / "en/secret.md").unlink()
    _write(wiki, "en/new.md", _page("public", "# New\n\nBrand new public page.", id="shared-id"))
    _write(wiki, "en/other.md", _page("public", "# Other\n\nAnother public page.", id="shared-id"))
    os.rename(wiki / "en/nokey.md", wiki / "en/renamed.md")
    _write(wiki, "de/a.md", _page("public", "# Alpha DE\n\nJetzt Entwurf.", draft="true"))
    report = indexer.sync(["en/a.md", "en/secret.md", "en/new.md", "en/other.md", "en/nokey.md",
                           "en/renamed.md", "de/a.md"])
    assert report.problems  # the duplicate id is reported
    incremental = _snapshot(index)

    fresh_index = tmp_path / "fresh"
    _indexer(wiki, fresh_index).sync()
    assert incremental == _snapshot(fresh_index)
    assert "en/new.md" not in incremental[PUBLIC] and "en/other.md" not in incremental[PUBLIC]
    assert incremental[ALL]["en/new.md"][0]["audience"] == "internal"  # type: ignore[index]


def test_full_scan_finds_changes_without_events(wiki: Path, tmp_path: Path) -> None:
    """A full reconcile scan (no event list) finds edits, deletions and new files."""
    index = tmp_path / "index"
    indexer = _indexer(wiki, index)
    indexer.sync()
    _write(wiki, "en/a.md", _page("internal", "# Alpha\n\nReclassified."))
    (wiki / "de/a.md").unlink()
    _write(wiki, "en/b.md", _page("public", "# Beta\n\nNew."))
    indexer.sync()
    fresh = tmp_path / "fresh"
    _indexer(wiki, fresh).sync()
    assert _snapshot(index) == _snapshot(fresh)
    assert set(_snapshot(index)[PUBLIC]) == {"en/b.md"}


def test_restart_with_unchanged_content_reads_nothing(wiki: Path, tmp_path: Path) -> None:
    """Fast restart: an unchanged wiki is served from the existing build without reading files."""
    index = tmp_path / "index"
    first = _indexer(wiki, index)
    first.sync()
    build = IndexLayout(index).current_name()
    first.close()
    second = _indexer(wiki, index)
    report = second.sync()
    assert report.read == 0 and not report.rebuilt and IndexLayout(index).current_name() == build
    _write(wiki, "en/a.md", _page("public", "# Alpha\n\nEdited once."))
    report = second.sync()
    assert report.read == 1 and report.written == 1


def test_schema_change_rebuilds_aside(wiki: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A build made with another schema version is rebuilt aside and swapped in."""
    index = tmp_path / "index"
    first = _indexer(wiki, index)
    first.sync()
    old = IndexLayout(index).current_name()
    first.close()
    import provider.indexing.indexer as indexer_module

    monkeypatch.setattr(indexer_module, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    second = _indexer(wiki, index)
    report = second.sync()
    replacement = IndexLayout(index).current_name()
    assert report.rebuilt and replacement != old
    # The replaced build stays for searches already under way, until the next rebuild.
    assert (index / "builds" / str(old)).exists()
    assert second.sync(rebuild=True).rebuilt
    assert sorted(p.name for p in (index / "builds").iterdir()) == sorted([str(replacement),
                                                                            str(IndexLayout(index).current_name())])


def test_one_writer_at_a_time(wiki: Path, tmp_path: Path) -> None:
    """Exactly one process writes the index: a second writer is refused with a clear message."""
    _indexer(wiki, tmp_path / "index")
    second = Indexer(WikiSettings(root=wiki), IndexLayout(tmp_path / "index"))
    with pytest.raises(WriterLockHeld, match="only one process"):
        second.open()


def test_sample_wiki_builds(tmp_path: Path) -> None:
    """The shipped sample wiki indexes with the expected mix (X5 cases reported)."""
    content = tmp_path / "content"
    shutil.copytree(REPO_ROOT / "content", content)
    report = _indexer(content, tmp_path / "index").sync()
    assert report.by_audience["public"] >= 40 and report.by_audience["internal"] >= 10
    assert report.drafts == 1 and report.by_locale["de"] >= 14
    assert "en/integrations/bank-feed-connection.md" in report.warnings


def _generation(index: Path, sub: str) -> int:
    layout = IndexLayout(index)
    name = layout.current_name()
    assert name is not None
    return int(whoosh_index.open_dir(str(layout.build_dir(name) / sub)).latest_generation())


def test_x2_an_internal_only_edit_leaves_the_public_index_untouched(tmp_path: Path) -> None:
    """Issue 11: an edit that changes only internal text must not change anything
    customer_safe can observe — not even the public index's generation, which keys the
    answer cache (a latency side channel)."""
    content, index = tmp_path / "content", tmp_path / "index"
    _write(content, "pub.md", _page("public", "Public words.\n\n<!-- internal -->\nSecret one.\n<!-- /internal -->"))
    _write(content, "int.md", _page("internal", "Internal words."))
    indexer = _indexer(content, index)
    indexer.sync()
    public_before, all_before = _generation(index, PUBLIC), _generation(index, ALL)
    revision_before = _stored(index)[PUBLIC]["pub.md"][0]["revision"]  # type: ignore[index]
    _write(content, "int.md", _page("internal", "Internal words, edited."))
    _write(content, "pub.md", _page("public", "Public words.\n\n<!-- internal -->\nSecret two.\n<!-- /internal -->"))
    indexer.sync(["int.md", "pub.md"])
    assert _generation(index, PUBLIC) == public_before
    assert _generation(index, ALL) > all_before
    stored = _stored(index)
    assert stored[PUBLIC]["pub.md"][0]["revision"] == revision_before  # type: ignore[index]
    assert stored[ALL]["pub.md"][0]["revision"] != revision_before  # type: ignore[index]


def test_x7_unpublishing_is_not_held_up_by_slow_files_in_the_same_batch(tmp_path: Path) -> None:
    """Issue 11: a public → internal edit takes effect from the header, before the batch's
    slow files are parsed; what is still public after the batch is back in the index."""
    import threading
    import time

    content, index = tmp_path / "content", tmp_path / "index"
    _write(content, "a.md", _page("public", "Alpha words about invoices."))
    _write(content, "b.md", _page("public", "Beta words about receipts."))
    indexer = Indexer(WikiSettings(root=content, locales=("en",)), IndexLayout(index), parse_timeout_s=8)
    indexer.open()
    _OPEN.append(indexer)
    indexer.sync()
    _write(content, "a.md", _page("internal", "Alpha words about invoices."))
    # b stays public; its new marker pair makes the quick check withdraw it for the batch.
    _write(content, "b.md", _page("public", "Beta words.\n\n<!-- internal -->\nHidden.\n<!-- /internal -->"))
    slow = [f"slow-{i}.md" for i in range(2)]
    for name in slow:
        _write(content, name, _page("public", "![" * 900_000))
    done = threading.Event()
    worker = threading.Thread(target=lambda: (indexer.sync(["a.md", "b.md", *slow]), done.set()))
    started = time.monotonic()
    worker.start()
    try:
        while "a.md" in _stored(index)[PUBLIC]:
            assert time.monotonic() - started < 10, "a.md still public after 10 s"
            time.sleep(0.05)
        withdrawn_after = time.monotonic() - started
        still_running = not done.is_set()
    finally:
        worker.join(100)
    assert still_running, "the batch should still be parsing its slow files when a.md left"
    assert withdrawn_after < 4
    stored = _stored(index)
    assert "a.md" not in stored[PUBLIC] and "a.md" in stored[ALL]
    assert "b.md" in stored[PUBLIC] and "Hidden" not in str(stored[PUBLIC]["b.md"][1])


def test_restart_over_a_kept_index_reports_the_same_warnings(wiki: Path, tmp_path: Path) -> None:
    """A citation URL failing R7 is reported by every sync, not only by the one that wrote
    the document: a restart over the kept index (which reads and writes nothing) and a
    later sync that reads another file report the same warnings as the first build; the
    warning goes when the URL is fixed and when the file is removed."""
    from provider.wiki.citations import CitationSettings

    long_path = "/" + "k" * 1_989  # a valid site path, but with the base URL above 2,000 characters (R7)
    _write(wiki, "en/long.md", _page("public", "# Long\n\nA page whose URL is too long.", url=long_path))
    index = tmp_path / "index"
    citation = CitationSettings(base_url="https://help.example.com")
    first_report = _indexer(wiki, index, citation=citation).sync()
    assert any("citation URL" in w for w in first_report.warnings["en/long.md"])
    assert first_report.warnings["en/odd.md"]  # a document's own warning beside it
    _OPEN.pop().close()

    second = _indexer(wiki, index, citation=citation)
    restart = second.sync()
    assert restart.read == 0 and restart.written == 0
    assert restart.warnings == first_report.warnings
    _write(wiki, "en/a.md", _page("public", "# Alpha\n\nEdited once."))
    edit = second.sync()
    assert edit.read == 1 and edit.warnings == first_report.warnings

    _write(wiki, "en/long.md", _page("public", "# Long\n\nA page whose URL is fine now.", url="/long/"))
    assert "en/long.md" not in second.sync().warnings
    _write(wiki, "en/long.md", _page("public", "# Long\n\nToo long again.", url=long_path))
    assert any("citation URL" in w for w in second.sync().warnings["en/long.md"])
    (wiki / "en/long.md").unlink()
    assert "en/long.md" not in second.sync().warnings


def test_a_whole_derivation_leaves_the_corpus_state_out_of_the_collectors_walks(
    wiki: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """After a pass that derived the whole corpus, the kept state (the manifest's
    metadata, the kept decisions) is frozen: the collector's full passes, which walked it
    all (1.5–2.3 s at 50,000 documents, every ~9th one-file update), no longer do. What a
    one-file update makes afterwards is young again (collected as usual), and the index
    is the same as without the freeze."""
    import gc

    from provider.indexing import heap

    monkeypatch.setattr(heap, "FREEZE_MIN_DOCS", 1)
    try:
        index = tmp_path / "index"
        indexer = _indexer(wiki, index)
        indexer.sync()
        assert indexer.manifest is not None
        tracked = {id(o) for o in gc.get_objects()}  # every generation but the frozen one
        kept = [indexer.manifest.docs["en/a.md"], indexer.manifest.rules.copies]
        assert all(gc.is_tracked(o) and id(o) not in tracked for o in kept)
        frozen = gc.get_freeze_count()
        assert frozen > 0

        _write(wiki, "en/a.md", _page("public", "# Alpha\n\nEdited public alpha text about invoices."))
        indexer.sync(["en/a.md"])
        assert not indexer.manifest.rules.last_full
        assert id(indexer.manifest.docs["en/a.md"]) in {id(o) for o in gc.get_objects()}
        # An incremental pass freezes nothing more; the replaced metadata is freed as usual.
        assert gc.get_freeze_count() < frozen

        _indexer(wiki, tmp_path / "fresh").sync()
        assert _snapshot(index) == _snapshot(tmp_path / "fresh")
    finally:
        gc.unfreeze()
