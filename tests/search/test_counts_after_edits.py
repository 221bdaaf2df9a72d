"""Languages without an analysis of their own stay searchable after live edits (issue 12,
CONTRACT Q3): the per-language document counts a search uses to choose the languages it
searches count live documents, not the deleted ones an edit leaves in a segment until it
merges (the operator trial on astro-docs: after one page was edited and reverted, all
Hindi and Polish pages answered nothing)."""

from __future__ import annotations

from pathlib import Path

from whoosh.index import open_dir

from helpthread_kit.backend import SearchQuery
from helpthread_kit.capabilities import ALL_CAPABILITIES
from helpthread_kit.registrations import Exposure
from provider.indexing import Indexer
from provider.search.backend import WhooshBackend
from provider.search.layout import IndexLayout
from provider.wiki.document import WikiSettings


def _page(title: str, body: str) -> str:
    return f"---\naudience: public\ntitle: {title}\n---\n\n{body}\n"


def _ids(backend: WhooshBackend, text: str, locale: str | None) -> list[str]:
    query = SearchQuery(text=text, limit=10, reach=Exposure.CUSTOMER_SAFE, capabilities=frozenset(ALL_CAPABILITIES),
                        locale=locale)
    return [r.document_id for r in backend.search(query)]


def _deleted_left(index: Path) -> bool:
    """Whether the public index still holds deleted documents (what the test is about)."""
    build = next(p for p in (index / "builds").iterdir() if p.is_dir())
    with open_dir(str(build / "public")).searcher() as searcher:
        return searcher.doc_count() < searcher.doc_count_all()


def test_any_language_searchable_after_edits(tmp_path: Path) -> None:
    root, index = tmp_path / "wiki", tmp_path / "index"
    english = {f"en/page{i}.md": _page(f"Page {i}", f"Editor setup guide number {i} for Astro.") for i in range(40)}
    files = {**english,
             "hi/editor.md": _page("एडिटर सेटअप", "Astro के साथ निर्माण के लिए अपना एडिटर सेटअप करें।"),
             "pl/editor.md": _page("Konfiguracja edytora", "Skonfiguruj edytor do pracy z Astro.")}
    for relpath, text in files.items():
        (root / relpath).parent.mkdir(parents=True, exist_ok=True)
        (root / relpath).write_text(text, "utf-8")
    settings = WikiSettings(root=root, default_locale="en", locales=("en", "hi", "pl"))
    with Indexer(settings, IndexLayout(index)) as indexer:
        indexer.sync()
        for round_ in range(3):  # edits delete the old versions of every English page
            for relpath in english:
                (root / relpath).write_text(_page(relpath, f"Edited {round_}: editor setup for Astro."), "utf-8")
            indexer.sync()
    assert _deleted_left(index), "the edits left no deleted documents: the test would not test the counts"
    backend = WhooshBackend(index, fallback_locales=("en",))
    assert _ids(backend, "एडिटर सेटअप", "hi") == ["hi/editor"]
    assert _ids(backend, "Astro", "hi") == ["hi/editor"]
    assert _ids(backend, "edytora", "pl") == ["pl/editor"]
    assert "hi/editor" in _ids(backend, "एडिटर", None)
