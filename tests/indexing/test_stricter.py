"""The quick pass of a configuration change (provider/indexing/stricter.py; CONTRACT X7,
issue 27): every page a full reading under the new settings takes out of the public
index is in the set withdrawn at once — over random wikis and random edits of the
settings that can be changed while serving."""

from __future__ import annotations

import datetime as dt
import tempfile
from dataclasses import replace
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provider.indexing import Indexer
from provider.indexing.manifest import Manifest
from provider.indexing.stricter import public_paths, stricter
from provider.search.layout import IndexLayout
from provider.search.schema import SCHEMA_VERSION
from provider.wiki.audience import AudienceRule
from provider.wiki.audience_map import AudienceMap
from provider.wiki.corpus import resolve
from provider.wiki.document import WikiDocument, WikiSettings, load_document
from tests.support import public_index_paths

NOW = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)
FOLDERS = ("", "guides/", "guides/admin/", "faq/")
GLOBS = ("guides/**", "guides/admin/**", "faq/**", "**/page1.md", "*.md", "**")
#: Bodies: some shared between pages, so copy rules link pages (a page made internal
#: takes its public copies with it).
BODIES = (
    "A refund for a duplicate charge is requested from the order page within thirty days of the charge. The "
    "billing team checks the two charges against the bank statement, cancels the second one and sends a "
    "confirmation by email; the money reaches the card within five working days, or ten for some banks.",
    "Resetting a password sends a link that expires after one hour to the address on the account. When the "
    "link has expired, request another from the sign-in page; when no email arrives, look in the spam folder, "
    "then ask an administrator of the workspace to confirm the address the account uses.",
    "The export runs nightly and keeps seven days of files for every workspace on the business plan. Each "
    "file holds the tickets changed that day, with their comments and attachments listed by name; download "
    "them from the settings page before they are removed, or connect a storage bucket to keep them longer.",
)


@st.composite
def _pages(draw: st.DrawFn, prefix: str = "", sections: bool = False) -> dict[str, str]:
    """Pages under ``prefix``; with ``sections``, a Hugo section page for ``guides/``
    whose ``cascade`` may say an audience."""
    pages = {}
    if sections and draw(st.booleans()):
        cascade = draw(st.sampled_from(["", "cascade:\n  audience: public\n", "cascade:\n  audience: internal\n"]))
        pages[f"{prefix}guides/_index.md"] = f"---\ntitle: Guides\n{cascade}---\n\nThe guides.\n"
    for number in range(draw(st.integers(2, 7))):
        folder = prefix + draw(st.sampled_from(FOLDERS))
        front = [f"title: Page {number}"]
        audience = draw(st.sampled_from([None, "public", "internal"]))
        if audience:
            front.append(f"audience: {audience}")
        visibility = draw(st.sampled_from([None, "ITPro", "Admin", "Other"]))
        if visibility:
            front.append(f"ms.audience: {visibility}")
        if draw(st.booleans()):
            front.append("ROBOTS: NOINDEX")
        body = "\n\n".join(draw(st.lists(st.sampled_from(BODIES), min_size=1, max_size=2, unique=True)))
        if draw(st.booleans()):
            body += "\n\n" + "Long troubleshooting notes follow here. " * 40  # past 1 KiB
        pages[f"{folder}page{number}.md"] = "---\n" + "\n".join(front) + "\n---\n\n# Page\n\n" + body + "\n"
    return pages


@st.composite
def _settings(draw: st.DrawFn, prefix: str = "") -> dict[str, object]:
    rules = tuple(AudienceRule(draw(st.sampled_from([prefix + glob for glob in GLOBS])),
                               draw(st.sampled_from(["public", "public", "internal", "withhold", "skip"])))
                  for _ in range(draw(st.integers(0, 3))))
    key = draw(st.sampled_from(["audience", "ms.audience"]))
    values = draw(st.sampled_from([(), (("ITPro", "public"),), (("ITPro", "public"), ("Admin", "public")),
                                   (("Admin", "internal"), ("ITPro", "public"))]))
    return {"audience_rules": rules, "audience_map": AudienceMap(key, values),
            "withhold_noindex": draw(st.booleans()), "max_file_bytes": draw(st.sampled_from([1024, 2 << 20]))}


