"""provider.indexing.manifest: the per-file state a restart relies on (issue 3, fast restart)."""

from __future__ import annotations

import dataclasses
import json
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from provider.indexing.manifest import Manifest
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
    from provider.indexing.manifest import _meta_json
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


_texts = st.text(max_size=12)
_metas = st.builds(
    DocumentMeta, relpath=_texts, size=st.integers(0, 2**40), mtime_ns=st.integers(0, 2**63), revision=_texts,
    doc_id=_texts, title=st.text(), audience=st.sampled_from(["public", "internal"]), draft=st.booleans(),
    locale=_texts, translation_group=_texts, review_due=st.none() | _texts, url=st.none() | _texts,
    sources=st.dictionaries(_texts, _texts, max_size=3), warnings=st.lists(st.text(), max_size=3).map(tuple),
    errors=st.lists(st.text(), max_size=2).map(tuple), audience_own=st.booleans(),
    publication=st.dictionaries(_texts, _texts, max_size=2), cascade=st.none() | st.dictionaries(_texts, _texts),
    internal_sections=st.integers(0, 9), sketch=st.text(alphabet="0123456789abcdef", max_size=64),
    site_cascade=st.none() | st.dictionaries(_texts, _texts, max_size=2), head=st.text(max_size=20),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(_metas, min_size=1, max_size=4))
def test_saved_entries_are_to_json_and_load_as_from_json_builds_them(metas: list[DocumentMeta]) -> None:
    """The manifest writes each entry by one encoder call and reads it back without the
    dataclass's ``__init__`` (speed at 50,000 documents): the file must hold exactly
    ``to_json``'s JSON, and loading must give ``from_json``'s object — equal, and
    written again the same — for any field values, quotes and non-ASCII text included."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "manifest.json"
        manifest = Manifest(schema_version=1, settings_key="k")
        manifest.docs = {f"{number}.md": meta for number, meta in enumerate(metas)}
        manifest.save(path)
        saved = json.loads(path.read_text("utf-8"))["docs"]
        assert saved == {relpath: meta.to_json() for relpath, meta in manifest.docs.items()}
        loaded = Manifest.load(path)
        assert loaded is not None
        assert loaded.docs == {relpath: DocumentMeta.from_json(entry) for relpath, entry in saved.items()}
        assert all(vars(meta) == vars(DocumentMeta.from_json(saved[relpath])) for relpath, meta in loaded.docs.items())
        again = Path(tmp) / "again.json"
        loaded.save(again)
        assert json.loads(again.read_text("utf-8"))["docs"] == saved


def test_an_entry_of_another_field_set_loads_through_from_json(tmp_path: Path) -> None:
    """An entry saved by an older build (a field missing) gets the field's default; one
    with an unknown field makes the manifest unreadable (``None``: the build is redone)."""
    manifest = Manifest(schema_version=1, settings_key="k")
    manifest.docs = {"a.md": meta("a.md", "A")}
    path = tmp_path / "manifest.json"
    manifest.save(path)
    data = json.loads(path.read_text("utf-8"))
    del data["docs"]["a.md"]["head"]
    path.write_text(json.dumps(data), "utf-8")
    loaded = Manifest.load(path)
    assert loaded is not None and loaded.docs["a.md"] == manifest.docs["a.md"]
    data["docs"]["a.md"]["unknown_field"] = 1
    path.write_text(json.dumps(data), "utf-8")
    assert Manifest.load(path) is None
