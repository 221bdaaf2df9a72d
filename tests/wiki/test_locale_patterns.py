"""provider.wiki.locale_patterns: {locale} path patterns, their validation, and the
translation-group keys they give."""

from __future__ import annotations

import re

import pytest

from provider.wiki.locale_patterns import PLAIN_PATTERNS, match_locale, parse_locale_pattern
from provider.wiki.locales import strip_extension

KNOWN = frozenset({"en", "de", "fr", "pt-BR"})


def match(pattern: str, relpath: str, source: str | None = None) -> tuple[str, str] | None:
    found = parse_locale_pattern(pattern, source).match(strip_extension(relpath), KNOWN)
    return None if found is None else (found.locale, found.group)


def test_folder_form_anywhere_in_the_path() -> None:
    assert match("content/{locale}/**", "content/de/posts/a.md") == ("de", "content/posts/a")
    assert match("content/{locale}/**", "content/posts/a.md") is None  # "posts" is no locale
    assert match("{locale}/**", "DE/a.md") == ("de", "a")
    assert match("{locale}/**", "pt_br/a.md") == ("pt-BR", "a")
    assert match("docs/{locale}/guide/**", "docs/fr/guide/x/y.md") == ("fr", "docs/guide/x/y")


def test_suffix_form() -> None:
    assert match("**.{locale}", "a/b.de.md") == ("de", "a/b")
    assert match("**.{locale}", "x/01..de.md") == ("de", "x/01")
    assert match("docs/**.{locale}", "docs/a.fr.md") == ("fr", "docs/a")
    assert match("docs/**.{locale}", "blog/a.fr.md") is None
    assert match("**.{locale}", "a.v2.md") is None  # not a tag
    assert match("**.{locale}", "a.it.md") is None  # a tag, but not configured
    assert match("**.{locale}", "x/.de.md") is None and match("**.{locale}", "x/..de.md") is None


def test_source_maps_translations_onto_the_default_locale_tree() -> None:
    pattern = "i18n/{locale}/docusaurus-plugin-content-docs/current/**"
    relpath = "i18n/fr/docusaurus-plugin-content-docs/current/guides/intro.mdx"
    assert match(pattern, relpath) == ("fr", "i18n/docusaurus-plugin-content-docs/current/guides/intro")
    assert match(pattern, relpath, source="docs/**") == ("fr", "docs/guides/intro")
    assert strip_extension("docs/guides/intro.md") == "docs/guides/intro"  # the English page's key


def test_unconfigured_locale_does_not_match() -> None:
    assert match("{locale}/**", "it/a.md") is None


def test_first_match_wins() -> None:
    patterns = (parse_locale_pattern("**.{locale}"), parse_locale_pattern("{locale}/**"))
    found = match_locale("de/a.fr", patterns, KNOWN)
    assert found is not None and (found.locale, found.group, found.label) == ("fr", "de/a", "path suffix")
    assert patterns == PLAIN_PATTERNS


def test_labels_say_where_the_locale_came_from() -> None:
    assert parse_locale_pattern("{locale}/**").label == "path folder"
    assert parse_locale_pattern("**.{locale}").label == "path suffix"
    assert parse_locale_pattern("content/{locale}/**").label == "path pattern 'content/{locale}/**'"


@pytest.mark.parametrize(
    ("pattern", "source", "message"),
    [
        ("", None, "empty"),
        ("/content/{locale}/**", None, "relative"),
        ("content/**", None, "{locale} exactly once"),
        ("{locale}/{locale}/**", None, "{locale} exactly once"),
        ("content/{locale}", None, "** exactly once"),
        ("**/{locale}/**", None, "** exactly once"),
        ("content/{locale}/**.md", None, "without the file extension"),
        ("content/*/{locale}/**", None, "literal name"),
        ("content/{locale}x/**", None, "folder form"),
        ("{locale}/**/x", None, "folder form"),
        ("content/../{locale}/**", None, "'..'"),
        ("{locale}/**", "docs", "ending in /**"),
        ("{locale}/**", "docs/{locale}/**", "must not contain {locale}"),
        ("{locale}/**", "/docs/**", "ending in /**"),
    ],
)
def test_invalid_patterns_say_what_is_wrong(pattern: str, source: str | None, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_locale_pattern(pattern, source)


def test_to_config_round_trips() -> None:
    assert parse_locale_pattern("{locale}/**").to_config() == "{locale}/**"
    assert parse_locale_pattern("i18n/{locale}/**", "docs/**").to_config() == {"i18n/{locale}/**": "docs/**"}
