"""Proof of publication: a document is public only if the site publishes its URL (CONTRACT X2).

With ``sitemap:`` configured, the corpus rules (:func:`provider.wiki.corpus.derive`, its
last rule) ask a :class:`SiteGate` about every document its own rules leave public: its
citation URL — the one :mod:`provider.wiki.citations` builds for a public document — must
be in the site's sitemap (:mod:`provider.wiki.sitemap`, compared by
:func:`~provider.wiki.sitemap.site_key` and :func:`~provider.wiki.sitemap.page_form`).
Otherwise the document becomes internal (agents keep it; ``customer_safe`` never sees it),
with the reason in its ``audience_source``
and its code in :attr:`~provider.wiki.corpus.Resolved.off_site`:

==================  ===========================================================================
``never-read``      no sitemap has ever been read: nothing is public until one is
``no-url``          no citation URL can be built for the document (no ``citation_base_url``
                    and no absolute front matter ``url``), so there is nothing to look up
``url-pattern``     the URL is not on the site but a near one is — "URL pattern produces X,
                    the site has Y" (letter case, a first segment more or less such as a
                    locale or ``docs/``, another host): the pattern is probably wrong
``not-on-site``     the URL is not on the site
``conflated``       the URL is one page of the site that another document claims too (or a
                    page the site builds from a non-markdown source): the sitemap cannot show
                    whose page is published
``generated``       the URL is a page the docs tool generates (a tag list, a blog archive, a
                    search page: :mod:`provider.wiki.generated_pages`); its ``<loc>`` proves
                    no markdown document published
==================  ===========================================================================

:class:`SiteSource` reads the configured sitemap, keeps the last good one (in memory and
in a state file, so a restart keeps it too), and tells when to read it again: every
``sitemap_refresh_s`` seconds, and when a sitemap file it read changed on disk. While the
sitemap cannot be read the last good one holds and a warning is logged each time.
"""

from __future__ import annotations

import json
import logging
import os
import re
import time
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

from .citations import document_url, url_inputs
from .generated_pages import generated_route, hugo_page_outputs, hugo_routes, jekyll_page_paginations
from .hugo_site import hugo_content_adapters
from .sitemap import Sitemap, SitemapError, SitemapLimits, is_url_source, load_sitemap, page_form, site_key
from .sites.javascript import docusaurus_route_base_path
from .static_pages import static_pages

if TYPE_CHECKING:
    import httpx

    from .document import DocumentMeta, WikiSettings

__all__ = [
    "CONFLATED",
    "GENERATED",
    "NEVER_READ",
    "NOT_ON_SITE",
    "NO_URL",
    "OFF_SITE_CODES",
    "URL_PATTERN",
    "OffSite",
    "SiteGate",
    "SiteSource",
    "UrlCache",
]

log = logging.getLogger(__name__)

NEVER_READ, NO_URL, URL_PATTERN, NOT_ON_SITE = "never-read", "no-url", "url-pattern", "not-on-site"
CONFLATED = "conflated"
GENERATED = "generated"
#: Each code and the words ``check`` prints for it.
OFF_SITE_CODES = {
    NOT_ON_SITE: "not on the site (sitemap)",
    URL_PATTERN: "not on the site (sitemap), a near URL is: the URL pattern may be wrong",
    NO_URL: "no citation URL to look up in the sitemap",
    NEVER_READ: "the sitemap has never been read",
    CONFLATED: "on the site only under a URL another document shares: cannot tell which is published",
    GENERATED: "its URL is a page the site generates (tags, archives, pagination, search)",
}


@dataclass(frozen=True)
class OffSite:
    """Why a document its own rules make public is not: ``code`` (:data:`OFF_SITE_CODES`)
    and ``reason``, the sentence the operator sees."""

    code: str
    reason: str


