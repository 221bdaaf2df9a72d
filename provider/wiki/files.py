"""Finding the wiki's markdown files under the content root.

Rules: ``.md`` and ``.markdown`` in any case (a layout may add ``.mdx``), recursively;
every dot-folder (``.git``, ``.github``, …), dot-file and ``node_modules`` skipped; a
symlink followed only when it stays inside the content root; files over the size limit
skipped and reported; paths matching a layout's ignore rules (build output, templates,
partials) skipped and reported with the layout's reason — a whole folder as one entry.
"""

from __future__ import annotations

import os
import stat
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from wcmatch import glob

__all__ = [
    "DEFAULT_EXTENSIONS",
    "DEFAULT_MAX_FILE_BYTES",
    "Discovery",
    "FileRef",
    "Skipped",
    "discover",
    "ignore_reason",
    "is_ignored_path",
    "name_is_utf8",
    "stat_file",
]

DEFAULT_EXTENSIONS: tuple[str, ...] = (".md", ".markdown")
DEFAULT_MAX_FILE_BYTES = 2 * 1024 * 1024
_IGNORED_DIRS = frozenset({"node_modules"})


@dataclass(frozen=True)
class FileRef:
    """A markdown file found under the content root.

    Attributes:
        relpath: POSIX path relative to the content root, as found (through symlinks).
        size: bytes.
        mtime_ns: modification time in nanoseconds.
        ctime_ns: inode change time in nanoseconds (changes on every write, and cannot be
            set back like the mtime can).
        inode: the file's inode number.
        real_relpath: for a file reached through a symlink inside the root, its real path
            relative to the root; else ``None``.
    """

    relpath: str
    size: int
    mtime_ns: int
    ctime_ns: int = 0
    inode: int = 0
    real_relpath: str | None = None


@dataclass(frozen=True)
class Skipped:
    """A file that will not be indexed, and why (shown to the operator).

    Attributes:
        relpath: the path (a folder ends in ``/``).
        reason: shown to the operator.
        expected: skipped by design (not content in this layout, no text) rather than
            because something is wrong (unreadable, too large, a symlink leaving the
            root); ``knowledge-provider check`` quarantines only the unexpected ones.
    """

    relpath: str
    reason: str
    expected: bool = field(default=False, compare=False)


@dataclass
class Discovery:
    """The result of one scan: files to index and files skipped with a reason."""

    files: dict[str, FileRef] = field(default_factory=dict)
    skipped: list[Skipped] = field(default_factory=list)


_GLOB_FLAGS = glob.GLOBSTAR | glob.BRACE | glob.DOTGLOB

#: ``(glob, reason)``: a glob ending in ``/**`` names folders, any other names files.
IgnoreRules = Sequence[tuple[str, str]]


def _rule_reason(relpath: str, rules: IgnoreRules, *, folder: bool) -> str | None:
    # After Unicode NFC, as audience rules compare (an NFD folder name, an NFC rule).
    relpath = unicodedata.normalize("NFC", relpath)
    for raw, reason in rules:
        pattern = unicodedata.normalize("NFC", raw)
        is_folder_rule = pattern.endswith("/**")
        if folder and is_folder_rule and glob.globmatch(relpath, pattern[:-3], flags=_GLOB_FLAGS):
            return reason
        if not folder and not is_folder_rule and glob.globmatch(relpath, pattern, flags=_GLOB_FLAGS):
            return reason
    return None


def ignore_reason(relpath: str, rules: IgnoreRules) -> str | None:
    """Why ignore rules skip a file path (through any of its folders), or ``None``."""
    parts = relpath.split("/")
    for depth in range(1, len(parts)):
        reason = _rule_reason("/".join(parts[:depth]), rules, folder=True)
        if reason is not None:
            return reason
    return _rule_reason(relpath, rules, folder=False)


def is_ignored_path(relpath: str, extensions: Iterable[str] = DEFAULT_EXTENSIONS) -> bool:
    """Whether a relative path is never a wiki file (dot-folders, dot-files, temp files,
    ``node_modules``, other extensions) — usable on watcher events without touching disk."""
    parts = relpath.split("/")
    if any(part.startswith(".") or part in _IGNORED_DIRS for part in parts):
        return True
    name = parts[-1]
    if name.endswith("~") or name.startswith("#"):
        return True
    return not name.lower().endswith(tuple(extensions))


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root + os.sep)


