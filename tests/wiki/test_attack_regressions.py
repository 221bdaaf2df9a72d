"""Leaks found by the adversarial pass on issue 11, pinned as classes (X2, X5): each case
is text its author meant as internal that reached customer_safe before the fix."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from provider.wiki.classify import AudienceRule
from provider.wiki.corpus import resolve
from provider.wiki.document import WikiDocument, WikiSettings, parse_document

NOW = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)
CANARY = "zebrakey"


def _public_canary(files: dict[str, str], rules: tuple[AudienceRule, ...], layout: str = "plain") -> list[str]:
    settings = WikiSettings(root=Path("/x"), layout=layout, locales=("en", "de"), audience_rules=rules)
    docs = {}
    for relpath, text in files.items():
        result = parse_document(settings, relpath, text.encode(), size=len(text), mtime_ns=0)
        if isinstance(result, WikiDocument):
            docs[relpath] = result
    out = resolve({p: d.meta for p, d in docs.items()}, default_locale="en", now=NOW, layout=settings.preset)
    return [p for p, item in out.items()
            if item.public and (CANARY in docs[p].public_body or CANARY in item.meta.title)]


PUBLIC_ALL = (AudienceRule("**", "public"),)


@pytest.mark.parametrize("key", ["audiance", "audince", "adience", "audiences", "audience_", "target_audience",
                                 "audienceType", "ms.audience", "visibility", "private", "internal", "public"])
def test_x5_misspelled_and_intent_keys_fail_closed(key: str) -> None:
    value = "false" if key == "public" else "true" if key in ("private", "internal") else "internal"
    text = f"---\n{key}: {value}\n---\nAgents use override code {CANARY}.\n"
    assert _public_canary({"a.md": text}, PUBLIC_ALL) == []


def test_x5_tags_saying_internal_fail_closed() -> None:
    assert _public_canary({"a.md": f"---\ntags: [billing, internal]\n---\nCode {CANARY}.\n"}, PUBLIC_ALL) == []


@pytest.mark.parametrize("opener", [
    "<!-- intrenal -->", "<!-- inernal -->", "<!-- INTERNL -->", "<!-- confidental -->", "<!-- secret -->",
    "<!-- staff -->", "<!-- hide -->", "<!-- not for customers -->", "<!-- do not share -->",
    "<![CDATA[ internal ]]>", "<?internal?>", "<!INTERNAL>", "{{< restricted >}}", '<div data-audience="internal">',
    '<div style="display:none">', "<details><summary>Internal</summary>", ":::note For support staff",
    "{% if internal %}", ':::zone pivot="internal"',
    # Comments by the Markdown idiom, and in the other languages of the sites we read.
    "[//]: # (internal)", '[comment]: <> "Internal only"', "<!-- 内部メモ -->", "<!-- 社内向け -->",
    "<!-- vertraulich -->", "<!-- Vertraulich: nur Support -->", "<!-- confidentiel -->", "<!-- 비공개 -->",
])
def test_x5_would_be_markers_beyond_the_exact_words(opener: str) -> None:
    text = f"---\naudience: public\n---\nPublic words.\n\n{opener}\nOverride code {CANARY}.\n\nMore.\n"
    assert _public_canary({"a.md": text}, ()) == []


def test_x5_swapped_markers_never_leave_the_page_public() -> None:
    text = f"---\naudience: public\n---\nIntro.\n\n<!-- /internal -->\nToken {CANARY}.\n<!-- internal -->\nEnd.\n"
    assert _public_canary({"a.md": text}, ()) == []


def test_x5_markers_in_a_title_fail_closed() -> None:
    text = f'---\naudience: public\ntitle: "Guide<!-- internal -->{CANARY}<!-- /internal -->"\n---\nBody.\n'
    assert _public_canary({"a.md": text}, ()) == []


def test_x5_an_internal_rule_matches_whatever_the_case() -> None:
    rules = (AudienceRule("staff/**", "internal"), AudienceRule("**", "public"))
    assert _public_canary({"Staff/runbook.md": f"Runbook {CANARY}.\n"}, rules) == []


def test_x5_a_translation_published_only_by_a_rule_keeps_its_sources_internal() -> None:
    files = {"unlock.md": f"---\naudience: internal\n---\nMaster code {CANARY}.\n",
             "unlock.de.md": f"Master-Code {CANARY}.\n"}
    assert _public_canary(files, (AudienceRule("**.de.md", "public"),)) == []


def test_x2_a_copy_with_every_eighth_word_changed_is_still_a_copy() -> None:
    words = ("the override procedure for refunds lets an agent approve a late refund after the thirty day "
             f"limit with the code {CANARY} once the customer has confirmed the account owner and the billing "
             "address and the team lead has signed the exception in the console").split()
    copy = [("edited" if i % 8 == 7 and w != CANARY else w) for i, w in enumerate(words)]
    files = {"ops/runbook.md": "---\naudience: internal\n---\n" + " ".join(words) + "\n",
             "kb/refunds.md": "# Refunds\n\n" + " ".join(copy) + "\n"}
    assert _public_canary(files, (AudienceRule("kb/**", "public"),)) == []


#: CSS that hides an element, as authors write it (property case, spacing, units, the
#: attribute quoted either way); each is a would-be marker (provider.wiki.sections).
HIDING_STYLES = st.tuples(
    st.sampled_from(["display:none", "visibility:hidden", "visibility:collapse", "font-size:0", "font-size:0px",
                     "font-size:0em", "opacity:0", "opacity:0.0"]),
    st.sampled_from(["", " ", "  "]), st.booleans(), st.sampled_from(["p", "div", "span", "section"]),
).map(lambda t: f"<{t[3]} style='{_spaced(t[0], t[1], upper=t[2])}'>")


def _spaced(style: str, space: str, *, upper: bool) -> str:
    text = style.replace(":", ":" + space)
    return text.upper() if upper else text


@settings(max_examples=25, deadline=None)
@given(HIDING_STYLES)
def test_x5_elements_hidden_by_css_fail_closed(opener: str) -> None:
    text = f"---\naudience: public\n---\nPublic words.\n\n{opener}Override code {CANARY}.\n\nMore.\n"
    assert _public_canary({"a.md": text}, ()) == []


@pytest.mark.parametrize("style", ["font-size:0.9em", "opacity:0.5", "font-size: 10px", "visibility: visible"])
def test_visible_styles_stay_public(style: str) -> None:
    text = f"---\naudience: public\n---\nPublic words.\n\n<span style='{style}'>Small print {CANARY}.</span>\n"
    assert _public_canary({"a.md": text}, ()) != []


@pytest.mark.parametrize("line", ["[//]: # (TODO: add a screenshot)", "[docs]: https://example.com/internal-api",
                                  "<!-- 画像を追加 -->", "<!-- Bild ergänzen -->"])
def test_comments_without_a_hide_word_stay_public(line: str) -> None:
    text = f"---\naudience: public\n---\nPublic words.\n\n{line}\nToken {CANARY}.\n"
    assert _public_canary({"a.md": text}, ()) != []


@pytest.mark.parametrize("line", ['A result is labelled `"audience": "internal"` in the answer.',
                                  "Set ``audience: public`` in the front matter."])
def test_an_audience_key_shown_as_inline_code_is_not_a_header(line: str) -> None:
    """A page documenting the wiki format shows the key as code: no misplaced header."""
    text = f"---\naudience: public\n---\nPublic words.\n\n{line}\nToken {CANARY}.\n"
    assert _public_canary({"a.md": text}, ()) != []


def test_an_audience_key_outside_inline_code_still_fails_closed() -> None:
    text = f"---\naudience: public\n---\nPublic words.\n\nSee `this`: audience: internal\nToken {CANARY}.\n"
    assert _public_canary({"a.md": text}, ()) == []
