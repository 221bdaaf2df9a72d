"""provider.search.manifest: the per-file state a restart relies on (issue 3, fast restart)."""

from __future__ import annotations

import dataclasses
import json
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

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


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.tuples(st.sampled_from(["set", "pop", "del", "update", "setdefault", "fingerprint",
                                                    "unfingerprint", "replace"]),
                                   st.sampled_from(["a.md", "b.md", "c.md", "d.md"])), max_size=6),
                min_size=1, max_size=8))
def test_the_journal_after_any_changes_reads_back_as_the_manifest(batches: list[list[tuple[str, str]]]) -> None:
    """Whatever a batch does to ``docs`` and ``fingerprints`` (item assignment, ``pop``,
    ``del``, ``update``, ``setdefault``, a whole new dict), the saved manifest — mostly
    journal lines of the keys a batch touched — reads back exactly as it is in memory, so
    a restart never serves an older classification (X7)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "manifest.json"
        manifest = Manifest(schema_version=4, settings_key="k")
        manifest.docs = {f"{c}{i}.md": meta(f"{c}{i}.md", "padding " * 20) for c in "xyz" for i in range(30)}
        manifest.save(path)
        for number, batch in enumerate(batches):
            for action, relpath in batch:
                if action == "set":
                    manifest.docs[relpath] = meta(relpath, f"T{number}", "internal" if number % 2 else "public")
                elif action == "pop":
                    manifest.docs.pop(relpath, None)
                elif action == "del" and relpath in manifest.docs:
                    del manifest.docs[relpath]
                elif action == "update":
                    manifest.docs.update({relpath: meta(relpath, f"U{number}")})
                elif action == "setdefault":
                    manifest.docs.setdefault(relpath, meta(relpath, f"S{number}"))
                elif action == "fingerprint":
                    manifest.fingerprints[relpath] = f"f{number}"
                elif action == "unfingerprint":
                    manifest.fingerprints.pop(relpath, None)
                else:
                    manifest.docs = {**manifest.docs, relpath: meta(relpath, f"R{number}")}
            manifest.save(path)
            loaded = Manifest.load(path)
            assert loaded is not None
            assert loaded.docs == manifest.docs
            assert loaded.fingerprints == manifest.fingerprints


def test_manifest_encodes_every_sample_document_as_to_json_does() -> None:
    """The manifest's own encoder (faster than ``dataclasses.asdict``) writes the same
    JSON as ``DocumentMeta.to_json`` for every file of the sample wiki: sections,
    cascades, publication facts, warnings, sketches and all."""
    from provider.search.manifest import _meta_json
    from provider.wiki.document import WikiSettings, load_document
    from provider.wiki.files import discover

    root = Path(__file__).resolve().parents[2] / "content"
    settings = WikiSettings(root=root)
    metas = []
    for relpath in sorted(discover(root).files):
        doc = load_document(settings, relpath)
        if hasattr(doc, "meta"):
            metas.append(doc.meta)
    assert len(metas) > 50
    for found in metas:
        assert json.dumps(_meta_json(found)) == json.dumps(found.to_json())
    assert json.dumps(_meta_json(meta("a.md", "A"))) == json.dumps(meta("a.md", "A").to_json())
