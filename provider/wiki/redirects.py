"""Redirect stubs: pages whose only job is to send the reader elsewhere (CONTRACT X2).

A page kept at an old URL so that links keep working — a ``<script>`` setting
``location``, a ``<meta http-equiv="refresh">``, or front matter ``redirect_to:`` (the
jekyll-redirect-from plugin), ``redirect:`` or ``redirect_url:`` — shows its reader
nothing: the browser moves on. Served, its "This page moved" line outranks the page it
points to (``docs/ref/extensions/litellm.md`` of the OpenAI Agents docs ranked first for
LiteLLM). Such a page is withheld with the reason :func:`redirect_stub` gives, counted as
its own kind by :mod:`provider.wiki.reasons`.

A ``<meta http-equiv="refresh">`` outside code makes the page a stub whatever its length
(issue 24): the browser leaves before anyone reads the body, so words carried under it
are text the site never shows — withheld, fail closed. A script is read as a stub only
up to :data:`MAX_STUB_WORDS` words (a long page may hold a script that redirects only
some readers).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from .plaintext import outside_fences

__all__ = ["HIDDEN_BY_REFRESH", "MAX_STUB_WORDS", "REDIRECT_KEYS", "redirect_stub"]

#: Front matter keys whose value sends the reader to another page.
REDIRECT_KEYS = ("redirect_to", "redirect", "redirect_url")
#: Words a page with a redirect in its body may show and still be a stub ("This page
#: moved to …; if you are not redirected, use the link above"). A longer page that
#: happens to hold such a script is a page.
MAX_STUB_WORDS = 40

_REDIRECT = re.compile(
    r"<meta\b[^>]*http-equiv\s*=\s*[\"']?refresh"
    r"|<script\b[^>]*>[^<]*?\blocation(?:\.href)?\s*=(?!=)"
    r"|<script\b[^>]*>[^<]*?\blocation\.(?:replace|assign)\s*\(",
    re.IGNORECASE)
#: The reason given to a page whose meta refresh hides more than :data:`MAX_STUB_WORDS`
#: words: text no reader sees (an error: ``check`` quarantines the page).
HIDDEN_BY_REFRESH = "a redirect stub: a meta refresh sends readers elsewhere before the page's text is shown"
_META_REFRESH = re.compile(r"<meta\b[^>]*http-equiv\s*=\s*[\"']?refresh", re.IGNORECASE)
_CODE_SPAN = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)", re.DOTALL)
_WORD = re.compile(r"[^\W_]+")


def redirect_stub(front: Mapping[str, Any], body: str, texts: Iterable[str]) -> str | None:
    """Why the page is a redirect stub (a withholding reason), else ``None``.

    Args:
        front: the page's front matter.
        body: its markdown body (fenced code is not read: a page showing a redirect
            script as an example is no stub).
        texts: the plain text of its passages (how many words it shows).
    """
    for key in REDIRECT_KEYS:
        target = front.get(key)
        if isinstance(target, str) and target.strip():
            return f"a redirect stub: front matter {key} sends readers to {target.strip()[:120]}"
    prose: list[str] = []

    def keep(segment: str) -> str:
        prose.append(segment)
        return segment

    outside_fences(body, keep)  # fenced code shows a redirect, it does not run one
    shown_prose = _CODE_SPAN.sub(" ", "".join(prose))  # so does a code span
    if not _REDIRECT.search(shown_prose):
        return None
    shown = sum(len(_WORD.findall(text)) for text in texts)
    if shown > MAX_STUB_WORDS:
        if _META_REFRESH.search(shown_prose):
            return f"{HIDDEN_BY_REFRESH} ({shown} words)"
        return None
    return "a redirect stub: the page sends readers elsewhere with a script or a meta refresh"
