"""provider.wiki.classify: audience (fail closed, CONTRACT X5), draft, locale,
translation group, document id, title and review date of one file."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from provider.wiki.classify import (
    INTERNAL,
    PUBLIC,
    AudienceRule,
    decide_audience,
    decide_doc_id,
    decide_draft,
    decide_locale,
    decide_review_due,
    decide_title,
    decide_translation_group,
    readable_name,
)
from provider.wiki.document import WikiDocument, WikiSettings, parse_document
from provider.wiki.files import Skipped
from provider.wiki.frontmatter import parse_front_matter

PUBLIC_RULE = (AudienceRule("**", PUBLIC),)
UTC = dt.UTC


def settings_for(*rules: AudienceRule, locales: tuple[str, ...] = ("en", "de"), default: str = "en") -> WikiSettings:
    return WikiSettings(root=Path("/nonexistent"), default_locale=default, locales=locales, audience_rules=rules)


def doc(text: str | bytes, relpath: str = "a.md", *rules: AudienceRule, **kw: Any) -> WikiDocument:
    data = text.encode("utf-8") if isinstance(text, str) else text
    result = parse_document(settings_for(*rules, **kw), relpath, data, size=len(data), mtime_ns=0)
    assert isinstance(result, WikiDocument), result
    return result


def with_header(header: str, body: str = "Some readable text.") -> str:
    return f"---\n{header}\n---\n{body}\n"


# --------------------------------------------------------------------------- audience


def test_x5_exact_public_is_public() -> None:
    assert decide_audience({"audience": "public"}, "a.md", (), unreadable=None).value == PUBLIC
    assert doc(with_header("audience: public")).meta.audience == PUBLIC


def test_x5_exact_internal_is_internal() -> None:
    decision = decide_audience({"audience": "internal"}, "a.md", (), unreadable=None)
    assert decision.value == INTERNAL
    assert decision.source == "front matter"


def test_x5_missing_audience_without_rule_is_internal() -> None:
    decision = decide_audience({}, "a.md", (), unreadable=None)
    assert decision.value == INTERNAL
    assert decision.source.startswith("fail-closed")
    assert doc("# Hello\n\nNo header at all.").meta.audience == INTERNAL


@pytest.mark.parametrize(
    "value",
    [
        "Public",
        "PUBLIC",
        " public",
        "public ",
        "internal ",
        "publ1c",
        "",
        ["public"],
        {"public": True},
        True,
        False,
        1,
        0,
        1.0,
        None,
        dt.date(2024, 1, 1),
        b"public",
        ("public",),
    ],
)
def test_x5_anything_but_exact_public_is_internal(value: object) -> None:
    decision = decide_audience({"audience": value}, "docs/a.md", (), unreadable=None)
    assert decision.value == INTERNAL
    assert decision.source.startswith("fail-closed")


@pytest.mark.parametrize(
    "yaml_value",
    ["Public", "' public'", "'public '", "[public]", "true", "1", "null", "", "2024-01-01", "'internal '", "yes", "~"],
)
def test_x5_front_matter_near_misses_are_internal_even_with_public_rule(yaml_value: str) -> None:
    """An explicit audience value that is not recognised beats a public rule."""
    result = doc(with_header(f"audience: {yaml_value}"), "docs/a.md", AudienceRule("docs/**", PUBLIC))
    assert result.meta.audience == INTERNAL
    assert result.meta.sources["audience"].startswith("fail-closed")
    assert any("audience" in w for w in result.meta.warnings)


def test_x5_rule_applies_only_without_audience_key() -> None:
    rules = (AudienceRule("docs/**", PUBLIC),)
    assert decide_audience({}, "docs/a.md", rules, unreadable=None).value == PUBLIC
    assert decide_audience({}, "docs/x/y/z.md", rules, unreadable=None).value == PUBLIC
    assert decide_audience({}, "other/a.md", rules, unreadable=None).value == INTERNAL
    assert decide_audience({}, "docs.md", rules, unreadable=None).value == INTERNAL


def test_x5_explicit_internal_beats_public_rule() -> None:
    decision = decide_audience(
        {"audience": "internal"}, "docs/a.md", (AudienceRule("docs/**", PUBLIC),), unreadable=None
    )
    assert decision.value == INTERNAL


def test_x5_an_internal_rule_takes_back_front_matter_public() -> None:
    """An operator makes a folder internal with one rule, whatever its pages say (rules
    serve less than the front matter, never more); a public first match does not."""
    decision = decide_audience(
        {"audience": "public"}, "docs/a.md", (AudienceRule("docs/**", INTERNAL),), unreadable=None
    )
    assert decision.value == INTERNAL and "rule 'docs/**'" in decision.source
    first = (AudienceRule("docs/public/**", PUBLIC), AudienceRule("docs/**", INTERNAL))
    assert decide_audience({"audience": "public"}, "docs/public/a.md", first, unreadable=None) \
        == decision.__class__(PUBLIC, "front matter")


def test_first_matching_rule_wins() -> None:
    rules = (AudienceRule("docs/internal/**", INTERNAL), AudienceRule("docs/**", PUBLIC))
    assert decide_audience({}, "docs/internal/a.md", rules, unreadable=None).value == INTERNAL
    assert decide_audience({}, "docs/a.md", rules, unreadable=None).value == PUBLIC
    reversed_rules = tuple(reversed(rules))
    assert decide_audience({}, "docs/internal/a.md", reversed_rules, unreadable=None).value == PUBLIC
    assert decide_audience({}, "docs/a.md", rules, unreadable=None).source == "rule 'docs/**'"


def test_rule_glob_features() -> None:
    rule = AudienceRule("{faq,help}/**/*.md", PUBLIC)
    assert rule.matches("faq/a.md")
    assert rule.matches("help/x/y/b.md")
    assert not rule.matches("other/faq/a.md")
    assert AudienceRule("*.md", PUBLIC).matches("a.md")
    assert not AudienceRule("*.md", PUBLIC).matches("x/a.md")


def test_x5_unreadable_header_is_internal_even_with_public_rule() -> None:
    decision = decide_audience({}, "a.md", PUBLIC_RULE, unreadable="front matter is not valid YAML")
    assert decision.value == INTERNAL
    assert "not valid YAML" in decision.source
    # and through parse_document: a broken header whose text *says* public
    result = doc(with_header("audience: public\ntitle: [unclosed"), "a.md", *PUBLIC_RULE)
    assert result.meta.audience == INTERNAL
    assert any("not valid YAML" in w for w in result.meta.warnings)


def test_x5_unreadable_even_if_data_says_public() -> None:
    decision = decide_audience({"audience": "public"}, "a.md", PUBLIC_RULE, unreadable="file is not valid UTF-8")
    assert decision.value == INTERNAL


@pytest.mark.parametrize(
    "header",
    [
        "audience: public\naudience: public",  # duplicate
        # an alias bomb
        "a: &a [x,x,x,x,x,x,x,x,x,x]\nb: &b [" + ",".join(["*a"] * 100) + "]\nc: [" + ",".join(["*b"] * 50) + "]",
        "- audience: public",  # not a mapping
        "audience: !!python/str public",  # python tag
    ],
)
def test_x5_refused_headers_are_internal_with_public_rule(header: str) -> None:
    assert doc(with_header(header), "a.md", *PUBLIC_RULE).meta.audience == INTERNAL


def test_x5_unclosed_header_is_internal_with_public_rule() -> None:
    result = doc("---\naudience: public\n\nBody text without a closing line.\n", "a.md", *PUBLIC_RULE)
    assert result.meta.audience == INTERNAL


# --------------------------------------------------------------------------- draft


@pytest.mark.parametrize("value", [True, "yes", "true", "True", "on", "1", 1, "maybe", "draft", [], ["x"], {}, 2.5])
def test_x5_draft_values_withhold(value: object) -> None:
    assert decide_draft({"draft": value}).value is True


@pytest.mark.parametrize("value", [False, "no", "false", "False", " off ", "0", 0, None, ""])
def test_draft_false_values_do_not_withhold(value: object) -> None:
    assert decide_draft({"draft": value}).value is False


def test_no_draft_key_is_not_draft() -> None:
    assert decide_draft({}).value is False
    assert decide_draft({"published": True}).value is False
    assert decide_draft({"published": "yes"}).value is False


@pytest.mark.parametrize("value", [False, "false", "no", "No", "0", "off", 0])
def test_x5_published_false_is_draft(value: object) -> None:
    decision = decide_draft({"published": value})
    assert decision.value is True
    assert "published" in decision.source


def test_draft_through_yaml() -> None:
    assert doc(with_header("draft: yes")).meta.draft is True
    assert doc(with_header("draft: no")).meta.draft is False
    assert doc(with_header("published: false")).meta.draft is True
    assert doc(with_header("draft: 'perhaps'")).meta.draft is True


# --------------------------------------------------------------------------- locale


@pytest.mark.parametrize("key", ["locale", "lang", "language"])
def test_locale_from_front_matter_keys(key: str) -> None:
    decision, warnings = decide_locale({key: "DE_at"}, "en/a.md", known_locales={"en", "de"}, default_locale="en")
    assert decision.value == "de-AT"
    assert decision.source == f"front matter {key}"
    assert warnings == []


def test_locale_key_precedence() -> None:
    decision, _ = decide_locale(
        {"language": "ru", "lang": "it", "locale": "de"}, "a.md", known_locales={"en"}, default_locale="en"
    )
    assert decision.value == "de"


def test_invalid_locale_falls_back_to_path_with_warning() -> None:
    decision, warnings = decide_locale(
        {"locale": "english"}, "de/a.md", known_locales={"en", "de"}, default_locale="en"
    )
    assert decision.value == "de"
    assert decision.source == "path folder"
    assert warnings and "locale" in warnings[0]


@pytest.mark.parametrize("value", ["xx", "english", 5, ["de"], None, True, ""])
def test_invalid_locale_falls_back_to_default_with_warning(value: object) -> None:
    decision, warnings = decide_locale({"lang": value}, "a.md", known_locales={"en", "de"}, default_locale="en")
    assert decision.value == "en"
    assert decision.source == "default locale"
    assert len(warnings) == 1


def test_locale_from_path_suffix_and_default() -> None:
    suffix, _ = decide_locale({}, "x/01.de.md", known_locales={"en", "de"}, default_locale="en")
    assert (suffix.value, suffix.source) == ("de", "path suffix")
    default, warnings = decide_locale({}, "fr/x.md", known_locales={"en", "de"}, default_locale="en")
    assert (default.value, default.source, warnings) == ("en", "default locale", [])


def test_locale_through_parse_document() -> None:
    assert doc(with_header("lang: de"), "x.md").meta.locale == "de"
    assert doc("Text", "de/x.md").meta.locale == "de"
    assert doc("Text", "x.ru.md", locales=("en", "ru")).meta.locale == "ru"
    broken = doc(with_header("locale: klingon-ish"), "de/x.md")
    assert broken.meta.locale == "de"
    assert any("locale" in w for w in broken.meta.warnings)


# --------------------------------------------------------------------------- translation group


def group(data: dict[str, Any], relpath: str, known: tuple[str, ...] = ("en", "de")) -> str:
    decision, _ = decide_translation_group(data, relpath, known_locales=known)
    return decision.value


def test_translation_group_from_front_matter() -> None:
    assert group({"translation_group": "refunds"}, "de/a/b.md") == "refunds"
    assert group({"translationKey": "refunds"}, "de/a/b.md") == "refunds"
    assert group({"translation_group": 42}, "x.md") == "42"
    assert group({"translation_group": " spaced "}, "x.md") == "spaced"


@pytest.mark.parametrize("value", [True, None, ["a"], {"a": 1}, "", "a\nb", "x" * 201, 1.5])
def test_unusable_translation_group_falls_back_to_path_with_warning(value: object) -> None:
    decision, warnings = decide_translation_group({"translation_group": value}, "de/a/b.md", known_locales={"en", "de"})
    assert decision.value == "a/b"
    assert len(warnings) == 1


def test_translation_group_from_path_pairs() -> None:
    assert group({}, "de/a/b.md") == group({}, "en/a/b.md") == "a/b"
    assert group({}, "x/01.de.md") == group({}, "x/01.en.md") == "x/01"
    assert group({}, "x/01..de.md") == "x/01"
    assert group({}, "a/b.md") == "a/b"  # the default-locale original groups with de/a/b.md
    assert group({}, "x/02.de.md") != group({}, "x/01.de.md")
    assert group({}, "fr/a/b.md") == "fr/a/b"  # fr not configured


# --------------------------------------------------------------------------- doc id


def test_doc_id_from_front_matter_or_path() -> None:
    assert decide_doc_id({"id": "refund-policy"}, "a/b.md")[0].value == "refund-policy"
    assert decide_doc_id({"id": 7}, "a/b.md")[0].value == "7"
    assert decide_doc_id({}, "a/b.md")[0].value == "a/b"
    assert decide_doc_id({}, "a/b.de.md")[0].value == "a/b.de"
    assert decide_doc_id({}, "README.markdown")[0].value == "README"


@pytest.mark.parametrize("value", [True, False, None, "", "  ", ["x"], "a\x00b", "x" * 201, 2.0])
def test_unusable_doc_id_falls_back_to_path_with_warning(value: object) -> None:
    decision, warnings = decide_doc_id({"id": value}, "a/b.md")
    assert decision.value == "a/b"
    assert decision.source == "path"
    assert warnings


# --------------------------------------------------------------------------- title


def test_title_from_front_matter_stripped_of_markup() -> None:
    decision, warnings = decide_title({"title": "Using `curl` &amp; **jq** <b>now</b>"}, "a.md", first_h1="H1")
    assert decision.value == "Using curl & jq now"
    assert decision.source == "front matter title"
    assert warnings == []


def test_title_link_and_shortcode_stripped() -> None:
    decision, _ = decide_title({"title": "[Refunds](/refunds) {{< icon >}} guide"}, "a.md", first_h1=None)
    assert decision.value == "Refunds guide"


@pytest.mark.parametrize("value", [42, 1.5, True, None, ["a"], {"a": "b"}, dt.date(2024, 1, 1), "", "<b></b>"])
def test_non_text_title_ignored_with_warning(value: object) -> None:
    decision, warnings = decide_title({"title": value}, "a.md", first_h1="From heading")
    assert decision.value == "From heading"
    assert warnings and "title" in warnings[0]


def test_title_from_first_h1_then_file_name() -> None:
    assert decide_title({}, "a.md", first_h1="Heading")[0].value == "Heading"
    decision, warnings = decide_title({}, "billing/request-a_refund.md", first_h1=None)
    assert decision.value == "Request a refund"
    assert decision.source == "file name"
    assert warnings == []


def test_title_through_parse_document_uses_first_level_one_heading() -> None:
    result = doc("## Second level\n\n# The *Real* Title\n\nBody.", "x/how-to.md")
    assert result.meta.title == "The Real Title"
    assert doc("## Only level two\n\nBody.", "x/how-to.md").meta.title == "How to"


@pytest.mark.parametrize(
    ("relpath", "name"),
    [
        ("billing/request-a_refund.md", "Request a refund"),
        ("x/01.de.md", "01"),
        ("x/01..de.md", "01"),
        ("my__page--name.markdown", "My page name"),
        ("a.md", "A"),
    ],
)
def test_readable_name(relpath: str, name: str) -> None:
    assert readable_name(relpath) == name


# --------------------------------------------------------------------------- review_due


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (dt.date(2025, 3, 1), dt.datetime(2025, 3, 1, tzinfo=UTC)),
        (dt.datetime(2025, 3, 1, 12, 30), dt.datetime(2025, 3, 1, 12, 30, tzinfo=UTC)),
        (
            dt.datetime(2025, 3, 1, 12, 0, tzinfo=dt.timezone(dt.timedelta(hours=2))),
            dt.datetime(2025, 3, 1, 10, 0, tzinfo=UTC),
        ),
        ("2025-03-01", dt.datetime(2025, 3, 1, tzinfo=UTC)),
        ("2025-03-01T10:00:00Z", dt.datetime(2025, 3, 1, 10, tzinfo=UTC)),
        (" 2025-03-01T12:00:00+02:00 ", dt.datetime(2025, 3, 1, 10, tzinfo=UTC)),
    ],
)
def test_review_due_parsed_to_utc(value: object, expected: dt.datetime) -> None:
    decision, warnings = decide_review_due({"review_due": value})
    assert decision.value == expected
    assert decision.value.utcoffset() == dt.timedelta(0)
    assert warnings == []


@pytest.mark.parametrize(
    "value",
    [
        "next year",
        "2025-13-01",
        "",
        2025,
        None,
        ["2025-01-01"],
        True,
        # out of datetime's range once converted to UTC: must be a warning, not a crash
        "0001-01-01T00:00:00+05:00",
        "9999-12-31T23:00:00-05:00",
        dt.datetime(1, 1, 1, tzinfo=dt.timezone(dt.timedelta(hours=5))),
    ],
)
def test_review_due_invalid_is_ignored_with_warning(value: object) -> None:
    decision, warnings = decide_review_due({"review_due": value})
    assert decision.value is None
    assert len(warnings) == 1


def test_review_due_absent() -> None:
    assert decide_review_due({}) == (decide_review_due({})[0], [])
    assert decide_review_due({})[0].value is None


def test_review_due_through_parse_document() -> None:
    assert doc(with_header("review_due: 2025-03-01")).meta.review_due == "2025-03-01T00:00:00+00:00"
    out_of_range = doc(with_header("review_due: 0001-01-01 00:00:00+05:00"))
    assert out_of_range.meta.review_due is None
    assert any("review_due" in w for w in out_of_range.meta.warnings)


# --------------------------------------------------------------------------- properties

NEAR_MISSES = [
    "public",
    "Public",
    "PUBLIC",
    "public ",
    " public",
    "publ1c",
    "pub lic",
    "public\n",
    "internal",
    "internal ",
    "publiс",
]  # the last one ends in a Cyrillic 'с'

_scalars = st.one_of(
    st.text(max_size=30),
    st.sampled_from(NEAR_MISSES),
    st.integers(),
    st.floats(allow_nan=True),
    st.booleans(),
    st.none(),
    st.dates(),
    st.datetimes(
        timezones=st.sampled_from(
            [None, UTC, dt.timezone(dt.timedelta(hours=5)), dt.timezone(dt.timedelta(hours=-11, minutes=-30))]
        )
    ),
)
_values = st.recursive(
    _scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12,
)
_KEYS = [
    "audience",
    "title",
    "id",
    "draft",
    "published",
    "locale",
    "lang",
    "language",
    "translation_group",
    "translationKey",
    "review_due",
    "url",
]
_MISSING = object()


@st.composite
def _mappings(draw: st.DrawFn) -> dict[str, Any]:
    """Front matter with, most of the time, an ``audience`` key close to 'public'."""
    data = draw(st.dictionaries(st.one_of(st.sampled_from(_KEYS), st.text(max_size=12)), _values, max_size=8))
    audience = draw(st.one_of(st.just(_MISSING), st.sampled_from(NEAR_MISSES), _values))
    if audience is not _MISSING:
        data["audience"] = audience
    return data


_paths = st.lists(
    st.text(
        alphabet=st.characters(blacklist_characters="/\x00", blacklist_categories=("Cs",)), min_size=1, max_size=12
    ),
    min_size=1,
    max_size=4,
).map("/".join)

PROPERTY_SETTINGS = settings(
    max_examples=300, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)


def _file_bytes(data: dict[str, Any], body: str) -> bytes:
    header = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    return f"---\n{header}---\n{body}\n".encode()


@PROPERTY_SETTINGS
@given(data=_mappings(), relpath=_paths, body=st.sampled_from(["Readable text.", "", "# Heading", "<!-- x -->"]))
@example(data={"audience": "public", "title": {"": "1NTERN"}}, relpath="0", body="Readable text.")
def test_x5_property_public_only_for_exact_string(data: dict[str, Any], relpath: str, body: str) -> None:
    """With no rules, whatever the front matter, a document is public only when
    ``data['audience']`` is exactly the string ``'public'`` — and parsing never raises."""
    raw = _file_bytes(data, body)
    result = parse_document(settings_for(), relpath, raw, size=len(raw), mtime_ns=0)
    if isinstance(result, Skipped):
        assert result.reason
        return
    meta = result.meta
    exact = isinstance(data.get("audience"), str) and data["audience"] == "public"
    assert meta.audience in (PUBLIC, INTERNAL)
    if meta.audience == PUBLIC:
        assert exact, data.get("audience")
    # the converse: an exact, readable 'public' is honoured (the header round-trips),
    # unless another key restricts the readers (a value naming insiders, even nested
    # and in leet: ``title: {"": 1NTERN}``), which is reported as an error
    if exact and not any("may restrict who reads" in e for e in meta.errors):
        assert meta.audience == PUBLIC, (meta.warnings, meta.errors)
    assert isinstance(meta.title, str) and meta.title
    assert isinstance(meta.doc_id, str) and meta.doc_id
    assert isinstance(meta.locale, str) and meta.locale
    assert isinstance(meta.draft, bool)


@PROPERTY_SETTINGS
@given(data=_mappings(), relpath=_paths)
def test_x5_property_internal_rule_never_makes_public(data: dict[str, Any], relpath: str) -> None:
    raw = _file_bytes(data, "Text.")
    result = parse_document(settings_for(AudienceRule("**", INTERNAL)), relpath, raw, size=len(raw), mtime_ns=0)
    assert isinstance(result, WikiDocument)
    if result.meta.audience == PUBLIC:
        assert data.get("audience") == "public" and isinstance(data["audience"], str)


@PROPERTY_SETTINGS
@given(raw=st.binary(max_size=2000), relpath=_paths)
def test_x5_property_arbitrary_bytes_never_raise_never_public(raw: bytes, relpath: str) -> None:
    result = parse_document(settings_for(), relpath, raw, size=len(raw), mtime_ns=0)
    if isinstance(result, WikiDocument) and result.meta.audience == PUBLIC:
        front = parse_front_matter(raw.decode("utf-8"))
        assert front.error is None
        assert front.data.get("audience") == "public"


@PROPERTY_SETTINGS
@given(raw=st.binary(max_size=2000))
def test_x5_property_arbitrary_bytes_after_public_header(raw: bytes) -> None:
    """A public header followed by anything: public only if the whole file is valid UTF-8."""
    data = b"---\naudience: public\n---\n" + raw + b"\nText."
    result = parse_document(settings_for(), "a.md", data, size=len(data), mtime_ns=0)
    assert isinstance(result, WikiDocument)
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        assert result.meta.audience == INTERNAL
    else:
        assert result.meta.audience == PUBLIC


@PROPERTY_SETTINGS
@given(text=st.text(max_size=400))
def test_property_arbitrary_text_never_raises(text: str) -> None:
    raw = text.encode("utf-8")
    result = parse_document(settings_for(*PUBLIC_RULE), "a.md", raw, size=len(raw), mtime_ns=0)
    if isinstance(result, WikiDocument) and result.meta.audience == PUBLIC:
        assert result.meta.sources["audience"] in ("rule '**'", "front matter")
