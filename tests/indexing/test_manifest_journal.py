"""The manifest's journal: a batch appends its changes; loading gives exactly the saved state (X7)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from provider.indexing.manifest import Manifest
from provider.wiki.document import DocumentMeta


def meta(relpath: str, audience: str = "public", revision: str = "r1") -> DocumentMeta:
    return DocumentMeta(relpath=relpath, size=1, mtime_ns=0, revision=revision, doc_id=relpath, title=relpath,
                        audience=audience, draft=False, locale="en", translation_group=relpath)


def _state(manifest: Manifest) -> tuple[object, ...]:
    return (manifest.docs, manifest.fingerprints, manifest.skipped, manifest.generation, manifest.last_scan,
            manifest.settings_key)


PATHS = [f"p{i}.md" for i in range(6)]
#: Documents no batch touches: with them, a small batch is appended to the journal and a
#: large one (or a long journal) rewrites the manifest — both paths are taken.
PADDING = {f"z{i}.md": meta(f"z{i}.md") for i in range(30)}


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.tuples(st.sampled_from(PATHS), st.sampled_from(["public", "internal", None])),
                         max_size=4), min_size=1, max_size=12))
def test_x7_what_loads_is_what_was_saved_last(tmp_path_factory: object, batches: list[list[tuple[str, str | None]]],
                                              ) -> None:
    """Every batch saved (appended or rewritten) loads back exactly: a public → internal
    change is never undone by a restart."""
    path = Path(tmp_path_factory.mktemp("m")) / "manifest.json"  # type: ignore[attr-defined]
    manifest = Manifest(schema_version=5, settings_key="k", docs={**PADDING, **{p: meta(p) for p in PATHS}})
    manifest.save(path)
    for number, batch in enumerate(batches):
        for relpath, audience in batch:
            if audience is None:
                manifest.docs.pop(relpath, None)
                manifest.fingerprints.pop(relpath, None)
            else:
                manifest.docs[relpath] = meta(relpath, audience, revision=f"r{number}")
                manifest.fingerprints[relpath] = f"{audience}-{number}"
        manifest.skipped = {"s.md": f"reason {number}"} if number % 2 else {}
        manifest.generation += 1
        manifest.save(path)
        loaded = Manifest.load(path)
        assert loaded is not None and _state(loaded) == _state(manifest)
        manifest = loaded  # a restart, then more batches


def test_a_journal_line_cut_short_or_of_another_manifest_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "manifest.json"
    manifest = Manifest(schema_version=5, settings_key="k", docs={**PADDING, "a.md": meta("a.md")})
    manifest.save(path)
    manifest.docs["a.md"] = dataclasses.replace(manifest.docs["a.md"], audience="internal")
    manifest.save(path)
    journal = path.with_name("manifest.json.journal")
    assert journal.exists() and Manifest.load(path).docs["a.md"].audience == "internal"  # type: ignore[union-attr]

    text = journal.read_text("utf-8")
    journal.write_text(text + text[: len(text) // 2], "utf-8")  # a second line cut short by a crash
    assert Manifest.load(path).docs["a.md"].audience == "internal"  # type: ignore[union-attr]

    stale = journal.read_text("utf-8")
    Manifest(schema_version=5, settings_key="k", docs={**PADDING, "a.md": meta("a.md", revision="r9")}).save(path)
    journal.write_text(stale, "utf-8")  # left behind by a crash before the rewrite removed it
    loaded = Manifest.load(path)
    assert loaded is not None and loaded.docs["a.md"].revision == "r9" and loaded.docs["a.md"].audience == "public"
