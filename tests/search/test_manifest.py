"""provider.search.manifest: the per-file state a restart relies on (issue 3, fast restart)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from provider.search.manifest import Manifest
from provider.wiki.document import DocumentMeta


def meta(relpath: str, title: str, audience: str = "public") -> DocumentMeta:
    return DocumentMeta(
        relpath=relpath, size=1, mtime_ns=0, revision="r1", doc_id=relpath, title=title,
        audience=audience, draft=False, locale="en", translation_group=relpath,
        warnings=("w1",), sources={"audience": "front matter"},
    )


def test_round_trip_keeps_every_field(tmp_path: Path) -> None:
    manifest = Manifest(schema_version=4, settings_key="k", last_scan=12.5, generation=3)
    manifest.docs = {"a.md": meta("a.md", "Ä \"quoted\" title"), "b.md": meta("b.md", "B", "internal")}
    manifest.fingerprints = {"a.md": "f1", "b.md": "f2"}
    manifest.skipped = {"c.md": "too large"}
    manifest.save(tmp_path / "manifest.json")

    json.loads((tmp_path / "manifest.json").read_text("utf-8"))  # one valid JSON document
    loaded = Manifest.load(tmp_path / "manifest.json")
    assert loaded is not None
    assert loaded.docs == manifest.docs
    assert (loaded.fingerprints, loaded.skipped) == (manifest.fingerprints, manifest.skipped)
    assert (loaded.schema_version, loaded.settings_key, loaded.last_scan, loaded.generation) == (4, "k", 12.5, 3)


def test_a_replaced_entry_is_written_anew_and_a_removed_one_disappears(tmp_path: Path) -> None:
    """The per-entry encoding cache must never write an old classification back: a file
    reclassified public → internal has to read as internal after a restart (X7)."""
    path = tmp_path / "manifest.json"
    manifest = Manifest(schema_version=4, settings_key="k")
    manifest.docs = {"a.md": meta("a.md", "A"), "b.md": meta("b.md", "B")}
    manifest.save(path)

    manifest.docs["a.md"] = dataclasses.replace(manifest.docs["a.md"], audience="internal")
    del manifest.docs["b.md"]
    manifest.save(path)

    loaded = Manifest.load(path)
    assert loaded is not None
    assert loaded.docs["a.md"].audience == "internal"
    assert set(loaded.docs) == {"a.md"}