class SiteGate:
    """Decides, for one sitemap, whether a document's citation URL is on the site.

    Args:
        settings: how citation URLs are built (``citation_base_url``, the layout…).
        sitemap: the last good sitemap, or ``None`` when none was ever read (then
            nothing passes).
        error: why the sitemap could not be read, if it could not (shown with
            ``never-read``).
    """

    def __init__(self, settings: WikiSettings, sitemap: Sitemap | None, error: str | None = None, *,
                 urls: UrlCache | None = None) -> None:
        self.settings = settings
        self.sitemap = sitemap
        self.error = error
        #: Changes exactly when the gate's answers can (the corpus rules derive everything again).
        self.key = sitemap.digest() if sitemap is not None else "never-read"
        #: the URL cache, shared with the next gate of the same :class:`SiteSource`.
        self.urls = urls if urls is not None and urls.settings is settings else UrlCache(settings)

    def url(self, meta: DocumentMeta) -> str | None:
        """The citation URL ``meta`` would have as a public document (what is looked up)."""
        return self.urls.lookup(meta)[0]

    def __call__(self, meta: DocumentMeta) -> OffSite | None:
        """``None`` when the document's URL is on the site, else why not."""
        if self.sitemap is None:
            why = f" ({self.error})" if self.error else ""
            return OffSite(NEVER_READ, f"not on the site (sitemap): the sitemap has never been read{why}; nothing "
                                       "is public until it is")
        url, key = self.urls.lookup(meta)
        if url is None:
            problem = self.urls.problem(meta)
            if problem is not None:
                return OffSite(NO_URL, f"not on the site (sitemap): no citation URL to look up ({problem})")
            return OffSite(NO_URL, "not on the site (sitemap): no citation URL to look up (set citation_base_url, "
                                   "or an absolute front matter url)")
        if self.sitemap.publishes(url, key):
            family = self._generated(url)
            if family is not None:
                return OffSite(GENERATED, f"not on the site (sitemap): its URL is a page the site generates "
                                          f"({family}): {url}")
            return None
        near = self.sitemap.near(url, key)
        if near is not None:
            return OffSite(URL_PATTERN, f"not on the site (sitemap): URL pattern produces {url}, the site has {near}")
        return OffSite(NOT_ON_SITE, f"not on the site (sitemap): {url}")


    def _generated(self, url: str) -> str | None:
        """The generated route family (:func:`~provider.wiki.generated_pages.generated_route`)
        of ``url``'s path below ``citation_base_url``, or ``None``."""
        path = unquote(urlsplit(url).path, errors="surrogateescape")
        base = urlsplit(self.settings.citation.base_url or "").path.rstrip("/")
        if base and (path == base or path.startswith(base + "/")):
            path = path[len(base):]
        route_base = self.settings.citation.route_base_path
        if route_base is None and self.settings.layout == "docusaurus":
            route_base, _ = docusaurus_route_base_path(self.settings.root)
        return generated_route(self.settings.layout, path, root=self.settings.root,
                               route_base="docs" if route_base is None else route_base,
                               locales=self.settings.known_locales)

    def conflated(self, metas: Iterable[DocumentMeta]) -> dict[str, OffSite]:
        """Documents that share one page of the site with another document, by ``relpath``:
        their citation URLs have the same :func:`~provider.wiki.sitemap.site_key` and the
        same :func:`~provider.wiki.sitemap.page_form` — the very same URL (a front matter
        ``url`` equal to another page's, two slugs alike), or two spellings of one page
        (``/a/`` and ``/a``, two spellings of one escape). A site publishes one page per
        URL, and the sitemap cannot show whose it is, so none of them passes (fail
        closed, issue 24). ``/a.html`` and ``/a/`` are not one page: their forms tell them
        apart; translations have their own locale URLs, so they never share one. Every
        document counts, whatever its audience or withholding: an internal page, or one
        the site would not build, claims its URL as much as a public one does.
        Also a document whose URL is a page the site builds from a non-markdown source
        (:func:`~provider.wiki.static_pages.static_pages`).
        """
        by_page: dict[tuple[str, str], list[tuple[str, str]]] = {}
        relpaths: list[str] = []
        amp: list[str] = []  # Hugo pages whose own front matter outputs names AMP
        hugo = self.settings.layout == "hugo"
        for meta in metas:
            relpaths.append(meta.relpath)
            if hugo and "amp" in hugo_page_outputs(self.settings.root / meta.relpath, meta.mtime_ns, meta.size):
                amp.append(meta.relpath)
            url, key = self.urls.lookup(meta)
            if url is not None:
                by_page.setdefault((key, page_form(url)), []).append((meta.relpath, url))
        found: dict[str, OffSite] = {}
        base = self.settings.citation.base_url
        if base:
            # A page the site builds from a non-markdown source (Hugo static/, a Jekyll
            # .html page) owns its URL: a document claiming it is not proved published.
            statics = static_pages(self.settings.root, self.settings.layout, locales=self.settings.known_locales,
                                   default_locale=self.settings.default_locale)
            if self.settings.layout == "jekyll":  # statics: "<site folder>/blog/index.html"
                self._paginated(by_page, found, [*relpaths, *(source.partition("/")[2] for source, _ in statics)])
            for source, path in statics:
                url = base.rstrip("/") + path
                for relpath, claimed in by_page.get((site_key(url), page_form(url)), []):
                    found[relpath] = OffSite(CONFLATED, f"not on the site (sitemap): {claimed} is the page the site "
                                                        f"builds from {source} (not a markdown document), so the "
                                                        "sitemap does not show this document is published")
        if base and hugo:
            self._adapted(by_page, found)
            if amp and "amp" not in hugo_routes(self.settings.root).prefixes:
                self._amp(by_page, found, amp[0])
        for members in by_page.values():
            if len({relpath for relpath, _ in members}) < 2:
                continue
            urls = sorted({url for _, url in members})
            for relpath, url in members:
                if len(urls) == 1:
                    others = ", ".join(sorted(other for other, _ in members if other != relpath))
                    found[relpath] = OffSite(CONFLATED, f"not on the site (sitemap): {len(members)} documents claim "
                                                        f"the URL {url} ({others} too); the site publishes one page "
                                                        "there, so the sitemap cannot show which")
                    continue
                others = ", ".join(f"{other} ({other_url})" for other, other_url in sorted(members)
                                   if other != relpath)
                found[relpath] = OffSite(CONFLATED, f"not on the site (sitemap): {len(members)} documents claim "
                                                    f"the URL {url}: it and the URL of {others} are one page to the "
                                                    "sitemap comparison, so the sitemap cannot show which of them "
                                                    "the site publishes")
        return found


    def _paginated(self, by_page: dict[tuple[str, str], list[tuple[str, str]]], found: dict[str, OffSite],
                   relpaths: list[str]) -> None:
        """Documents whose URL is a pagination page that a Jekyll page's own front matter
        ``pagination: permalink:`` makes (jekyll-paginate-v2; below any page, as the
        site-wide permalink is read: :func:`~provider.wiki.generated_pages.jekyll_page_paginations`)."""
        pages = jekyll_page_paginations(self.settings.root, relpaths)
        if not pages:
            return
        base = urlsplit(self.settings.citation.base_url or "").path.rstrip("/")
        for members in by_page.values():
            for relpath, url in members:
                path = unquote(urlsplit(url).path, errors="surrogateescape")
                path = path[len(base):] if base and path.startswith(base) else path
                path = re.sub(r"(?:^|/)index\.html?$", "", path.strip("/")).strip("/")
                source = next((page for page, pattern in pages if path and pattern.fullmatch(path)), None)
                if source is not None:
                    found[relpath] = OffSite(GENERATED, f"not on the site (sitemap): its URL is a page the site "
                                                        f"generates (the pagination {source}'s front matter sets, "
                                                        f"jekyll-paginate-v2): {url}")

    def _amp(self, by_page: dict[tuple[str, str], list[tuple[str, str]]], found: dict[str, OffSite],
             page: str) -> None:
        """Documents whose URL is below ``/amp/`` (or a language's ``/<lang>/amp/``): the
        AMP pages Hugo renders for pages whose own front matter ``outputs`` names AMP
        (``page`` is one), whatever the site's ``outputs`` say."""
        base = urlsplit(self.settings.citation.base_url or "").path.rstrip("/")
        locales = {locale.lower() for locale in self.settings.known_locales}
        for members in by_page.values():
            for relpath, url in members:
                path = unquote(urlsplit(url).path, errors="surrogateescape")
                path = (path[len(base):] if base and path.startswith(base) else path).strip("/").lower()
                first, _, rest = path.partition("/")
                if first in locales:
                    path = rest
                if path == "amp" or path.startswith("amp/"):
                    found[relpath] = OffSite(GENERATED, f"not on the site (sitemap): its URL is a page the site "
                                                        f"generates (the AMP output format's pages below /amp/: "
                                                        f"{page}'s front matter outputs names AMP): {url}")

    def _adapted(self, by_page: dict[tuple[str, str], list[tuple[str, str]]], found: dict[str, OffSite]) -> None:
        """Documents whose URL lies in the section of a Hugo content adapter
        (``_content.gotmpl``, :func:`~provider.wiki.hugo_site.hugo_content_adapters`): it
        builds pages at paths it computes, any of which may be this URL."""
        root = self.settings.root
        content = root if root.name == "content" or not (root / "content").is_dir() else root / "content"
        adapters = hugo_content_adapters(content)
        if not adapters:
            return
        base = urlsplit(self.settings.citation.base_url or "").path.rstrip("/")
        locales = {locale.lower() for locale in self.settings.known_locales}
        for members in by_page.values():
            for relpath, url in members:
                path = unquote(urlsplit(url).path, errors="surrogateescape")
                path = path[len(base):] if base and path.startswith(base) else path
                lowered = path.lower().strip("/")
                # Under a language folder too (content/de/…): the adapter's section path is
                # compared with and without the first segment.
                tails = (lowered, lowered.partition("/")[2])
                for folder in adapters:
                    section = folder.lower().strip("/")
                    first, _, rest = section.partition("/")
                    sections = (section, rest) if first in locales else (section,)
                    if any(not s or tail == s or tail.startswith(s + "/") for s in sections for tail in tails):
                        found[relpath] = OffSite(CONFLATED, f"not on the site (sitemap): {url} is in the section "
                                                            f"of the content adapter {folder or '.'}/_content.gotmpl, "
                                                            "which builds pages at paths the provider cannot tell, "
                                                            "so the sitemap does not show this document is published")
                        break


