"""provider.wiki.check: the quarantine definition, case by case, and that check reads
the folder without writing anything."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import pytest

from provider.wiki.check import check_wiki
from provider.wiki.classify import AudienceRule
from provider.wiki.document import WikiSettings

NOW = dt.datetime(2025, 6, 1, tzinfo=dt.UTC)


def run(tmp_path: Path, files: dict[str, str | bytes], **settings: object) -> dict[str, object]:
    root = tmp_path / "content"
    for relpath, text in files.items():
        path = root / relpath
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, "utf-8")
    base = {"root": root, "locales": ("en", "de"), "audience_rules": (AudienceRule("**", "public"),)}
    report = check_wiki(WikiSettings(**{**base, **settings}), now=NOW)  # type: ignore[arg-type]
    return {entry.path: entry for entry in report.files} | {"__report__": report}


QUARANTINED = {
    "yaml error": "---\naudience: [public\n---\nText.",
    "duplicate keys": "---\naudience: public\naudience: internal\n---\nText.",
    "not utf-8": b"---\naudience: public\n---\nText \xff.",
    "audience near miss": "---\naudience: Public\n---\nText.",
    "misspelled audience key": "---\nAudience: internal\n---\nText.",
    "invalid publishDate": "---\npublishDate: soon\n---\nText.",
    "unknown build value": "---\nbuild:\n  render: sometimes\n---\nText.",
    "stray internal closer": "Text.\n<!-- /internal -->\nMore.",
}

NOT_QUARANTINED = {
    "clean": "---\ntitle: Fine\n---\nText.",
    "draft": "---\ndraft: true\n---\nText.",
    "unclosed internal section": "Text.\n<!-- internal -->\nSecret.",
    "invalid locale": "---\nlocale: klingon-ish\n---\nText.",
    "title not text": "---\ntitle: 2024-01-01\n---\nText.",
    "invalid url": "---\nurl: javascript:alert(1)\n---\nText.",
    "invalid review date": "---\nreview_due: next year\n---\nText.",
}


@pytest.mark.parametrize("case", sorted(QUARANTINED))
def test_quarantined(tmp_path: Path, case: str) -> None:
    out = run(tmp_path, {"a.md": QUARANTINED[case]})
    entry = out["a.md"]
    assert entry.quarantined and entry.reasons, case  # type: ignore[attr-defined]
    assert out["__report__"].exit_code == 1  # type: ignore[attr-defined]


@pytest.mark.parametrize("case", sorted(NOT_QUARANTINED))
def test_not_quarantined(tmp_path: Path, case: str) -> None:
    out = run(tmp_path, {"a.md": NOT_QUARANTINED[case]})
    entry = out["a.md"]
    assert not entry.quarantined, (case, entry.reasons)  # type: ignore[attr-defined]
    assert out["__report__"].exit_code == 0  # type: ignore[attr-defined]
    if case != "clean" and case != "draft":
        assert entry.warnings, case  # type: ignore[attr-defined]


def test_duplicate_ids_quarantine_both(tmp_path: Path) -> None:
    out = run(tmp_path, {"a.md": "---\nid: kb-1\n---\nOne.", "b.md": "---\nid: kb-1\n---\nTwo."})
    assert out["a.md"].quarantined and out["b.md"].quarantined  # type: ignore[attr-defined]


def test_skipped_for_an_error_is_quarantined_skipped_by_design_is_not(tmp_path: Path) -> None:
    out = run(tmp_path, {"big.md": "x" * 5000, "empty.md": "---\ntitle: Empty\n---\n",
                         "_site/page.md": "Build output."}, layout="jekyll", max_file_bytes=1024)
    assert out["big.md"].status == "skipped" and out["big.md"].quarantined  # type: ignore[attr-defined]
    assert out["empty.md"].status == "skipped" and not out["empty.md"].quarantined  # type: ignore[attr-defined]
    assert out["_site/"].status == "skipped" and not out["_site/"].quarantined  # type: ignore[attr-defined]


@pytest.mark.skipif(os.name != "posix", reason="symlinks")
def test_symlink_leaving_the_root_is_quarantined(tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("Secret.", "utf-8")
    root = tmp_path / "content"
    root.mkdir()
    (root / "link.md").symlink_to(outside)
    out = run(tmp_path, {"ok.md": "Fine."})
    assert out["link.md"].quarantined  # type: ignore[attr-defined]


def test_check_writes_nothing(tmp_path: Path) -> None:
    files = {"en/a.md": "---\ntitle: A\n---\nText.", "de/a.md": "Text auf Deutsch."}
    run(tmp_path, files)
    written = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*"))
    assert written == ["content", "content/de", "content/de/a.md", "content/en", "content/en/a.md"]


def test_json_shape(tmp_path: Path) -> None:
    out = run(tmp_path, {"en/a.md": "---\ntitle: A\n---\nText.", "de/a.md": "Text auf Deutsch.",
                         "de/only.md": "Nur Deutsch.", "en/bad.md": "---\naudience: Public\n---\nX."})
    data = out["__report__"].to_json()  # type: ignore[attr-defined]
    assert set(data) == {"checkFormat", "ok", "now", "settings", "summary", "unusedRules", "site", "files"}
    assert data["unusedRules"] == []
    assert data["checkFormat"] == 1 and data["ok"] is False
    assert data["summary"]["quarantined"] == 1 and data["summary"]["served"] == 4
    assert data["summary"]["drift"]["orphan-translation"] == 1
    assert data["summary"]["byLocale"] == {"de": 2, "en": 2}
    entry = next(f for f in data["files"] if f["path"] == "de/a.md")
    # What accepted_findings binds to (issue 24): the file's git blob hash, its findings.
    assert (len(entry.pop("digest")), entry.pop("findings")) == (40, [])
    assert entry == {
        "path": "de/a.md", "status": "served", "quarantined": False, "quarantineReasons": [], "warnings": [],
        "documentId": "de/a", "title": "A", "audience": "public", "audienceSource": "rule '**'",
        "inPublicIndex": True, "locale": "de", "localeSource": "path folder", "translationGroup": "a",
        "translationGroupSource": "path without locale marker", "groupedWith": True, "withheld": None,
        "drift": [], "internalSections": 0, "date": None, "translationSync": None, "url": None, "offSite": None,
        # Issue 24: what customer_safe gets, the file's own audience, why there is no URL.
        "customerSafe": "yes", "fileAudience": "public", "fileAudienceSource": "rule '**'",
        "urlMissing": "no citation_base_url set (set it to the public site, e.g. https://help.example.com; "
                      "citation_path_pattern if its URLs are not the plain layout's)",
    }


def test_an_audience_rule_that_matches_no_file_is_reported(tmp_path: Path) -> None:
    """A typo in a rule ('tutorial/**' for 'tutorials/**') would keep a whole folder
    internal without a word: check names it."""
    from provider.wiki.check import check_wiki
    from provider.wiki.classify import AudienceRule
    from provider.wiki.document import WikiSettings

    (tmp_path / "tutorials").mkdir()
    (tmp_path / "tutorials" / "a.md").write_text("# A\n\nText.\n")
    rules = (AudienceRule("tutorial/**", "public"), AudienceRule("tutorials/**", "public"))
    report = check_wiki(WikiSettings(root=tmp_path, audience_rules=rules))
    assert report.unused_rules == ["tutorial/**"]