def _decided(settings: WikiSettings, relpaths: list[str]) -> Manifest:
    """What a full build with ``settings`` holds (its manifest: metadata, fingerprints)."""
    docs = {}
    skipped = {}
    for relpath in relpaths:
        found = load_document(settings, relpath)
        if isinstance(found, WikiDocument):
            docs[relpath] = found.meta
        elif found is not None:
            skipped[relpath] = found.reason  # as the indexer records them (too large, skipped)
    resolved = resolve(docs, default_locale=settings.default_locale, now=NOW, layout=settings.preset)
    manifest = Manifest(schema_version=SCHEMA_VERSION, settings_key="test")
    manifest.docs = docs
    manifest.skipped = skipped
    manifest.fingerprints = {relpath: item.fingerprint() for relpath, item in resolved.items()}
    return manifest


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), layout=st.sampled_from(["plain", "hugo"]))
def test_the_pages_withdrawn_at_once_include_every_page_the_rebuild_makes_non_public(
        data: st.DataObject, layout: str) -> None:
    """X7, as a class: for any wiki (plain, or Hugo with a section page's cascade) and any
    edit of audience rules (public, internal, withhold, skip; reordered, added, removed),
    audience key and values, ``withhold_noindex`` and ``max_file_bytes``, the pages
    withdrawn at once include every page of the public index the full rebuild with the
    new settings leaves out."""
    prefix = "content/" if layout == "hugo" else ""
    pages = data.draw(_pages(prefix, sections=layout == "hugo"), "pages")
    before = {**data.draw(_settings(prefix), "before"), "layout": layout}
    after = {**data.draw(_settings(prefix), "after"), "layout": layout}
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        for relpath, text in pages.items():
            (root / relpath).parent.mkdir(parents=True, exist_ok=True)
            (root / relpath).write_text(text, "utf-8")
        old = WikiSettings(root=root, **before)  # type: ignore[arg-type]
        new = WikiSettings(root=root, **after)  # type: ignore[arg-type]
        served = _decided(old, sorted(pages))
        rebuilt = _decided(new, sorted(pages))
        found = stricter(old, new, served, now=NOW)
        leaving = public_paths(served) - public_paths(rebuilt)
        assert leaving <= found.paths, (leaving - found.paths, found.why)
        assert found.paths <= public_paths(served)


def _wiki(root: Path, pages: dict[str, str]) -> None:
    for relpath, text in pages.items():
        (root / relpath).parent.mkdir(parents=True, exist_ok=True)
        (root / relpath).write_text(text, "utf-8")


def _page(audience: str | None, body: str) -> str:
    head = f"audience: {audience}\n" if audience else ""
    return f"---\ntitle: T\n{head}---\n\n{body}\n"


def test_an_internal_rule_withdraws_the_pages_it_matches_and_reads_only_their_headers(tmp_path: Path) -> None:
    """X7: ``guides/**: internal`` put before ``**: public`` withdraws the guides — the
    one whose audience came from the rule, and the one whose front matter says public (a
    rule may serve less than the file says) — and not the FAQ page."""
    _wiki(tmp_path, {"guides/a.md": _page(None, BODIES[0]), "guides/b.md": _page("public", BODIES[1]),
                     "faq/c.md": _page(None, BODIES[2])})
    old = WikiSettings(root=tmp_path, audience_rules=(AudienceRule("**", "public"),))
    new = replace(old, audience_rules=(AudienceRule("guides/**", "internal"), AudienceRule("**", "public")))
    found = stricter(old, new, _decided(old, ["guides/a.md", "guides/b.md", "faq/c.md"]), now=NOW)
    assert found.paths == {"guides/a.md", "guides/b.md"} and not found.everything
    assert found.headers == 3  # the changed list starts at its first rule: every page matches one


def test_a_setting_the_pass_cannot_decide_withdraws_every_public_page(tmp_path: Path) -> None:
    """Fail closed: a layout change (every path, front matter and site rule read
    differently) is not decided by the quick pass: the whole public index is withdrawn."""
    _wiki(tmp_path, {"a.md": _page("public", BODIES[0]), "b.md": _page("public", BODIES[1]),
                     "c.md": _page("internal", BODIES[2])})
    old = WikiSettings(root=tmp_path)
    found = stricter(old, replace(old, layout="hugo"), _decided(old, ["a.md", "b.md", "c.md"]), now=NOW)
    assert found.everything and found.paths == {"a.md", "b.md"}
    assert "layout" in found.why