class UrlCache:
    """Each document's public citation URL and its :func:`~provider.wiki.sitemap.site_key`,
    kept while its :class:`DocumentMeta` lives (a changed file has a new one): a new
    sitemap derives every decision again, and building every URL again was most of that.
    Entries go with their document (weak references)."""

    def __init__(self, settings: WikiSettings) -> None:
        self.settings = settings
        self._found: dict[int, tuple[weakref.ref[DocumentMeta], str | None, str]] = {}

    def problem(self, meta: DocumentMeta) -> str | None:
        """Why the layout cannot tell the document's path on the site, or ``None``
        (rarely asked: only for a document without a URL)."""
        return url_inputs(meta, self.settings).problem

    def lookup(self, meta: DocumentMeta) -> tuple[str | None, str]:
        """``(url, key)``; ``key`` is ``""`` when there is no URL."""
        found = self._found.get(id(meta))
        if found is not None and found[0]() is meta:
            return found[1], found[2]
        url, _ = document_url(url_inputs(meta, self.settings), public=True, settings=self.settings.citation,
                              agent_view=False)
        key = site_key(url) if url is not None else ""
        found_map, ident = self._found, id(meta)
        self._found[ident] = (weakref.ref(meta, lambda _ref: found_map.pop(ident, None)), url, key)
        return url, key


