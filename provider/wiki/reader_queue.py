"""Files waiting for a reader process, handed out so that each segmenter loads in one process.

Analysing Chinese, Japanese or Korean text loads that language's segmenter into the
reader process that analyses it (:mod:`provider.search.segment`): about a second of CPU
and 100–230 MiB each. Handed out in path order, every reader process met every language
of a multilingual site and loaded every segmenter. :class:`Waiting` groups the files by
the segmented language their path names (a hint only: the document's own locale decides
how it is analysed) and gives each such language to one process while another process
has other work; files of other languages go to any process.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable

__all__ = ["SEGMENTED", "Waiting", "path_language"]

#: Languages whose analysis loads a segmenter (:data:`provider.search.analysis.SEGMENTED_LANGUAGES`).
SEGMENTED = frozenset({"ja", "zh", "ko"})
#: Files of a segmented language left to read below which an idle process leaves them to
#: the process that holds the segmenter: loading it costs about as much CPU as reading 30
#: files, so sharing fewer would spend more CPU than the wait it saves.
_SHARE_FROM = 64
_PARTS = re.compile(r"[/._]")


def path_language(relpath: str, languages: frozenset[str]) -> str:
    """The first of ``languages`` (lower-case language subtags) that a folder or a dotted
    part of ``relpath`` names as a locale (``docs/ja/x.md``, ``i18n/zh-cn/…``, ``a.ko.md``),
    else ``""``."""
    for part in _PARTS.split(relpath.lower()):
        language = part.split("-", 1)[0]
        if language in languages:
            return language
    return ""


class Waiting:
    """The files not yet handed to a reader process.

    Args:
        relpaths: the files, in the order they are to be read when nothing else decides.
        languages: the language subtags of the site's configured locales.
    """

    def __init__(self, relpaths: Iterable[str], languages: Iterable[str]) -> None:
        self._segmented = frozenset(lang.lower() for lang in languages) & SEGMENTED
        self._by_language: dict[str, deque[str]] = {}
        #: Which process (a key the caller chooses) was given each segmented language.
        self._holders: dict[str, set[object]] = {}
        self.push(relpaths)

    def push(self, relpaths: Iterable[str]) -> None:
        """Add files (after those waiting)."""
        for relpath in relpaths:
            language = path_language(relpath, self._segmented) if self._segmented else ""
            self._by_language.setdefault(language, deque()).append(relpath)

    def __bool__(self) -> bool:
        return any(self._by_language.values())

    def __len__(self) -> int:
        return sum(map(len, self._by_language.values()))

    def pop_for(self, process: object) -> str | None:
        """The next file for ``process``: one of a segmented language it was given, else
        of a segmented language no process holds yet, else of no segmented language
        (those balance the processes' work at the end), else — so that a process does
        not idle while much is left — of the language with the most files left; ``None``
        when what is left is a few files of languages other processes hold."""
        queues = self._by_language
        held = [lang for lang, holders in self._holders.items() if process in holders and queues.get(lang)]
        if held:
            return queues[held[0]].popleft()
        free = [lang for lang, files in queues.items() if lang and files and lang not in self._holders]
        if free:
            return self._take(free[0], process)
        if queues.get(""):
            return queues[""].popleft()
        left = [lang for lang, files in queues.items() if files]
        if not left:
            return None
        language = max(left, key=lambda lang: len(queues[lang]))
        if len(queues[language]) < _SHARE_FROM:
            return None
        return self._take(language, process)

    def _take(self, language: str, process: object) -> str:
        self._holders.setdefault(language, set()).add(process)
        return self._by_language[language].popleft()

    def forget(self, process: object) -> None:
        """``process`` is gone: the languages it held are free for another."""
        for language in list(self._holders):
            self._holders[language].discard(process)
            if not self._holders[language]:
                del self._holders[language]
