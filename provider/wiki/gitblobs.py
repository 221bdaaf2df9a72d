"""Asking git what a file was at a commit (Hugo's ``default_lang_commit`` convention).

A translation whose front matter says ``default_lang_commit: <commit>`` was synchronised
with its source-language file as that file was at ``<commit>``. It is stale when the
source file's bytes now differ from its blob at that commit. :class:`GitBlobs` answers
"which blob was ``path`` at ``commit``?" for many pairs with one ``git cat-file
--batch-check`` process, under a timeout, and remembers the answers (a commit's tree
never changes). When git cannot tell — no git, not a repository, a shallow clone without
that commit, the file did not exist then, a timeout — the answer is ``None`` and the
translation's state is *unknown*, never current (CONTRACT R6).

Line endings: the comparison is between the committed blob and the file's bytes as read
(``git hash-object``); a checkout that converts line endings (``core.autocrlf``) makes
every file look changed, and so every such translation stale.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import threading
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

__all__ = ["BlobLookup", "GitBlobs"]

log = logging.getLogger(__name__)

#: ``lookup(pairs)`` → ``{(commit, relpath): blob id or None}`` for every pair asked.
BlobLookup = Callable[[Iterable[tuple[str, str]]], Mapping[tuple[str, str], str | None]]


class GitBlobs:
    """Blob ids of files at commits, for the repository containing ``root``.

    Args:
        root: the content folder (any folder inside a git work tree); paths are relative
            to it.
        timeout_s: wall-clock limit of one git process, in seconds.
        max_entries: answers remembered (definitive answers only; a timeout is asked
            again next time).
    """

    def __init__(self, root: Path, *, timeout_s: float = 10.0, max_entries: int = 100_000) -> None:
        self.root = Path(root)
        self.timeout_s = timeout_s
        self.max_entries = max_entries
        self._known: dict[tuple[str, str], str | None] = {}
        self._lock = threading.Lock()
        self.calls = 0

    def __call__(self, pairs: Iterable[tuple[str, str]]) -> dict[tuple[str, str], str | None]:
        wanted = list(dict.fromkeys(pairs))
        with self._lock:
            missing = [pair for pair in wanted if pair not in self._known]
            answers = self._ask(missing) if missing else {}
            if len(self._known) + len(answers) > self.max_entries:
                self._known.clear()
            self._known.update(answers)
            return {pair: self._known.get(pair, answers.get(pair)) for pair in wanted}

    def settled(self, pair: tuple[str, str]) -> bool:
        """Whether asking about ``pair`` again gives the answer last given (git answered
        it, and the answer is remembered); false after a timeout."""
        with self._lock:
            return pair in self._known

    def _ask(self, pairs: list[tuple[str, str]]) -> dict[tuple[str, str], str | None]:
        usable = [(c, p) for c, p in pairs if "\n" not in p and "\r" not in p]
        out: dict[tuple[str, str], str | None] = {pair: None for pair in pairs}
        git = shutil.which("git")
        if git is None or not usable:
            return out
        lines = "".join(f"{commit}:./{path}\n" for commit, path in usable)
        self.calls += 1
        try:
            done = subprocess.run(  # noqa: S603 - fixed argv; commits are validated hex, paths after ":./"
                [git, "-C", str(self.root), "cat-file", "--batch-check"],
                input=lines.encode("utf-8"), capture_output=True, timeout=self.timeout_s, check=False,
                env={**os.environ, "GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C"},
            )
        except subprocess.TimeoutExpired:
            log.warning("git did not answer within %.0f s; translation freshness is unknown for now", self.timeout_s)
            return {}
        except OSError as exc:
            log.warning("cannot run git (%s); translation freshness is unknown", exc)
            return out
        if done.returncode != 0:
            # Not a repository, or git refuses it (e.g. "dubious ownership"): nobody can tell.
            return out
        answers = done.stdout.decode("utf-8", errors="replace").splitlines()
        if len(answers) != len(usable):
            return out
        for pair, answer in zip(usable, answers, strict=True):
            parts = answer.split()
            if len(parts) == 3 and parts[1] == "blob":
                out[pair] = parts[0].lower()
        return out
