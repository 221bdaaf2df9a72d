"""HTML article bodies → plain-text paragraphs (CONTRACT R3).

Help-centre exports (Zendesk, Intercom, Confluence's view format) carry HTML. The
contract wants plain text: tags go, entities are decoded, ``script``/``style`` content
is dropped, and block elements become paragraph breaks so a snippet can be one passage.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

__all__ = ["html_to_paragraphs"]

_BLOCKS = {"p", "div", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "br", "tr", "table", "blockquote",
           "pre", "section", "article", "dt", "dd"}
_SKIPPED = {"script", "style", "template"}


class _TextCollector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)  # entities arrive decoded in handle_data
        self.paragraphs: list[str] = []
        self._current: list[str] = []
        self._skipping = 0

    def _flush(self) -> None:
        text = re.sub(r"\s+", " ", "".join(self._current)).strip()
        if text:
            self.paragraphs.append(text)
        self._current = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIPPED:
            self._skipping += 1
        elif tag in _BLOCKS:
            self._flush()

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED:
            self._skipping = max(0, self._skipping - 1)
        elif tag in _BLOCKS:
            self._flush()

    def handle_data(self, data: str) -> None:
        if not self._skipping:
            self._current.append(data)


def html_to_paragraphs(html: str) -> list[str]:
    """The text of ``html`` as paragraphs, whitespace collapsed, none empty.

    Plain text without tags comes back as one paragraph per blank-line-separated block
    (HTML collapses newlines, so blank lines are turned into paragraph tags first).
    """
    collector = _TextCollector()
    collector.feed(re.sub(r"\n\s*\n", "<p>", html))
    collector.close()
    collector._flush()
    return collector.paragraphs
