"""provider.wiki.document: loading one file into a classified document."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from provider.wiki.classify import INTERNAL, PUBLIC, AudienceRule
from provider.wiki.document import DocumentMeta, WikiDocument, WikiSettings, git_blob_sha1, load_document
from provider.wiki.files import Skipped
from tests.wiki.markup import assert_no_markup

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


@pytest.fixture()
def root(tmp_path: Path) -> Path:
    content = tmp_path / "content"
    content.mkdir()
    return content


def put(root: Path, relpath: str, data: str | bytes) -> Path:
    path = root / relpath
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    path.write_bytes(data)
    return path


def load(root: Path, relpath: str, **kw: object) -> WikiDocument:
    result = load_document(WikiSettings(root=root, **kw), relpath)  # type: ignore[arg-type]
    assert isinstance(result, WikiDocument), result
    return result


def git_hash_object(path: Path) -> str:
    out = subprocess.run(
        ["git", "hash-object", "--no-filters", str(path)],
        check=True,
        capture_output=True,
        cwd=path.parent,
        text=True,
    )
    return out.stdout.strip()


@needs_git
@pytest.mark.parametrize(
    "data",
    [
        b"---\naudience: public\n---\n# Hello\n\nWorld.\n",
        b"---\r\naudience: public\r\n---\r\nCRLF body\r\n",
        "\ufeff# BOM and \u00e9\u00e8 \u4e2d\u6587\n".encode(),
        b"no newline at end",
        b"\xff\xfe invalid utf-8 text",
    ],
)
def test_r5_revision_is_git_hash_object(root: Path, data: bytes) -> None:
    path = put(root, "page.md", data)
    result = load_document(WikiSettings(root=root), "page.md")
    assert isinstance(result, WikiDocument)
    assert result.meta.revision == git_hash_object(path)
    assert result.meta.revision == git_blob_sha1(data)


def test_r5_revision_changes_with_content_only(root: Path) -> None:
    put(root, "a.md", "Same text.\n")
    put(root, "b.md", "Same text.\n")
    first = load(root, "a.md").meta.revision
    assert load(root, "b.md").meta.revision == first
    put(root, "a.md", "Same text!\n")
    assert load(root, "a.md").meta.revision != first


def test_known_blob_hash() -> None:
    # `printf 'hello\n' | git hash-object --stdin`
    assert git_blob_sha1(b"hello\n") == "ce013625030ba8dba906f756967f9e9ca394464a"
    assert git_blob_sha1(b"") == "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"


def test_meta_fields(root: Path) -> None:
    path = put(
        root,
        "de/billing/refund.md",
        "---\naudience: public\ntitle: Erstattung &amp; Rückgabe\nreview_due: 2030-01-31\n"
        "url: https://example.com/r\n---\n# Ignored H1\n\nText hier.\n",
    )
    meta = load(root, "de/billing/refund.md", locales=("en", "de")).meta
    assert meta.relpath == "de/billing/refund.md"
    assert meta.size == path.stat().st_size
    assert meta.mtime_ns == path.stat().st_mtime_ns
    assert meta.doc_id == "de/billing/refund"
    assert meta.title == "Erstattung & Rückgabe"
    assert meta.audience == PUBLIC
    assert meta.draft is False
    assert meta.locale == "de"
    assert meta.translation_group == "billing/refund"
    assert meta.review_due == "2030-01-31T00:00:00+00:00"
    assert meta.url == "https://example.com/r"
    assert meta.sources["audience"] == "front matter"
    assert meta.sources["locale"] == "path folder"
    assert meta.warnings == ()


def test_meta_json_round_trip(root: Path) -> None:
    put(root, "a.md", "---\naudience: public\nlocale: english\n---\nText.\n")
    meta = load(root, "a.md").meta
    assert meta.warnings  # the bad locale
    assert DocumentMeta.from_json(meta.to_json()) == meta


def test_body_passages_are_plain(root: Path) -> None:
    put(root, "a.md", "# T\n\nSee [link](x) &amp; <b>bold</b>.\n\n```\n<div>&amp;</div>\n```\n")
    result = load(root, "a.md")
    # Prose loses its markup; code is kept as written.
    assert result.body == "See link & bold. <div>&amp;</div>"
    assert_no_markup(result.passages[0].text.removesuffix(" <div>&amp;</div>"))


def test_x5_invalid_utf8_is_internal_with_warning(root: Path) -> None:
    put(root, "docs/bad.md", b"---\naudience: public\n---\nCaf\xe9 menu text.\n")
    result = load(root, "docs/bad.md", audience_rules=(AudienceRule("docs/**", PUBLIC),))
    assert result.meta.audience == INTERNAL
    assert "UTF-8" in result.meta.sources["audience"]
    assert any("UTF-8" in w for w in result.meta.warnings)
    assert "Caf" in result.body


def test_x5_no_audience_no_rule_is_internal(root: Path) -> None:
    put(root, "a.md", "# Hello\n\nText.\n")
    assert load(root, "a.md").meta.audience == INTERNAL


def test_x5_rule_makes_public(root: Path) -> None:
    put(root, "help/a.md", "# Hello\n\nText.\n")
    meta = load(root, "help/a.md", audience_rules=(AudienceRule("help/**", PUBLIC),)).meta
    assert meta.audience == PUBLIC
    assert meta.sources["audience"] == "rule 'help/**'"


def test_x5_bad_audience_warns(root: Path) -> None:
    put(root, "a.md", "---\naudience: Public\n---\nText.\n")
    meta = load(root, "a.md").meta
    assert meta.audience == INTERNAL
    assert any("audience" in w for w in meta.warnings)


def test_x5_draft_flag_kept(root: Path) -> None:
    put(root, "a.md", "---\naudience: public\ndraft: true\n---\nText.\n")
    assert load(root, "a.md").meta.draft is True


def test_only_front_matter_is_skipped(root: Path) -> None:
    put(root, "empty.md", "---\naudience: public\ntitle: Only a header\n---\n")
    result = load_document(WikiSettings(root=root), "empty.md")
    assert result == Skipped("empty.md", "has no readable text")


@pytest.mark.parametrize("body", ["", "\n\n   \n", "<!-- just a comment -->\n", "{{< shortcode >}}\n"])
def test_no_visible_text_is_skipped(root: Path, body: str) -> None:
    put(root, "x.md", body)
    result = load_document(WikiSettings(root=root), "x.md")
    assert isinstance(result, Skipped)
    assert result.reason == "has no readable text"


def test_headings_only_is_a_document(root: Path) -> None:
    put(root, "x.md", "# Just a title\n")
    result = load(root, "x.md")
    assert result.meta.title == "Just a title"
    assert result.passages[0].text == "Just a title"


def test_vanished_file_is_none(root: Path) -> None:
    assert load_document(WikiSettings(root=root), "gone.md") is None
    path = put(root, "soon-gone.md", "Text.")
    path.unlink()
    assert load_document(WikiSettings(root=root), "soon-gone.md") is None


def test_too_large_is_skipped(root: Path) -> None:
    put(root, "big.md", "x" * 2000)
    result = load_document(WikiSettings(root=root, max_file_bytes=1000), "big.md")
    assert isinstance(result, Skipped)
    assert "1000" in result.reason


def test_symlink_outside_root_is_skipped(root: Path, tmp_path: Path) -> None:
    secret = put(tmp_path, "secret.md", "---\naudience: public\n---\nSecret text.\n")
    os.symlink(secret, root / "leak.md")
    result = load_document(WikiSettings(root=root), "leak.md")
    assert isinstance(result, Skipped)
    assert "outside" in result.reason


def test_crlf_and_bom_file(root: Path) -> None:
    put(root, "a.md", "\ufeff---\r\naudience: public\r\ntitle: CRLF\r\n---\r\n# H\r\n\r\nLine one\r\nline two\r\n")
    meta = load(root, "a.md").meta
    assert (meta.audience, meta.title, meta.warnings) == (PUBLIC, "CRLF", ())
    assert load(root, "a.md").body == "Line one line two"


@pytest.mark.parametrize("other", ['"audience ": internal', "Audience: internal", "AUDIENCE: public"])
def test_x5_several_audience_keys_are_internal_whatever_they_say(tmp_path: Path, other: str) -> None:
    """`audience: public` next to a near-identical key: which one was meant cannot be told."""
    (tmp_path / "a.md").write_text(f"---\naudience: public\n{other}\n---\nText.\n", "utf-8")
    doc = load_document(WikiSettings(root=tmp_path), "a.md")
    assert isinstance(doc, WikiDocument)
    assert doc.meta.audience == INTERNAL
    assert doc.meta.errors and all("audience" in e for e in doc.meta.errors)
