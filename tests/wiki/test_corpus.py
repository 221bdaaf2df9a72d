"""provider.wiki.corpus: rules one file cannot decide alone (X2, X5, translation groups)."""

from __future__ import annotations

import dataclasses
import itertools
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from provider.wiki.classify import INTERNAL, PUBLIC
from provider.wiki.corpus import Resolved, resolve
from provider.wiki.document import DocumentMeta, WikiDocument, WikiSettings, load_document


def meta(
    relpath: str,
    *,
    doc_id: str | None = None,
    audience: str = PUBLIC,
    draft: bool = False,
    group: str | None = None,
    locale: str = "en",
    revision: str = "r1",
) -> DocumentMeta:
    stem = relpath.rsplit(".", 1)[0]
    return DocumentMeta(
        relpath=relpath,
        size=1,
        mtime_ns=0,
        revision=revision,
        doc_id=doc_id if doc_id is not None else stem,
        title=stem,
        audience=audience,
        draft=draft,
        locale=locale,
        translation_group=group if group is not None else stem,
    )


def run(*metas: DocumentMeta) -> dict[str, Resolved]:
    return resolve({m.relpath: m for m in metas})


def test_plain_documents_keep_their_audience() -> None:
    out = run(meta("a.md"), meta("b.md", audience=INTERNAL))
    assert out["a.md"].audience == PUBLIC and out["a.md"].served and out["a.md"].public
    assert out["b.md"].audience == INTERNAL and out["b.md"].served and not out["b.md"].public
    assert out["a.md"].problems == () and out["b.md"].problems == ()


def test_x5_drafts_not_served() -> None:
    out = run(meta("a.md", draft=True), meta("b.md", draft=True, audience=INTERNAL))
    for resolved in out.values():
        assert resolved.served is False
        assert resolved.public is False
        assert resolved.group is None and resolved.public_group is None


def test_x5_duplicate_document_id_both_internal_naming_the_other() -> None:
    out = run(meta("a/one.md", doc_id="refunds"), meta("b/two.md", doc_id="refunds"), meta("c.md"))
    one, two = out["a/one.md"], out["b/two.md"]
    assert one.audience == INTERNAL and two.audience == INTERNAL
    assert not one.public and not two.public
    assert one.served and two.served  # still reachable by agents
    assert len(one.problems) == 1 and "b/two.md" in one.problems[0] and "refunds" in one.problems[0]
    assert len(two.problems) == 1 and "a/one.md" in two.problems[0]
    assert "a/one.md" not in one.problems[0]
    assert out["c.md"].public and out["c.md"].problems == ()


def test_x5_duplicate_id_among_three_names_both_others() -> None:
    out = run(*(meta(f"{n}.md", doc_id="same") for n in "abc"))
    assert all(r.audience == INTERNAL for r in out.values())
    assert "b.md" in out["a.md"].problems[0] and "c.md" in out["a.md"].problems[0]


def test_duplicate_id_with_a_draft_is_not_a_conflict() -> None:
    out = run(meta("a.md", doc_id="x"), meta("b.md", doc_id="x", draft=True))
    assert out["a.md"].public
    assert out["a.md"].problems == ()


def test_translation_group_needs_two_members() -> None:
    out = run(
        meta("en/a.md", group="a", locale="en"),
        meta("de/a.md", group="a", locale="de"),
        meta("en/lonely.md", group="lonely"),
    )
    assert out["en/a.md"].group == "a" and out["de/a.md"].group == "a"
    assert out["en/a.md"].public_group == "a" and out["de/a.md"].public_group == "a"
    assert out["en/lonely.md"].group is None
    assert out["en/lonely.md"].public_group is None


def test_drafts_do_not_count_as_group_members() -> None:
    out = run(meta("en/a.md", group="a"), meta("de/a.md", group="a", draft=True))
    assert out["en/a.md"].group is None
    assert out["en/a.md"].public_group is None


def test_public_group_ignores_internal_siblings() -> None:
    """§5.4: a public article's group never reveals an internal sibling."""
    out = run(meta("en/a.md", group="a", locale="en"), meta("de/a.md", group="a", locale="de", audience=INTERNAL))
    en, de = out["en/a.md"], out["de/a.md"]
    assert en.public
    assert en.group == "a"  # the agent index sees the pair
    assert en.public_group is None  # the public index does not
    assert de.group == "a"
    assert de.public_group is None


