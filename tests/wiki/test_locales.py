"""provider.wiki.locales: BCP 47 tags and the locale markers of wiki paths."""

from __future__ import annotations

import pytest

from provider.wiki.locales import LocaleMarker, find_locale_marker, normalize_tag, strip_extension

KNOWN = ("en", "de", "ru", "it", "pt-BR")


@pytest.mark.parametrize(
    ("raw", "tag"),
    [
        ("zh_cn", "zh-CN"),
        ("EN", "en"),
        ("en", "en"),
        ("de-at", "de-AT"),
        ("DE_at", "de-AT"),
        ("en-us", "en-US"),
        ("pt-br", "pt-BR"),
        ("zh-hans-cn", "zh-Hans-CN"),
        ("  de  ", "de"),
    ],
)
def test_normalize_tag_canonical_form(raw: str, tag: str) -> None:
    assert normalize_tag(raw) == tag


@pytest.mark.parametrize(
    "raw",
    ["english", "xx", "und", "", "   ", "123", "e", "en--us", "de_", "-de", "a" * 100, "en us", "<en>", "🙂"],
)
def test_normalize_tag_refuses_non_tags(raw: str) -> None:
    assert normalize_tag(raw) is None


@pytest.mark.parametrize(
    ("relpath", "stem"),
    [("a/b.de.md", "a/b.de"), ("a/b", "a/b"), ("b.md", "b"), ("x.y/z.md", "x.y/z"), ("01..de.md", "01..de")],
)
def test_strip_extension(relpath: str, stem: str) -> None:
    assert strip_extension(relpath) == stem


def test_first_folder_marker() -> None:
    assert find_locale_marker("de/billing/refunds.md", KNOWN) == LocaleMarker("de", "folder", "billing/refunds")


def test_first_folder_marker_is_normalised() -> None:
    assert find_locale_marker("DE/refunds.md", KNOWN) == LocaleMarker("de", "folder", "refunds")
    assert find_locale_marker("pt_br/refunds.md", KNOWN) == LocaleMarker("pt-BR", "folder", "refunds")


def test_only_the_first_folder_counts() -> None:
    assert find_locale_marker("docs/de/refunds.md", KNOWN) is None


def test_suffix_marker() -> None:
    assert find_locale_marker("billing/refunds.de.md", KNOWN) == LocaleMarker("de", "suffix", "billing/refunds")


def test_suffix_marker_numbered_page() -> None:
    assert find_locale_marker("tutorials/x/01.de.md", KNOWN) == LocaleMarker("de", "suffix", "tutorials/x/01")


def test_double_dot_suffix_groups_with_its_sibling() -> None:
    # A real corpus file is named 01..de.md next to 01.en.md.
    de = find_locale_marker("tutorials/x/01..de.md", KNOWN)
    en = find_locale_marker("tutorials/x/01.en.md", KNOWN)
    assert de == LocaleMarker("de", "suffix", "tutorials/x/01")
    assert en is not None
    assert en.stem == de.stem


def test_suffix_without_name_is_not_a_marker() -> None:
    assert find_locale_marker("x/.de.md", KNOWN) is None
    assert find_locale_marker("x/..de.md", KNOWN) is None


def test_file_named_like_a_locale_is_not_a_marker() -> None:
    assert find_locale_marker("de.md", KNOWN) is None
    assert find_locale_marker("guides/de.md", KNOWN) is None


def test_unknown_locale_folder_is_not_a_marker() -> None:
    # 'fr' is a valid tag, but not configured: the folder is just a folder.
    assert find_locale_marker("fr/refunds.md", KNOWN) is None
    assert find_locale_marker("refunds.fr.md", KNOWN) is None


def test_non_tag_folder_and_suffix_not_markers() -> None:
    assert find_locale_marker("docs/refunds.md", KNOWN) is None
    assert find_locale_marker("refunds.v2.md", KNOWN) is None
    assert find_locale_marker("notes.final.md", KNOWN) is None


def test_folder_alone_without_file_below_is_not_a_marker() -> None:
    assert find_locale_marker("de.md", KNOWN) is None


def test_suffix_wins_over_folder() -> None:
    assert find_locale_marker("en/refunds.de.md", KNOWN) == LocaleMarker("de", "suffix", "en/refunds")


def test_folder_used_when_suffix_is_unknown() -> None:
    assert find_locale_marker("de/refunds.fr.md", KNOWN) == LocaleMarker("de", "folder", "refunds.fr")


def test_same_article_in_folders_and_suffixes_has_one_stem() -> None:
    stems = {
        find_locale_marker(p, KNOWN).stem  # type: ignore[union-attr]
        for p in ("de/a/b.md", "en/a/b.md", "ru/a/b.markdown")
    }
    assert stems == {"a/b"}