def stat_file(
    root: Path, relpath: str, *, max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
) -> FileRef | Skipped | None:
    """Look at one path now.

    Returns:
        a :class:`FileRef` for a regular file that may be indexed; a :class:`Skipped`
        when it exists but must not be (too large, symlink leaving the root, not a
        regular file); ``None`` when nothing is there (a removal, not an error).
    """
    if not name_is_utf8(relpath):
        return Skipped(relpath, "its name is not valid UTF-8: rename it")
    parts = relpath.split("/")
    full = os.path.join(root, *parts)
    try:
        st = os.lstat(full)
        real = os.path.realpath(full)
        # A fully resolved path holds no symlink: when the file's is its path as written,
        # neither the root nor a folder below it is one, and the root's real path is its
        # absolute path (one walk over the root's folders less per file: ~0.1 ms).
        if ".." not in parts and real == os.path.abspath(full):
            real_root = os.path.abspath(root)
        else:
            real_root = os.path.realpath(root)
        # The file, or a folder above it, may be a symlink leaving the root.
        if not _inside(real, real_root):
            return Skipped(relpath, "symlink leads outside the content root")
        if stat.S_ISLNK(st.st_mode):
            st = os.stat(full)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return Skipped(relpath, f"cannot be read: {exc.strerror or exc}")
    if not stat.S_ISREG(st.st_mode):
        return Skipped(relpath, "not a regular file")
    if st.st_size > max_file_bytes:
        return Skipped(relpath, f"larger than {max_file_bytes} bytes ({st.st_size} bytes)")
    real_relpath = Path(os.path.relpath(real, real_root)).as_posix()
    return FileRef(relpath=relpath, size=st.st_size, mtime_ns=st.st_mtime_ns, ctime_ns=st.st_ctime_ns,
                   inode=st.st_ino, real_relpath=None if real_relpath == relpath else real_relpath)


def name_is_utf8(relpath: str) -> bool:
    """Whether a path (as ``os`` decoded it, with surrogate escapes) is valid UTF-8 text.
    Other names cannot be stored or reported reliably, so their files are skipped."""
    try:
        relpath.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def discover(
    root: Path,
    *,
    extensions: Iterable[str] = DEFAULT_EXTENSIONS,
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
    ignore: IgnoreRules = (),
    exclude: Callable[[str], str | None] | None = None,
) -> Discovery:
    """Walk the content root and return every wiki file and every skipped one.

    Symlinked folders are followed only when they resolve inside the root; each real
    folder is visited once by its own path and at most once through a symlink, so its
    files are found under their real paths too and symlink loops end.

    Args:
        ignore: ``(glob, reason)`` rules over paths relative to ``root`` (see
            :func:`ignore_reason`); an ignored folder is reported once, not entered.
        exclude: why a file path is not built by the site's docs tool, or ``None``
            (:meth:`provider.wiki.sites.SitePolicy.excluded_reason`); such files are
            skipped and reported with that reason.

    Raises:
        FileNotFoundError: the content root does not exist or is not a folder.
    """
    exts = tuple(e.lower() for e in extensions)
    real_root = os.path.realpath(root)
    if not os.path.isdir(real_root):
        raise FileNotFoundError(f"content folder {root} does not exist")
    result = Discovery()
    # A folder is walked once by its real path and at most once more through a symlink
    # (never one leading back into a folder the walk is inside: a loop): its files keep
    # their real paths, where the audience rules name them, whichever path came first.
    visited: set[tuple[str, bool]] = set()
    stack: list[tuple[str, str, tuple[str, ...]]] = [(str(root), "", ())]
    while stack:
        folder, prefix, above = stack.pop()
        real_folder = os.path.realpath(folder)
        real = os.path.relpath(real_folder, real_root).replace(os.sep, "/") == (prefix.rstrip("/") or ".")
        if (real_folder, real) in visited or real_folder in above:
            continue
        visited.add((real_folder, real))
        above = (*above, real_folder)
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            result.skipped.append(Skipped(prefix or ".", f"folder cannot be read: {exc.strerror or exc}"))
            continue
        for entry in entries:
            name = entry.name
            relpath = f"{prefix}{name}"
            if name.startswith(".") or name in _IGNORED_DIRS:
                continue
            if not name_is_utf8(name):
                result.skipped.append(Skipped(relpath.encode("utf-8", "backslashreplace").decode("utf-8"),
                                              "its name is not valid UTF-8: rename it"))
                continue
            try:
                is_dir = entry.is_dir(follow_symlinks=True)
            except OSError:
                is_dir = False
            if is_dir:
                if entry.is_symlink() and not _inside(os.path.realpath(entry.path), real_root):
                    result.skipped.append(Skipped(relpath + "/", "symlink leads outside the content root"))
                    continue
                reason = _rule_reason(relpath, ignore, folder=True)
                if reason is not None:
                    result.skipped.append(Skipped(relpath + "/", reason, expected=True))
                    continue
                stack.append((entry.path, relpath + "/", above))
                continue
            if is_ignored_path(relpath, exts):
                continue
            reason = _rule_reason(relpath, ignore, folder=False)
            if reason is None and exclude is not None:
                reason = exclude(relpath)
            if reason is not None:
                result.skipped.append(Skipped(relpath, reason, expected=True))
                continue
            found = stat_file(root, relpath, max_file_bytes=max_file_bytes)
            if isinstance(found, FileRef):
                result.files[relpath] = found
            elif isinstance(found, Skipped):
                result.skipped.append(found)
    return result