def _stamps(files: tuple[str, ...]) -> dict[str, tuple[int, int] | None]:
    found: dict[str, tuple[int, int] | None] = {}
    for name in files:
        if is_url_source(name):
            continue
        try:
            stat = os.stat(name)
            found[name] = (stat.st_mtime_ns, stat.st_size)
        except OSError:
            found[name] = None
    return found


class SiteSource:
    """The configured sitemap, read now and again, with the last good one kept.

    Args:
        sources: file paths (absolute) and URLs, as configured.
        state_file: where the last good sitemap is kept across restarts
            (``index/state/sitemap.json``), or ``None``.
        refresh_s: seconds between reads (a changed file is read again at once).
        limits, client: passed to :func:`~provider.wiki.sitemap.load_sitemap`.
        clock: Unix time; monotonic: a monotonic clock in seconds (tests pass their own).

    Attributes:
        current: the last good sitemap, or ``None``.
        last_error: why the last read failed, or ``None`` after a good read.
    """

    def __init__(self, sources: tuple[str, ...], *, state_file: Path | None, refresh_s: float = 600.0,
                 limits: SitemapLimits | None = None, client: httpx.Client | None = None,
                 clock: Callable[[], float] = time.time, monotonic: Callable[[], float] = time.monotonic) -> None:
        self.sources = sources
        self.state_file = state_file
        self.refresh_s = refresh_s
        self.limits = limits
        self.client = client
        self._clock = clock
        self._monotonic = monotonic
        self.current: Sitemap | None = None
        self.last_error: str | None = None
        self._next_due = 0.0
        self._stamps: dict[str, tuple[int, int] | None] = {}
        self._urls: UrlCache | None = None

    def load_kept(self) -> bool:
        """Take the sitemap kept in the state file, if it was read from these sources.
        Returns whether one was taken."""
        if self.state_file is None or not self.state_file.is_file():
            return False
        try:
            kept = Sitemap.from_json(json.loads(self.state_file.read_text("utf-8", errors="surrogateescape")))
        except (OSError, ValueError) as exc:
            log.warning("the kept sitemap %s cannot be read (%s); ignored", self.state_file, exc)
            return False
        if kept.sources != self.sources:
            return False  # read from other sources: not this site's
        self.current = kept
        return True

    def due(self) -> bool:
        """Whether to read again: the refresh time came, or a sitemap file changed."""
        if self._monotonic() >= self._next_due:
            return True
        return bool(self._stamps) and _stamps(tuple(self._stamps)) != self._stamps

    def refresh(self) -> bool:
        """Read the sitemap now. Returns whether the set of published URLs changed (the
        corpus rules must then run again). A failure keeps the last good sitemap and
        logs a warning; it is never raised."""
        self._next_due = self._monotonic() + self.refresh_s
        local = tuple(s for s in self.sources if not is_url_source(s))
        try:
            fresh = load_sitemap(self.sources, limits=self.limits, client=self.client, clock=self._clock)
        except SitemapError as exc:
            self.last_error = str(exc)
            self._stamps = _stamps(tuple(dict.fromkeys(local + tuple(self._stamps))))
            if self.current is None:
                log.warning("sitemap: %s; no sitemap was ever read, so nothing is public (customer_safe gets no "
                            "results) until one is", exc)
            else:
                log.warning("sitemap: %s; the last good one (read %s, %d URLs) holds", exc,
                            time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(self.current.read_at)),
                            len(self.current))
            return False
        self.last_error = None
        self._stamps = _stamps(tuple(dict.fromkeys(local + fresh.files)))
        changed = self.current is None or fresh.digest() != self.current.digest()
        self.current = fresh
        if self.state_file is not None:
            try:
                fresh.save(self.state_file)
            except OSError as exc:
                log.warning("sitemap: cannot keep it in %s (%s); a restart reads it again", self.state_file, exc)
        if changed:
            log.info("sitemap: %d published URLs from %d file(s)", len(fresh), len(fresh.files))
        return changed

    def gate(self, settings: WikiSettings) -> SiteGate:
        """The :class:`SiteGate` of the current sitemap (URLs built once per document)."""
        gate = SiteGate(settings, self.current, self.last_error, urls=self._urls)
        self._urls = gate.urls
        return gate
