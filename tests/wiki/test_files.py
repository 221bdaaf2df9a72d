"""provider.wiki.files: which files under the content root are wiki documents."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provider.wiki.files import FileRef, Skipped, discover, is_ignored_path, stat_file

_NAME = st.sampled_from(["a", "internal", "ops", "public", "z", "docs"])


def write(path: Path, text: str = "# Title\n\nBody.\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture()
def root(tmp_path: Path) -> Path:
    content = tmp_path / "content"
    content.mkdir()
    return content


@pytest.fixture()
def outside(tmp_path: Path) -> Path:
    """A folder next to the content root, never part of it."""
    folder = tmp_path / "outside"
    folder.mkdir()
    write(folder / "secret.md", "---\naudience: public\n---\nNot part of the wiki.\n")
    return folder


def skipped_by_path(result) -> dict[str, str]:
    return {s.relpath: s.reason for s in result.skipped}


def test_md_and_markdown_in_any_case_recursively(root: Path) -> None:
    for rel in ("a.md", "b.MD", "c.Markdown", "d.markdown", "e.mD", "x/y/z/deep.md", "x/Up.MARKDOWN"):
        write(root / rel)
    result = discover(root)
    assert set(result.files) == {"a.md", "b.MD", "c.Markdown", "d.markdown", "e.mD", "x/y/z/deep.md", "x/Up.MARKDOWN"}
    assert result.skipped == []


def test_other_extensions_ignored(root: Path) -> None:
    for rel in ("a.txt", "b.mdx", "c.md.bak", "d.md~", "#e.md#", "#f.md", "gmd", "h.html", "noext"):
        write(root / rel)
    write(root / "keep.md")
    result = discover(root)
    assert set(result.files) == {"keep.md"}
    assert result.skipped == []


def test_relpaths_are_posix_and_refs_describe_the_file(root: Path) -> None:
    path = write(root / "a" / "b" / "c.md", "0123456789")
    ref = discover(root).files["a/b/c.md"]
    st = path.stat()
    assert ref == FileRef(relpath="a/b/c.md", size=10, mtime_ns=st.st_mtime_ns, ctime_ns=st.st_ctime_ns,
                          inode=st.st_ino)


def test_dot_folders_dot_files_and_node_modules_skipped(root: Path) -> None:
    for rel in (
        ".git/notes.md",
        ".github/ISSUE_TEMPLATE/bug.md",
        ".hidden.md",
        "docs/.draft.md",
        "docs/.cache/x.md",
        "node_modules/pkg/README.md",
        "docs/node_modules/pkg/README.md",
    ):
        write(root / rel)
    write(root / "docs" / "kept.md")
    result = discover(root)
    assert set(result.files) == {"docs/kept.md"}
    # Ignored silently: these are not wiki files, so they are not "skipped" either.
    assert result.skipped == []


@pytest.mark.parametrize(
    ("relpath", "ignored"),
    [
        ("a.md", False),
        ("a/B.MARKDOWN", False),
        (".git/a.md", True),
        ("a/.github/b.md", True),
        ("a/.b.md", True),
        ("node_modules/a.md", True),
        ("a/node_modules/b.md", True),
        ("a.md~", True),
        ("#a.md", True),
        ("a.txt", True),
        ("a.mdx", True),
    ],
)
def test_is_ignored_path(relpath: str, ignored: bool) -> None:
    assert is_ignored_path(relpath) is ignored


def test_symlinked_file_outside_root_skipped_with_reason(root: Path, outside: Path) -> None:
    os.symlink(outside / "secret.md", root / "leak.md")
    write(root / "ok.md")
    result = discover(root)
    assert set(result.files) == {"ok.md"}
    reasons = skipped_by_path(result)
    assert "leak.md" in reasons
    assert "outside the content root" in reasons["leak.md"]


def test_symlinked_folder_outside_root_skipped(root: Path, outside: Path) -> None:
    os.symlink(outside, root / "linked", target_is_directory=True)
    write(root / "ok.md")
    result = discover(root)
    assert set(result.files) == {"ok.md"}
    assert not any(rel.startswith("linked/") and rel != "linked/" for rel in skipped_by_path(result))
    reasons = skipped_by_path(result)
    assert "outside the content root" in reasons["linked/"]


def test_relative_symlink_climbing_out_of_root_skipped(root: Path, outside: Path) -> None:
    (root / "a").mkdir()
    os.symlink("../../outside/secret.md", root / "a" / "up.md")
    result = discover(root)
    assert result.files == {}
    assert "outside the content root" in skipped_by_path(result)["a/up.md"]


def test_symlinked_file_inside_root_followed(root: Path) -> None:
    write(root / "real" / "page.md", "hello")
    os.symlink(root / "real" / "page.md", root / "alias.md")
    result = discover(root)
    assert set(result.files) == {"real/page.md", "alias.md"}
    assert result.files["alias.md"].size == 5  # the target's size, not the link's


def test_symlinked_folder_inside_root_followed(root: Path) -> None:
    write(root / ".store" / "guide.md")  # a dot-folder is not walked itself...
    os.symlink(root / ".store", root / "guides", target_is_directory=True)
    result = discover(root)
    # ...but a visible symlink to it, staying inside the root, is followed.
    assert set(result.files) == {"guides/guide.md"}
    assert result.skipped == []


def test_symlink_loop_terminates(root: Path) -> None:
    write(root / "a" / "page.md")
    os.symlink(root, root / "a" / "back-to-root", target_is_directory=True)
    os.symlink("..", root / "a" / "parent", target_is_directory=True)
    os.symlink("self.md", root / "self.md")  # a link to itself
    result = discover(root)  # must return
    assert "a/page.md" in result.files
    assert "self.md" not in result.files
    # each real folder is visited once, so the page is found once
    assert [rel for rel in result.files if rel.endswith("page.md")] == ["a/page.md"]


def test_file_over_max_bytes_skipped_with_size(root: Path) -> None:
    write(root / "big.md", "x" * 101)
    write(root / "limit.md", "x" * 100)
    result = discover(root, max_file_bytes=100)
    assert set(result.files) == {"limit.md"}
    reason = skipped_by_path(result)["big.md"]
    assert "101" in reason
    assert "100" in reason


def test_missing_root_raises(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        discover(tmp_path / "nope")


def test_stat_file_missing_is_none(root: Path) -> None:
    assert stat_file(root, "missing.md") is None
    assert stat_file(root, "no/such/folder/missing.md") is None


def test_stat_file_regular(root: Path) -> None:
    write(root / "a" / "b.md", "abc")
    ref = stat_file(root, "a/b.md")
    assert isinstance(ref, FileRef)
    assert (ref.relpath, ref.size) == ("a/b.md", 3)


def test_stat_file_too_large(root: Path) -> None:
    write(root / "b.md", "abcdef")
    found = stat_file(root, "b.md", max_file_bytes=5)
    assert isinstance(found, Skipped)
    assert "6 bytes" in found.reason


def test_stat_file_through_symlinked_parent_outside(root: Path, outside: Path) -> None:
    os.symlink(outside, root / "linked", target_is_directory=True)
    found = stat_file(root, "linked/secret.md")
    assert isinstance(found, Skipped)
    assert "outside the content root" in found.reason


def test_stat_file_not_regular(root: Path) -> None:
    (root / "folder.md").mkdir()
    found = stat_file(root, "folder.md")
    assert isinstance(found, Skipped)
    assert "not a regular file" in found.reason


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs mkfifo")
def test_fifo_not_read(root: Path) -> None:
    os.mkfifo(root / "pipe.md")
    result = discover(root)  # must not block on the pipe
    assert result.files == {}
    assert "not a regular file" in skipped_by_path(result)["pipe.md"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(link=st.lists(_NAME, min_size=1, max_size=3), target=st.lists(_NAME, min_size=1, max_size=3),
       relative=st.booleans())
def test_a_file_behind_a_symlinked_folder_is_listed_under_its_real_path_too(
        tmp_path_factory: pytest.TempPathFactory, link: list[str], target: list[str], relative: bool) -> None:
    """Issue 24 (the attack's D05: ``public/ops`` → ``../internal/ops``): whichever path the
    walk meets first, the real file is listed by its real path (where ``internal/**``
    names it) and by the symlinked one; each gets its own status, the strictest wins."""
    root = tmp_path_factory.mktemp("content")
    real = "/".join(["t", *target])
    aliased = "/".join(["l", *link])
    write(root / real / "o.md")
    (root / aliased).parent.mkdir(parents=True, exist_ok=True)
    pointer = os.path.relpath(root / real, (root / aliased).parent) if relative else str(root / real)
    os.symlink(pointer, root / aliased, target_is_directory=True)
    result = discover(root)
    assert {f"{real}/o.md", f"{aliased}/o.md"} <= set(result.files)
    assert result.skipped == []