def test_an_edited_file_not_indexed_yet_counts_as_leaving(tmp_path: Path) -> None:
    """A page whose bytes changed since the build (its own batch is pending) cannot be
    judged from its header alone: withdrawn when a setting that reads it changed."""
    _wiki(tmp_path, {"a.md": _page("public", BODIES[0]), "b.md": _page("public", BODIES[1])})
    old = WikiSettings(root=tmp_path)
    served = _decided(old, ["a.md", "b.md"])
    (tmp_path / "a.md").write_text(_page("public", BODIES[2]), "utf-8")
    found = stricter(old, replace(old, withhold_noindex=True), served, now=NOW)
    assert found.paths == {"a.md"}


def test_no_change_of_publication_withdraws_nothing_and_reads_nothing(tmp_path: Path) -> None:
    _wiki(tmp_path, {"a.md": _page("public", BODIES[0])})
    old = WikiSettings(root=tmp_path)
    found = stricter(old, replace(old, chunking=True), _decided(old, ["a.md"]), now=NOW)
    assert not found.paths and found.headers == 0 and not found.everything


def test_a_changed_docs_tool_configuration_withdraws_what_it_excludes_before_the_scan(tmp_path: Path) -> None:
    """X7: ``mkdocs.yml`` gains ``exclude_docs`` and a folder gains a ``.meta.yml`` saying
    internal: those pages leave the public index in the withdrawal, before any page is
    read again; the scan that follows keeps them out and writes back every page the
    withdrawal took out that is still public."""
    site = tmp_path / "site"
    page = "---\ntitle: P\naudience: public\n---\n\n" + BODIES[0] + "\n"
    bare = "---\ntitle: B\n---\n\n" + BODIES[1] + "\n"
    _wiki(site, {"mkdocs.yml": "site_name: x\nplugins:\n  - meta\n", "docs/index.md": page,
                 "docs/secret/s.md": page, "docs/team/.meta.yml": "audience: public\n", "docs/team/p.md": bare,
                 "docs/guide/g.md": page.replace(BODIES[0], BODIES[2])})
    settings = WikiSettings(root=site, layout="mkdocs")
    with Indexer(settings, IndexLayout(tmp_path / "index")) as indexer:
        indexer.sync()
        before = public_index_paths(tmp_path / "index")
        assert before == {"docs/index.md", "docs/secret/s.md", "docs/team/p.md", "docs/guide/g.md"}
        (site / "mkdocs.yml").write_text("site_name: x\nplugins:\n  - meta\nexclude_docs: |\n  secret/\n", "utf-8")
        (site / "docs/team/.meta.yml").write_text("audience: internal\n", "utf-8")  # p.md's own is unchanged
        found = indexer.withdraw_stricter(settings, site_changed=True)
        assert found is not None and not found.everything
        assert found.paths == {"docs/secret/s.md", "docs/team/p.md"}
        assert public_index_paths(tmp_path / "index") == before - found.paths
        indexer.sync()
        assert public_index_paths(tmp_path / "index") == {"docs/index.md", "docs/guide/g.md"}
        assert not indexer.withdrawn_ahead


def test_a_page_on_the_site_withheld_by_a_new_rule_becomes_a_source_of_copies_at_once() -> None:
    """X7 (found by the property above): a NOINDEX page (on the site, no source of copies)
    that a new ``withhold`` rule matches is a source; the public page holding its text
    leaves with the quick pass, as the rebuild decides. The re-read header carried the old
    withholding reason, so the copy rules still took it for a page on the site."""
    pages = {
        "page3.md": f"---\ntitle: Page 3\nROBOTS: NOINDEX\n---\n\n# Page\n\n{BODIES[0]}\n",
        "faq/page2.md": f"---\ntitle: Page 2\nms.audience: ITPro\n---\n\n# Page\n\n{BODIES[2]}\n\n{BODIES[0]}\n",
    }
    audience_map = AudienceMap("ms.audience", (("ITPro", "public"),))
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        for relpath, text in pages.items():
            (root / relpath).parent.mkdir(parents=True, exist_ok=True)
            (root / relpath).write_text(text, "utf-8")
        old = WikiSettings(root=root, audience_map=audience_map, withhold_noindex=True)
        new = replace(old, audience_rules=(AudienceRule("*.md", "withhold"),))
        served = _decided(old, sorted(pages))
        rebuilt = _decided(new, sorted(pages))
        assert public_paths(served) == {"faq/page2.md"} and not public_paths(rebuilt)
        assert stricter(old, new, served, now=NOW).paths == {"faq/page2.md"}
