"""Hugo cascade: read from section pages (provider.wiki.cascade) and applied by
provider.wiki.corpus.resolve. Precedence: own front matter > nearest cascade > operator
rule > internal; anything unreadable fails closed (CONTRACT X5)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provider.wiki.cascade import read_cascade
from provider.wiki.classify import AudienceRule
from provider.wiki.corpus import Resolved, resolve
from provider.wiki.document import WikiDocument, WikiSettings, parse_document
from provider.wiki.layouts import HUGO

NOW = dt.datetime(2025, 6, 1, tzinfo=dt.UTC)


def wiki(files: dict[str, str], *rules: AudienceRule, now: dt.datetime = NOW) -> dict[str, Resolved]:
    settings = WikiSettings(root=Path("/x"), layout="hugo", locales=("en", "de"), audience_rules=rules)
    metas = {}
    for relpath, text in files.items():
        result = parse_document(settings, relpath, text.encode(), size=len(text), mtime_ns=0)
        assert isinstance(result, WikiDocument), (relpath, result)
        metas[relpath] = result.meta
    return resolve(metas, default_locale="en", now=now)


def page(header: str = "", body: str = "Some text.") -> str:
    return f"---\n{header}\n---\n{body}\n"


def test_read_cascade_shapes() -> None:
    assert read_cascade({}, HUGO) == (None, [], [])
    assert read_cascade({"cascade": {"audience": "public"}}, HUGO)[0] == {"audience": "public"}
    assert read_cascade({"cascade": {"params": {"audience": "public"}}}, HUGO)[0] == {"audience": "public"}
    assert read_cascade({"cascade": [{"draft": True}, {"audience": "internal"}]}, HUGO)[0] == {
        "draft": "front matter draft", "audience": "internal"}
    broken, errors, _ = read_cascade({"cascade": "public"}, HUGO)
    assert broken == {"error": "front matter cascade is not a mapping or a list of mappings",
                      "build": "front matter cascade is not a mapping or a list of mappings (withheld, fail closed)"}
    assert errors
    invalid, errors, _ = read_cascade({"cascade": {"audience": "Public"}}, HUGO)
    assert invalid == {"audience": "invalid"} and errors


def test_targeted_cascade_entries_may_only_withhold() -> None:
    values, errors, warnings = read_cascade(
        {"cascade": [{"audience": "public", "target": {"path": "/docs/**"}},
                     {"draft": False, "build": {"render": "never"}, "_target": {"environment": "production"}}]},
        HUGO,
    )
    assert values == {"build": "front matter build.render: never"}
    # A targeted audience: public depends on what is not evaluated: the section is quarantined.
    assert len(errors) == 1 and len(warnings) == 1


@pytest.mark.parametrize("key", ["Audience", "audi\u00adence", "\u0430udience", "audience "])
def test_x5_a_look_alike_cascade_key_makes_the_section_internal(key: str) -> None:
    """Issue 11: ``cascade: {аudience: internal}`` must not let a public rule publish the section."""
    out = wiki({
        "content/docs/_index.md": "---\n" + f'title: Docs\ncascade:\n  "{key}": internal\n' + "---\nSection.\n",
        "content/docs/a.md": page("title: A"),
    }, AudienceRule("content/**", "public"))
    assert not out["content/docs/a.md"].public
    assert out["content/docs/a.md"].quarantined or key == "Audience"  # Hugo lowercases keys: exact


def test_x5_a_one_line_json_cascade_is_read() -> None:
    out = wiki({
        "content/docs/_index.md": '{"title": "Docs", "cascade": {"audience": "internal"}}\nSection.\n',
        "content/docs/a.md": page("title: A"),
    }, AudienceRule("content/**", "public"))
    assert not out["content/docs/a.md"].public


def test_section_cascade_makes_a_section_public_in_one_place() -> None:
    out = wiki({
        "content/docs/_index.md": page("title: Docs\ncascade:\n  audience: public"),
        "content/docs/a.md": page("title: A"),
        "content/docs/deep/b.md": page("title: B"),
        "content/other/c.md": page("title: C"),
    })
    assert out["content/docs/a.md"].public and out["content/docs/deep/b.md"].public
    assert out["content/docs/_index.md"].public  # the section page itself
    assert out["content/docs/a.md"].audience_source == "cascade from content/docs/_index.md"
    assert not out["content/other/c.md"].public


@pytest.mark.parametrize(
    ("own", "nearest", "rule", "expected"),
    [
        ("audience: internal", "public", "public", "internal"),  # own front matter first
        ("audience: public", "internal", "internal", "internal"),  # an internal rule serves less
        ("audience: public", "public", "internal", "internal"),
        ("audience: public", "public", "public", "public"),
        ("", "internal", "public", "internal"),  # nearest cascade beats the rule
        ("", "public", "internal", "internal"),  # an internal rule is not undone by a cascade
        ("", None, "public", "public"),  # no cascade: the rule
        ("", None, None, "internal"),  # nothing: fail closed
        ("audience: Public", "public", "public", "internal"),  # own but invalid: fail closed
        ("Audience: internal", "public", "public", "internal"),  # misspelled key counts as own
    ],
)
def test_precedence(own: str, nearest: str | None, rule: str | None, expected: str) -> None:
    files = {
        "content/_index.md": page("cascade:\n  audience: public"),
        "content/docs/x.md": page(own),
    }
    if nearest is not None:
        files["content/docs/_index.md"] = page(f"cascade:\n  audience: {nearest}")
    rules = (AudienceRule("content/docs/**", rule),) if rule else ()
    if nearest is None:
        files["content/_index.md"] = page("title: Home")  # no cascade anywhere
    assert wiki(files, *rules)["content/docs/x.md"].audience == expected


def test_cascade_applies_per_locale() -> None:
    out = wiki({
        "content/en/docs/_index.md": page("cascade:\n  audience: public"),
        "content/en/docs/a.md": page(),
        "content/de/docs/_index.md": page("title: Doku"),
        "content/de/docs/a.md": page(body="Text auf Deutsch."),
    })
    assert out["content/en/docs/a.md"].public
    assert not out["content/de/docs/a.md"].public
    # A language suffix's cascade applies to that language's pages only.
    suffix = wiki({
        "content/docs/_index.de.md": page("cascade:\n  audience: internal"),
        "content/docs/a.md": page("audience: public"),
        "content/docs/a.de.md": page(body="Text auf Deutsch."),
    })
    assert suffix["content/docs/a.md"].public and not suffix["content/docs/a.de.md"].public
    # A public cascade of the translation's language does not publish a translation of an
    # internal source: the source's status counts however it was decided (issue 24).
    leak = wiki({
        "content/docs/_index.de.md": page("cascade:\n  audience: public"),
        "content/docs/a.md": page(),
        "content/docs/a.de.md": page(body="Text auf Deutsch."),
    })
    assert not leak["content/docs/a.de.md"].public and not leak["content/docs/a.md"].public


def test_unreadable_or_invalid_section_makes_pages_below_internal_and_quarantined() -> None:
    """A cascade that cannot be read may have said ``internal`` or ``build: {render:
    never}``: the pages below are internal and withheld from everyone (X5); an invalid
    cascaded audience (readable) makes them internal only."""
    rule = AudienceRule("content/**", "public")
    for section, readable in (("---\ncascade: [\n---\nText.", False), (page("cascade: nope"), False),
                              (page("cascade:\n  audience: yes"), True)):
        out = wiki({"content/docs/_index.md": section, "content/docs/a.md": page(),
                    "content/docs/own.md": page("audience: public")}, rule)
        below = out["content/docs/a.md"]
        assert below.audience == "internal" and below.quarantined, section
        assert below.served is readable, section
        # A page that says public itself keeps its audience, but not what the cascade withholds.
        assert out["content/docs/own.md"].public is readable, section


def test_cascaded_withholding_and_own_override() -> None:
    out = wiki({
        "content/drafts/_index.md": page("audience: public\ncascade:\n  draft: true\n  audience: public"),
        "content/drafts/a.md": page(),
        "content/drafts/ready.md": page("draft: false"),
        "content/later/_index.md": page("cascade:\n  publishDate: 2025-07-01\n  audience: public"),
        "content/later/b.md": page(),
    })
    assert not out["content/drafts/a.md"].served
    assert "cascade from content/drafts/_index.md" in str(out["content/drafts/a.md"].withheld)
    assert out["content/drafts/ready.md"].served
    assert not out["content/later/b.md"].served
    later = wiki({"content/later/_index.md": page("cascade:\n  publishDate: 2025-07-01\n  audience: public"),
                  "content/later/b.md": page()}, now=dt.datetime(2025, 7, 2, tzinfo=dt.UTC))
    assert later["content/later/b.md"].public


def test_section_page_without_text_still_cascades() -> None:
    out = wiki({"content/docs/_index.md": "---\ncascade:\n  audience: public\n---\n", "content/docs/a.md": page()})
    assert out["content/docs/a.md"].public
    assert not out["content/docs/_index.md"].served
    assert "no readable text" in str(out["content/docs/_index.md"].withheld)


def test_toml_cascade_tables() -> None:
    out = wiki({
        "content/docs/_index.md": "+++\ntitle = 'Docs'\n[[cascade]]\n[cascade.params]\naudience = 'public'\n+++\nDocs.",
        "content/docs/a.md": "+++\ntitle = 'A'\n+++\nText.",
    })
    assert out["content/docs/a.md"].public


_AUDIENCES = st.one_of(
    st.just(None), st.sampled_from(["public", "internal", "Public", " public", "PUBLIC", "publiс", "yes", "[public]"]),
    st.booleans(), st.integers(), st.lists(st.just("public"), max_size=2),
)


@settings(max_examples=200, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(section=_AUDIENCES, own=_AUDIENCES, params=st.booleans(), targeted=st.booleans(),
       misspelled_key=st.booleans())
def test_x5_property_public_only_by_an_exact_string(
    section: object, own: object, params: bool, targeted: bool, misspelled_key: bool
) -> None:
    """No rule: a page is public only when its own audience is exactly "public", or it
    has no audience key of its own and the nearest untargeted cascade says exactly
    "public"."""
    entry: dict[str, object] = {}
    if section is not None:
        entry = {"params": {"audience": section}} if params else {"audience": section}
    if targeted:
        entry["target"] = {"path": "/docs/**"}
    page_data: dict[str, object] = {"title": "X"}
    if own is not None:
        page_data["\u0430udience" if misspelled_key else "audience"] = own  # Cyrillic a: a look-alike key
    files = {
        "content/docs/_index.md": "---\n" + yaml.safe_dump({"title": "S", "cascade": entry}) + "---\nSection.\n",
        "content/docs/x.md": "---\n" + yaml.safe_dump(page_data) + "---\nText.\n",
    }
    result = wiki(files)["content/docs/x.md"]
    exact_own = own == "public" and isinstance(own, str) and not misspelled_key
    exact_cascade = own is None and section == "public" and isinstance(section, str) and not targeted
    if result.public:
        assert exact_own or exact_cascade, (section, own, params, targeted, misspelled_key)
    if exact_own or exact_cascade:
        assert result.public