def test_public_group_ignores_siblings_made_internal_by_duplicate_ids() -> None:
    out = run(
        meta("en/a.md", group="a"),
        meta("de/a.md", group="a", doc_id="dup"),
        meta("other.md", doc_id="dup", group="other"),
    )
    assert out["de/a.md"].audience == INTERNAL
    assert out["en/a.md"].group == "a"
    assert out["en/a.md"].public_group is None


def test_public_group_with_three_members_one_internal() -> None:
    out = run(meta("en/a.md", group="a"), meta("de/a.md", group="a"), meta("ru/a.md", group="a", audience=INTERNAL))
    assert out["en/a.md"].public_group == out["de/a.md"].public_group == "a"
    assert out["ru/a.md"].public_group is None
    assert out["ru/a.md"].group == "a"


def test_fingerprint_changes_with_classification() -> None:
    base = meta("a.md")
    first = run(base)["a.md"].fingerprint()
    assert run(base)["a.md"].fingerprint() == first
    for changed in (
        dataclasses.replace(base, audience=INTERNAL),
        dataclasses.replace(base, revision="r2"),
        dataclasses.replace(base, title="new"),
        dataclasses.replace(base, locale="de"),
        dataclasses.replace(base, draft=True),
    ):
        assert run(changed)["a.md"].fingerprint() != first
    # a group appearing changes it too
    assert run(base, meta("b.md", group="a"))["a.md"].fingerprint() != first


def test_result_independent_of_order() -> None:
    metas = [
        meta("en/a.md", group="a"),
        meta("de/a.md", group="a", audience=INTERNAL),
        meta("x.md", doc_id="d"),
        meta("y.md", doc_id="d"),
        meta("z.md", draft=True),
    ]
    expected = run(*metas)
    for perm in itertools.permutations(metas):
        assert run(*perm) == expected


def test_end_to_end_from_files(tmp_path: Path) -> None:
    root = tmp_path / "wiki"
    files = {
        "en/refunds.md": "---\naudience: public\n---\n# Refunds\n\nText.\n",
        "de/refunds.md": "---\naudience: internal\n---\n# Erstattung\n\nText.\n",
        "en/dup.md": "---\naudience: public\nid: shared\n---\nOne.\n",
        "en/dup2.md": "---\naudience: public\nid: shared\n---\nTwo.\n",
        "en/draft.md": "---\naudience: public\ndraft: true\n---\nNot yet.\n",
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    wiki = WikiSettings(root=root, locales=("en", "de"))
    docs = {}
    for rel in files:
        loaded = load_document(wiki, rel)
        assert isinstance(loaded, WikiDocument)
        docs[rel] = loaded.meta
    out = resolve(docs)
    public = sorted(rel for rel, r in out.items() if r.public)
    assert public == ["en/refunds.md"]
    assert out["en/refunds.md"].group == "refunds"
    assert out["en/refunds.md"].public_group is None
    assert out["en/dup.md"].audience == INTERNAL and "en/dup2.md" in out["en/dup.md"].problems[0]
    assert out["en/draft.md"].served is False


_metas = st.lists(
    st.builds(
        lambda i, doc_id, audience, draft, group: meta(
            f"f{i}.md", doc_id=doc_id, audience=audience, draft=draft, group=group
        ),
        st.integers(0, 10_000),
        st.sampled_from(["a", "b", "c", "d"]),
        st.sampled_from([PUBLIC, INTERNAL]),
        st.booleans(),
        st.sampled_from(["g1", "g2", "g3"]),
    ),
    max_size=12,
    unique_by=lambda m: m.relpath,
)


@settings(max_examples=300, deadline=None, database=None)
@given(metas=_metas)
def test_property_public_index_is_closed(metas: list[DocumentMeta]) -> None:
    """X2/X5: nothing internal, draft or disputed reaches the public index, and the
    public index's groups only ever link public documents."""
    out = run(*metas)
    assert set(out) == {m.relpath for m in metas}
    servable_ids = [m.doc_id for m in metas if not m.draft]
    for m in metas:
        r = out[m.relpath]
        if r.public:
            assert m.audience == PUBLIC and not m.draft
            assert servable_ids.count(m.doc_id) == 1
        if m.audience == INTERNAL:
            assert not r.public and r.audience == INTERNAL
        if r.public_group is not None:
            members = [out[x.relpath] for x in metas if out[x.relpath].public_group == r.public_group]
            assert len(members) >= 2 and all(x.public for x in members)
        if r.group is not None:
            assert sum(1 for x in out.values() if x.group == r.group) >= 2
