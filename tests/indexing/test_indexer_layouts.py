"""The indexer with layouts: a cascade edit reclassifies pages that did not change
(CONTRACT X7), a publish date takes effect at the next sync without a file change, and
incremental updates still equal a fresh build."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from whoosh import index as whoosh_index

from provider.indexing import Indexer
from provider.search.layout import ALL, PUBLIC, IndexLayout
from provider.wiki.document import WikiSettings


def _write(root: Path, relpath: str, text: str) -> None:
    path = root / relpath
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")


def _stored(index: Path) -> dict[str, dict[str, object]]:
    layout = IndexLayout(index)
    name = layout.current_name()
    assert name is not None
    out: dict[str, dict[str, object]] = {}
    for sub in (PUBLIC, ALL):
        with whoosh_index.open_dir(str(layout.build_dir(name) / sub)).searcher() as searcher:
            out[sub] = {
                f["path"]: (f["doc"], f["passages"], f["passage_internal"]) for f in searcher.all_stored_fields()
            }
    return out


class Clock:
    def __init__(self, now: dt.datetime) -> None:
        self.now = now

    def __call__(self) -> dt.datetime:
        return self.now


def _hugo_site(root: Path) -> None:
    _write(root, "content/docs/_index.md", "---\ntitle: Docs\ncascade:\n  audience: public\n---\nDocs home.\n")
    _write(root, "content/docs/a.md", "---\ntitle: A\n---\nAlpha text.\n")
    _write(root, "content/docs/later.md", "---\ntitle: Later\npublishDate: 2025-07-01\n---\nLater text.\n")
    _write(root, "content/docs/s.md",
           "---\ntitle: S\n---\nPublic part.\n\n<!-- internal -->\nHidden part.\n<!-- /internal -->\n")


def test_cascade_edit_reclassifies_descendants_and_equals_a_fresh_build(tmp_path: Path) -> None:
    content, index = tmp_path / "content", tmp_path / "index"
    _hugo_site(content)
    clock = Clock(dt.datetime(2025, 6, 1, tzinfo=dt.UTC))
    settings = WikiSettings(root=content, layout="hugo")
    with Indexer(settings, IndexLayout(index), clock=clock) as indexer:
        indexer.sync()
        first = _stored(index)
        assert set(first[PUBLIC]) == {"content/docs/_index.md", "content/docs/a.md", "content/docs/s.md"}
        assert first[ALL]["content/docs/s.md"][2] == (1,)  # the hidden passage is flagged for agents
        assert first[PUBLIC]["content/docs/s.md"][2] == ()
        assert "Hidden part." not in " ".join(first[PUBLIC]["content/docs/s.md"][1])  # type: ignore[arg-type]

        # The section becomes internal: only _index.md changes, its pages follow.
        _write(content, "content/docs/_index.md", "---\ntitle: Docs\ncascade:\n  audience: internal\n---\nDocs.\n")
        report = indexer.sync(["content/docs/_index.md"])
        assert report.read == 1
        assert _stored(index)[PUBLIC] == {}

        # Time passes: the scheduled page appears without any file change.
        _write(content, "content/docs/_index.md", "---\ntitle: Docs\ncascade:\n  audience: public\n---\nDocs.\n")
        indexer.sync(["content/docs/_index.md"])
        assert "content/docs/later.md" not in _stored(index)[ALL]
        clock.now = dt.datetime(2025, 7, 2, tzinfo=dt.UTC)
        report = indexer.sync()
        assert report.read == 0
        incremental = _stored(index)
        assert "content/docs/later.md" in incremental[PUBLIC]

    fresh = tmp_path / "fresh"
    with Indexer(settings, IndexLayout(fresh), clock=clock) as indexer:
        indexer.sync()
    assert _stored(fresh) == incremental


def test_changing_the_layout_rebuilds_the_classification(tmp_path: Path) -> None:
    content, index = tmp_path / "content", tmp_path / "index"
    _write(content, "docs/a.md", "---\naudience: public\n---\nText.\n")
    _write(content, "docs/_partial.md", "---\naudience: public\n---\nPartial.\n")
    with Indexer(WikiSettings(root=content), IndexLayout(index)) as indexer:
        indexer.sync()
    assert "docs/_partial.md" in _stored(index)[PUBLIC]
    with Indexer(WikiSettings(root=content, layout="docusaurus"), IndexLayout(index)) as indexer:
        report = indexer.sync()
    # The settings changed: the unchanged a.md is classified again; the partial is not
    # even read, the layout skips it.
    assert report.read == 1
    assert "docs/_partial.md" not in _stored(index)[ALL]
    assert any(s.relpath == "docs/_partial.md" for s in report.skipped)


def test_check_and_the_indexer_name_the_same_reason_for_a_skipped_file(tmp_path: Path) -> None:
    """An operator's ``skip`` rule and the docs tool's own exclusion both match SOURCE.md:
    ``check`` and the indexer give the same (the first) reason. Before, the indexer's scan
    applied the layout's rules only, so ``serve`` said "in no docset" where ``check`` said
    "skipped by rule"."""
    from provider.wiki.audience import AudienceRule
    from provider.wiki.check import check_wiki

    content, index = tmp_path / "content", tmp_path / "index"
    _write(content, "docfx.json", '{"build": {"content": [{"files": ["docs/**/*.md"]}]}}')
    _write(content, "docs/a.md", "---\ntitle: A\n---\nAlpha text.\n")
    _write(content, "SOURCE.md", "# Source\n\nWhere the pages came from.\n")
    settings = WikiSettings(root=content, layout="docfx", audience_rules=(AudienceRule("SOURCE.md", "skip"),))
    checked = {f.path: f.skipped for f in check_wiki(settings).files}
    with Indexer(settings, IndexLayout(index)) as indexer:
        report = indexer.sync()
    indexed = {s.relpath: s.reason for s in report.skipped}
    assert checked["SOURCE.md"] == indexed["SOURCE.md"] == "skipped by rule 'SOURCE.md'"
