"""The indexer against tricky filesystems: odd names, restored mtimes, symlinks
(CONTRACT X5, X7)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from provider.indexing import Indexer
from provider.search.layout import IndexLayout
from provider.wiki.classify import AudienceRule
from provider.wiki.document import WikiSettings


def _page(audience: str | None, body: str) -> str:
    header = f"---\naudience: {audience}\n---\n" if audience else ""
    return f"{header}# Title\n\n{body}\n"


@pytest.fixture()
def content(tmp_path: Path) -> Path:
    root = tmp_path / "content"
    root.mkdir()
    return root


@pytest.fixture()
def indexer(content: Path, tmp_path: Path) -> Iterator[Indexer]:
    with Indexer(WikiSettings(root=content), IndexLayout(tmp_path / "index")) as opened:
        yield opened


def test_a_file_name_that_is_not_utf8_is_skipped_and_reported(content: Path, indexer: Indexer) -> None:
    """A name that cannot be stored or reported must not stop indexing (X7)."""
    (content / "good.md").write_text(_page("public", "Good text."))
    with open(os.path.join(os.fsencode(content), b"bad\xff\xfe.md"), "w") as handle:
        handle.write(_page("public", "Odd name."))
    report = indexer.sync()
    assert report.by_audience["public"] == 1
    assert any("not valid UTF-8" in s.reason for s in report.skipped)


def test_x7_an_edit_with_a_restored_mtime_is_still_seen(content: Path, indexer: Indexer) -> None:
    """Same size, mtime set back (touch -d, rsync -a): the reconcile scan still re-reads."""
    path = content / "a.md"
    path.write_text(_page("public  ", "Same size text."))
    indexer.sync()
    before = path.stat()
    path.write_text(_page("internal", "Same size text."))
    assert path.stat().st_size == before.st_size
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    report = indexer.sync()
    assert report.by_audience == {"internal": 1}


def test_an_unchanged_copy_is_hashed_not_reparsed(content: Path, indexer: Indexer) -> None:
    """New inodes with the same bytes (a fresh checkout) cost a hash, not a parse."""
    path = content / "a.md"
    path.write_text(_page("public", "Text."))
    indexer.sync()
    data = path.read_bytes()
    path.unlink()
    path.write_bytes(data)
    stat = path.stat()
    assert indexer.sync().read == 0 and stat.st_size == len(data)


def test_x7_an_event_on_a_symlink_target_reindexes_the_link(content: Path, indexer: Indexer) -> None:
    (content / "shared.md").write_text(_page("public", "Shared text."))
    os.symlink("shared.md", content / "alias.md")
    indexer.sync()
    assert indexer.manifest is not None and indexer.manifest.docs["alias.md"].audience == "public"
    (content / "shared.md").write_text(_page("internal", "Shared text."))
    indexer.sync(["shared.md"])  # the event names the target only
    assert indexer.manifest.docs["alias.md"].audience == "internal"


def test_x5_a_symlink_cannot_publish_an_internal_folder_by_rule(content: Path, tmp_path: Path) -> None:
    """Rules say internal/** is internal and everything else public: a link from a public
    path into internal/ must not make the linked pages public."""
    (content / "internal").mkdir()
    (content / "internal" / "runbook.md").write_text(_page(None, "Runbook text."))
    os.symlink("internal", content / "pub")
    rules = (AudienceRule("internal/**", "internal"), AudienceRule("**", "public"))
    with Indexer(WikiSettings(root=content, audience_rules=rules), IndexLayout(tmp_path / "i2")) as indexer:
        indexer.sync()
        indexer.sync(["pub/runbook.md"])  # reached through the link, as a watcher event names it
        docs = indexer.manifest.docs if indexer.manifest else {}
    assert "pub/runbook.md" in docs and docs["pub/runbook.md"].real_relpath == "internal/runbook.md"
    assert all(meta.audience == "internal" for meta in docs.values()), {k: m.audience for k, m in docs.items()}
