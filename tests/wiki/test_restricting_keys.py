"""Issue 24's restricting front matter, second round (CONTRACT X5): one table of key kinds.

Leak class: ``audience: public`` beside a key of any kind of :data:`KEY_KINDS` — a
workflow state before publication, a hidden flag, a visibility key in the site's language,
a restricting value in any language, a comment saying "internal" — in any case, spelling
and position. Each makes the page internal and quarantined (an error, so ``check
--strict`` exits 1). Balance: keys of what the page documents (``private_repo``) and
layout switches (``hide: [toc]``) restrict nothing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from provider.wiki.document import WikiDocument, WikiSettings, parse_document
from provider.wiki.restricting_keys import comment_restricts, front_matter_lines, restricting_kind
from tests.wiki.staff_variants import beside_audience
from tests.wiki.variants import CANARY, LAYOUTS

FAST = settings(max_examples=300, deadline=None)

#: ``(key, value)`` pairs of each kind, in several languages.
RESTRICTING: dict[str, list[tuple[str, Any]]] = {
    "status": [("state", "wip"), ("review", "pending"), ("status", "Draft"), ("Status", "Entwurf"),
               ("estado", "borrador"), ("workflow", "in review"), ("stage", "staging"), ("状態", "下書き"),
               ("tila", "luonnos"), ("durum", "taslak")],
    "hidden flag": [("hidden", True), ("Hidden", "yes"), ("verborgen", True), ("oculto", "true"), ("unpublished", 1),
                    ("hide", True), ("hide", "yes")],
    # Taken out of service (issue 24, fourth round); ``status: archived`` is a status.
    "out of service": [("retired", True), ("archived", True), ("Archived", "yes"), ("is_archived", True)],
    "publish flag": [("publish", False), ("isPublished", "no"), ("veröffentlicht", "nein"), ("publicar", False)],
    "intent": [("sichtbarkeit", "intern"), ("公開範囲", "社内"), ("visibilidad", "interna"),
               ("zichtbaarheid", "intern"), ("visibility", "public"), ("synlighet", "intern"),
               ("görünürlük", "dahili"), ("widoczność", "wewnętrzna"), ("видимость", "внутренний")],
    "value": [("zielgruppe", "intern"), ("scope", "社内"), ("leser", "Nur für Mitarbeiter"), ("for", "Staff only"),
              ("scope", "nội bộ"), ("lectores", "interno"), ("kohderyhmä", "Vain henkilökunnalle"),
              ("zielgruppe", "Mitarbeiter"), ("doelgroep", "medewerkers"), ("対象", "社員"), ("대상", "직원")],
    # The attacker's members, this round.
    "exposure flag": [("is_public", False), ("public_facing", False), ("customerFacing", False),
                      ("show_to_customers", "no")],
    "hidden from readers": [("hide_from_public", True), ("hidePublic", "yes")],
    "sign-in": [("login_required", True), ("requires_login", True), ("gated", True), ("auth", "required")],
    "not ready": [("wip", True), ("todo", "yes")],
    "not approved": [("ready", False), ("approved", False), ("reviewed", "no")],
    # Kept out of search engines by its own site (issue 24, third round): not meant to be found.
    "kept out of search": [("noindex", True), ("robots", "noindex"), ("ROBOTS", "NOINDEX, NOFOLLOW"),
                           ("robots", "none"), ("sitemap", False), ("sitemap", {"disable": True}),
                           ("no_sitemap", "yes"), ("googlebot", "noindex"), ("Bingbot", "noindex, nofollow"),
                           ("index", False), ("index", "no"), ("meta", [{"name": "robots", "content": "noindex"}]),
                           ("meta", [{"property": "googlebot", "content": "none"}]),
                           ("head", [["meta", {"name": "robots", "content": "noindex"}]]),
                           ("head", [{"tag": "meta", "attrs": {"name": "robots", "content": "noindex"}}])],
}
ORDINARY: list[tuple[str, Any]] = [
            ("private_repo", True), ("privateRepo", True), ("internal_ip", "10.0.0.2"), ("secret_key_name", "API"),
            ("hide", ["toc", "navigation"]), ("hide_title", True), ("unlisted", True), ("status", "published"),
            ("state", "stable"), ("review", "2024-01-02"), ("publish", True), ("tags", ["Agent", "Internal DNS"]),
            ("title", "Internal notes for your team"), ("hide_table_of_contents", True), ("sidebar_position", 2),
            ("public_api", False), ("external_ip", "1.2.3.4"), ("is_public", True), ("search_exclude", True),
            # Left out of the site's own search box only, as translations are (openai-agents-docs).
            ("search", {"exclude": True}),
            ("robots", "index, follow"), ("sitemap", {"priority": 0.5}), ("search", {"boost": 2}), ("noindex", False),
            # Component switches, no publication (issue 24: ambiguous, left public).
            ("enabled", False), ("active", False), ("show", False), ("comments", {"enabled": False}),
            ("tags", ["agents", "sdk"]), ("ready", True),
            # Issue 24, fourth round: a sort order, a switch of the page's chat widget, meta
            # tags saying nothing of robots, Docusaurus-like ``listed: false`` (published,
            # only left out of lists, as ``unlisted: true``), flags saying in service.
            ("index", 3), ("index", 0), ("index", True), ("chatbot", False), ("googlebot", "index, follow"),
            ("meta", [{"name": "description", "content": "none"}, {"name": "robots", "content": "index"}]),
            ("listed", False), ("retired", False), ("archived", "no"), ("hide", False),
            ("sunset", "Sunset of the v1 API"),
            ("events", [{"name": "Webinar", "end_date": "2020-01-01"}]),
            # The page-level keys deeper down are a component's or a listed item's.
            ("versions", [{"name": "v1", "archived": True}]), ("sidebar", {"hide": True}),
            ("search", {"index": False}), ("widgets", {"googlebot": "noindex"}),
            ("head", [["meta", {"name": "description", "content": "none"}]]),
            # Starlight's head tags (astro-docs' tutorial pages).
            ("head", [{"tag": "title", "content": "Build a blog tutorial: Unit 1 - Setup | Docs"}]),
            # Docs tools' own keys that begin with a restricting word's letters (an attack
            # found Jekyll's permalink quarantining every page that sets one).
            ("permalink", "/x/"), ("permalink", "/x"), ("permalinks", {"post": "/:title/"}),
            ("accessibility", "WCAG 2.1")]


def _parse(text: str, layout: str = "plain") -> WikiDocument:
    wiki = WikiSettings(root=Path("/x"), layout=layout)
    result = parse_document(wiki, "docs/page.md", text.encode("utf-8"), size=len(text), mtime_ns=0)
    assert isinstance(result, WikiDocument)
    return result


def _page(lines: list[str]) -> str:
    return "---\n" + "\n".join(lines) + f"\n---\n# Page\n\nThe {CANARY} override.\n"


@st.composite
def restricting_key(draw: st.DrawFn) -> tuple[str, str, str]:
    """``(layout, kind, page)``: ``audience: public`` and a restricting key of one kind,
    in another case, above or below, at the top or under ``params`` (Hugo)."""
    layout = draw(st.sampled_from(LAYOUTS))
    kind = draw(st.sampled_from(sorted(RESTRICTING)))
    key, value = draw(st.sampled_from(RESTRICTING[kind]))
    key = draw(st.sampled_from([key, key.upper(), key.capitalize()]))
    return layout, kind, _page(beside_audience(draw, layout, key, value))


@FAST
@given(restricting_key())
@example(("plain", "status", _page(["audience: public", "state: wip"])))
@example(("plain", "hidden flag", _page(["audience: public", "hidden: true"])))
@example(("plain", "intent", _page(["audience: public", "公開範囲: 社内"])))
def test_x5_a_key_of_any_kind_beside_audience_public_makes_the_page_internal(variant: tuple[str, str, str]) -> None:
    layout, kind, text = variant
    doc = _parse(text, layout)
    # Internal and quarantined; or, for the keys the publication rules read exactly
    # (``published: no``), withheld from everyone. A page kept out of search engines is
    # internal without a doubt, so not quarantined.
    quarantined = bool(doc.meta.errors) or kind == "kept out of search"
    assert (doc.meta.audience == "internal" and quarantined) or doc.meta.draft, text


@pytest.mark.parametrize(("kind", "key", "value"), [(k, key, v) for k, pairs in RESTRICTING.items()
                                                    for key, v in pairs])
def test_x5_the_table_names_each_kind(kind: str, key: str, value: object) -> None:
    assert restricting_kind(key, value) == kind


@pytest.mark.parametrize(("key", "value"), ORDINARY)
def test_x5_balance_keys_of_the_topic_and_layout_switches_stay_public(key: str, value: object) -> None:
    assert restricting_kind(key, value) is None
    line = f"{json.dumps(key)}: {json.dumps(value)}"
    assert _parse(_page(["audience: public", line])).meta.audience == "public", line


@pytest.mark.parametrize("comment", ["internal until launch", "draft, do not publish", "Staff only",
                                     "INTERNAL", "nur intern", "社内向け", "not for customers yet", "embargoed",
                                     "not ready", "do not publish yet", "hold until launch", "not yet released",
                                     "legal hasn't approved this", "legal hasn\u2019t approved this", "not approved",
                                     "hasn't been approved", "pending approval", "awaiting legal sign-off"])
@pytest.mark.parametrize("where", ["after audience", "own line", "after title", "after tags"])
def test_x5_a_front_matter_comment_saying_internal_makes_the_page_internal(comment: str, where: str) -> None:
    if where == "after audience":
        lines = [f"audience: public # {comment}", "title: Page"]
    elif where == "own line":
        lines = [f"# {comment}", "audience: public", "title: Page"]
    elif where == "after title":
        lines = ["audience: public", f"title: Page  # {comment}"]
    else:
        lines = ["audience: public", "title: Page", f"tags: [billing]  # {comment}"]
    doc = _parse(_page(lines))
    assert doc.meta.audience == "internal", lines
    assert any("front matter comment" in e for e in doc.meta.errors), doc.meta.errors


@pytest.mark.parametrize("lines", [
    ["audience: public", "# Do not make edits to it directly, they will be overwritten."],
    ["audience: public", 'title: "C# internals # not a comment"'],
    ["audience: public", "title: 'Issue #12 internal'"],
    ["audience: public", "tags: [billing]  # approved by legal on 2024-03-01"],
    ["audience: public", "tags: [billing]  # see the approval process for refunds"],
])
def test_x5_balance_comments_about_editing_and_hashes_in_values_restrict_nothing(lines: list[str]) -> None:
    assert _parse(_page(lines)).meta.audience == "public", lines


def test_front_matter_lines_reads_between_the_fences_only() -> None:
    assert front_matter_lines("---\na: 1 # x\n---\n# body # internal\n") == "a: 1 # x"
    assert front_matter_lines("+++\na = 1\n+++\n") == "a = 1"
    assert front_matter_lines("# Title\n---\n") == "" and front_matter_lines("---\nnot closed\n") == ""
    assert comment_restricts("a: 1 # internal") == "internal" and comment_restricts("a: 1") is None
