"""provider.wiki.audience: a document's audience decided in one pass, with its reasons (X2, X5)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from provider.wiki.audience import (
    CORPUS,
    FILE,
    INTERNAL,
    PUBLIC,
    AudienceRule,
    FileFacts,
    Reason,
    audience_signals,
    decide_file,
)
from provider.wiki.corpus import resolve
from provider.wiki.document import DocumentMeta, WikiDocument, WikiSettings, parse_document

PUBLIC_ALL = (AudienceRule("**", PUBLIC),)


def test_x5_a_symlink_tells_both_steps() -> None:
    verdict = decide_file(FileFacts("docs/a.md", {}, (AudienceRule("docs/**", PUBLIC),), real_relpath="staff/a.md"))
    assert [r.audience for r in verdict.reasons] == [PUBLIC, INTERNAL]
    assert verdict.reasons[0].source == "rule 'docs/**'"
    assert verdict.source == "fail-closed: symlink to staff/a.md, which the rules do not make public"
    assert verdict.audience == INTERNAL and not verdict.own


def test_x5_body_and_marker_steps_follow_the_front_matter_in_order() -> None:
    verdict = decide_file(FileFacts("a.md", {"audience": PUBLIC}, (), audience_in_body=True, would_be_marker=True))
    assert [(r.audience, r.source) for r in verdict.reasons] == [
        (PUBLIC, "front matter"),
        (INTERNAL, "fail-closed: an audience key in the body"),
        (INTERNAL, "fail-closed: a would-be internal-section marker"),
    ]
    assert verdict.own and verdict.audience == INTERNAL and all(r.stage == FILE for r in verdict.reasons)


def test_x5_unreadable_decides_alone_whatever_the_rules_say() -> None:
    verdict = decide_file(FileFacts("a.md", {"audience": PUBLIC}, PUBLIC_ALL, unreadable="front matter is not YAML",
                                    audience_in_body=True))
    assert verdict.reasons == (Reason(INTERNAL, "fail-closed: front matter is not YAML"),)
    assert verdict.own


def test_an_audience_from_the_docs_tool_defaults_names_the_site_configuration() -> None:
    facts = FileFacts("a.md", {"audience": PUBLIC}, (), site_sources=("_config.yml",), page_front_matter={})
    assert decide_file(facts).source == "site metadata (_config.yml): "
    own = dataclasses.replace(facts, page_front_matter={"audience": PUBLIC})
    assert decide_file(own).source == "front matter"


_KEYS = st.sampled_from(["audience", "Audience", "audiance", "visibility", "params", "title", "tags", "аudience"])
_VALUES = st.one_of(st.sampled_from([PUBLIC, INTERNAL, "Public", "public ", "", None, True, 1, [PUBLIC]]),
                    st.text(max_size=8))
_FRONT = st.recursive(st.dictionaries(_KEYS, _VALUES, max_size=3),
                      lambda inner: st.dictionaries(_KEYS, st.one_of(_VALUES, inner), max_size=3), max_leaves=6)
_RULES = st.lists(st.builds(AudienceRule, st.sampled_from(["**", "docs/**", "staff/**", "*.md", "Docs/**"]),
                            st.sampled_from([PUBLIC, INTERNAL])), max_size=3).map(tuple)


@settings(max_examples=300, deadline=None)
@given(front=_FRONT, rules=_RULES, path=st.sampled_from(["docs/a.md", "staff/a.md", "a.md"]),
       real=st.sampled_from([None, "staff/b.md", "docs/b.md"]), unreadable=st.sampled_from([None, "bad header"]),
       in_body=st.booleans(), marker=st.booleans(), section=st.booleans())
def test_x5_public_only_when_every_step_says_exactly_public(
    front: dict[str, object], rules: tuple[AudienceRule, ...], path: str, real: str | None, unreadable: str | None,
    in_body: bool, marker: bool, section: bool,
) -> None:
    """The class: any front matter, rules, symlink, unreadable header and body markers.
    Public only when nothing doubts it; every step after the first only takes away."""
    skip = ("cascade",) if section else ()
    verdict = decide_file(FileFacts(path, front, rules, unreadable=unreadable, real_relpath=real, skip=skip,
                                    audience_in_body=in_body, would_be_marker=marker))
    assert verdict.audience == verdict.reasons[-1].audience
    assert all(r.audience == INTERNAL for r in verdict.reasons[1:])
    if verdict.audience != PUBLIC:
        return
    assert unreadable is None and not in_body and not marker and not verdict.errors
    signals = audience_signals(front, skip=skip)
    if signals:
        assert all(s.exact and s.value == PUBLIC for s in signals)
    else:
        for where in (path, *([real] if real else [])):
            first = next(r for r in rules if r.matches(where))
            assert first.audience == PUBLIC


def _doc(root: Path, relpath: str, text: str, rules: tuple[AudienceRule, ...] = ()) -> DocumentMeta:
    doc = parse_document(WikiSettings(root=root, audience_rules=rules), relpath, text.encode(), size=len(text),
                         mtime_ns=0)
    assert isinstance(doc, WikiDocument)
    return doc.meta


def test_x2_the_story_runs_from_the_file_to_the_corpus_rules(tmp_path: Path) -> None:
    docs = {m.relpath: m for m in (
        _doc(tmp_path, "a.md", "---\nid: same\n---\nOne page about refunds.\n", PUBLIC_ALL),
        _doc(tmp_path, "b.md", "---\nid: same\n---\nAnother page about invoices.\n", PUBLIC_ALL),
    )}
    out = resolve(docs)
    for item in out.values():
        assert [(r.audience, r.source, r.stage) for r in item.reasons] == [
            (PUBLIC, "rule '**'", FILE), (INTERNAL, "fail-closed: duplicate documentId", CORPUS)]
        assert (item.audience, item.audience_source) == (item.reasons[-1].audience, item.reasons[-1].source)
        assert not item.public


def test_x2_a_quarantined_file_ends_its_story_internal(tmp_path: Path) -> None:
    meta = _doc(tmp_path, "a.md", "---\ntitle: A <!-- internal -->\n---\nText.\n", PUBLIC_ALL)
    item = resolve({meta.relpath: meta})["a.md"]
    assert item.reasons[0] == Reason(PUBLIC, "rule '**'", FILE)
    assert item.reasons[-1].stage == CORPUS and item.reasons[-1].source.startswith("fail-closed: quarantined (")
    assert item.audience == INTERNAL and not item.public
