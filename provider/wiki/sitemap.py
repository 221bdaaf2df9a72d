"""A site's sitemap: the URLs a docs site says it publishes (issue 24, CONTRACT X2).

:func:`load_sitemap` reads one or more sitemaps — files from a build output, or ``https``
URLs — and returns a :class:`Sitemap`: every published URL, keyed by :func:`site_key`,
with its ``lastmod``. It follows what docs tools write:

* **sitemap index files** (``<sitemapindex>``), to :attr:`SitemapLimits.max_depth` levels
  and :attr:`SitemapLimits.max_files` files in all. For a file source, a child named by an
  absolute URL is looked for in the build output beside the index (its URL path, then
  shorter suffixes of it: ``https://site/de/sitemap.xml`` → ``de/sitemap.xml``);
* **per-language sitemaps**: give several sources (Docusaurus writes one per locale and
  no index); their URLs add up;
* **gzip**: a ``.gz`` name or gzip's magic bytes; decompressed with a bound;
* **only ``<loc>``** proves a URL published: an ``<xhtml:link rel="alternate" hreflang=…>``
  (``x-default`` included) links the page to another, which is published only if it has a
  ``<url>`` of its own (as Hugo, Docusaurus and mkdocs-static-i18n write it).

Safety: XML is parsed by ``defusedxml``, which refuses entity declarations (an XML bomb's
expansion) and external entities (a file read through the parser); every file is read to
at most :attr:`SitemapLimits.max_bytes` decompressed bytes, and at most
:attr:`SitemapLimits.max_urls` URLs in all and :attr:`SitemapLimits.max_urls_per_file` in one
file (50,000, the protocol's limit; parsed as a stream, so a file over it is refused at its
first URL too many) are kept. ``http://`` is refused except for
``127.0.0.1``/``localhost``/``::1`` (tests serve one), and so is every redirect hop that is
not ``https`` — each hop is checked before it is requested, not only the last. A URL whose
host resolves to a loopback, private, link-local, unspecified (or otherwise non-global)
address is refused — a child of an index, a redirect hop — unless the configured source
itself is on such an address: an operator who configures ``https://staging.internal/…``
means their own network, while a public site's index must not lead the provider into it
(SSRF). The address is checked when the URL is requested; a host whose DNS answer changes
between the check and the connection is not caught. Any failure raises
:class:`SitemapError` with a message naming the file and what to do: a sitemap is read
whole or not at all, so a half-read one never withdraws half a site.

This module is pure (no index, no Whoosh); :mod:`provider.wiki.site_gate` applies it to
documents and keeps the last good one.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import ipaddress
import json
import os
import re
import socket
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, unquote, urljoin, urlsplit
from xml.etree.ElementTree import Element, ParseError

import defusedxml
import defusedxml.ElementTree as SafeET

if TYPE_CHECKING:
    import httpx

__all__ = [
    "STATE_FORMAT",
    "Sitemap",
    "SitemapError",
    "SitemapLimits",
    "SitemapRefused",
    "is_url_source",
    "load_sitemap",
    "page_form",
    "site_key",
]

#: Version of the JSON a :class:`Sitemap` is kept in (:meth:`Sitemap.to_json`).
STATE_FORMAT = 1
_GZIP_MAGIC = b"\x1f\x8b"
_LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
#: Characters kept as they are in a normalised path segment; every other byte is
#: percent-encoded in upper case (RFC 3986 unreserved characters, sub-delimiters, ``:``, ``@``).
_SEGMENT_SAFE = "-._~!$&'()*+,;=:@"
_PAGE_SUFFIX = re.compile(r"(?:/index)?\.html?$", re.IGNORECASE)
_FOLDER_INDEX = re.compile(r"(?:^|/)index\.html?$", re.IGNORECASE)
#: :func:`page_form` values.
FILE_FORM, FOLDER_FORM = "file", "folder"


class SitemapError(ValueError):
    """A sitemap could not be read or used; the message names the file and the fix."""


class SitemapRefused(SitemapError):
    """A sitemap was refused as unsafe: entity declarations (an XML bomb), external
    entities, or more bytes, files or URLs than :class:`SitemapLimits` allow."""


@dataclass(frozen=True)
class SitemapLimits:
    """Bounds on what one :func:`load_sitemap` reads.

    Attributes:
        max_bytes: bytes of one sitemap file after decompression (the protocol's own
            limit is 50 MB).
        max_files: sitemap files read in all (index files and their children).
        max_depth: levels of index files followed below a source.
        max_urls: URLs kept in all.
        max_urls_per_file: ``<url>`` entries in one sitemap file (the protocol's limit
            is 50,000).
        timeout_s: seconds allowed for each HTTP request (connect, read).
    """

    max_bytes: int = 50 * 1024 * 1024
    max_files: int = 1000
    max_depth: int = 3
    max_urls: int = 2_000_000
    max_urls_per_file: int = 50_000
    timeout_s: float = 30.0


def is_url_source(source: str) -> bool:
    """Whether a configured sitemap source is a URL (``https://…``, or ``http://`` for a
    local test server) rather than a file path."""
    return source.lower().startswith(("https://", "http://"))


def site_key(url: str) -> str:
    """The form two URLs of one page share, for comparing a citation URL with a sitemap.

    Decisions (each tested in ``tests/wiki/test_sitemap.py``):

    * the scheme is dropped (``http://`` and ``https://`` are one page: a site whose
      sitemap still says ``http`` publishes the page all the same); the host is lower
      case, a default port (80, 443) dropped;
    * each path segment is percent-decoded and encoded again one way (upper-case
      escapes, only reserved characters escaped): ``%7e``, ``%7E`` and ``~`` agree, and so
      do ``é`` and ``%C3%A9``; an encoded ``/`` (``%2F``) stays apart from a real one;
    * the page forms the tools produce for one page agree: ``/a/``, ``/a``,
      ``/a/index.html``, ``/a.html`` and ``/a.htm`` (directory URLs, "ugly" URLs, Jekyll's
      ``.html``); the root is ``/``;
    * the fragment is dropped; the query is kept (a sitemap rarely has one);
    * dot segments are removed (``/a/../b/`` is ``/b/``; one that climbs above the root
      gives no page), and percent-escapes of unreserved characters are one with the
      character (``/%73taff/`` is ``/staff/``): the same page, as a server resolves it;
    * a URL with a user name or password (``https://x@host/…``) is no page's address:
      it gives a key no page has (refused, never counted as the page without it).

    Raises nothing: a string that is not a URL gives a key no sitemap URL has.
    """
    text = url.strip()
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        return "invalid:" + text
    if "@" in parts.netloc:
        # A user name or password in the URL (https://x@host/…): never a page's address,
        # and whatever serves it is not taken for the site's own page (fail closed).
        return "invalid:" + text
    host = (parts.hostname or "").lower()
    if port is not None and port not in (80, 443):
        host = f"{host}:{port}"
    # Segment by segment, so an encoded "/" (%2F) stays inside its segment.
    decoded = [unquote(segment, errors="surrogateescape") for segment in parts.path.split("/")]
    segments = remove_dot_segments(decoded)
    if segments is None:
        return "invalid:" + text  # climbs above the root: no page of the site (fail closed)
    path = "/".join(quote(segment, safe=_SEGMENT_SAFE, errors="surrogateescape") for segment in segments)
    path = _PAGE_SUFFIX.sub("", path).rstrip("/") or "/"
    if not path.startswith("/"):
        path = "/" + path
    return f"//{host}{path}" + (f"?{parts.query}" if parts.query else "")


def remove_dot_segments(segments: list[str]) -> list[str] | None:
    """RFC 3986 section 5.2.4 over a path's *percent-decoded* segments (``%2E`` is ``.``,
    an unreserved character, section 2.3, as browsers read it): ``.`` segments dropped,
    ``..`` removing the segment before it; a trailing dot segment leaves the path ending
    in ``/``. ``None`` when a ``..`` climbs above the root, which the RFC clamps but
    servers answer differently (ambiguous, so no page is proved).

    >>> remove_dot_segments(["", "a", "..", "b", ""])
    ['', 'b', '']
    """
    out: list[str] = []
    last = len(segments) - 1
    for index, segment in enumerate(segments):
        if segment in (".", ".."):
            if segment == "..":
                if len(out) <= 1 and (not out or out[0] == ""):
                    return None
                out.pop()
            if index == last:
                out.append("")
            continue
        out.append(segment)
    return out


def page_form(url: str) -> str:
    """Which file of the site a URL names, as far as :func:`site_key` forgets it:
    ``"file.html"`` for ``/a.html`` (the suffix as written: ``/a.htm`` is ``"file.htm"``,
    another file), ``"folder"`` for ``/a/``, ``/a/index.html`` and the bare ``/a`` (the
    folder ``a/``'s index page).

    ``site_key`` gives ``/a.html`` and ``/a/`` one key, but where a layout writes both
    (Jekyll, MkDocs with ``use_directory_urls: false``, DocFX, Hugo's ``uglyURLs``),
    ``a.md`` → ``a.html`` and ``a/index.md`` → ``a/index.html`` are two files: a page is
    on the site only if the sitemap has its key *in its form*. A bare ``/a`` counts as the
    folder: a server answers it from ``a/`` (a redirect) or, on some hosts, from
    ``a.html``, so it proves no file (fail closed; a layout writing bare URLs cites them
    bare, and bare matches bare). Raises nothing."""
    try:
        path = urlsplit(url.strip()).path
    except ValueError:
        return FOLDER_FORM
    if _PAGE_SUFFIX.search(path) and not _FOLDER_INDEX.search(path):
        return FILE_FORM + path[path.rindex("."):]  # a.html, a.htm and a.HTML are three files
    return FOLDER_FORM


@dataclass(frozen=True)
class Sitemap:
    """The URLs a site publishes.

    Attributes:
        sources: the configured sources read (paths or URLs).
        urls: :func:`site_key` → the URL as the sitemap wrote it (the first seen).
        lastmod: :func:`site_key` → the ``lastmod`` text of its ``<url>``, where given.
        forms: :func:`site_key` → the :func:`page_form` of every URL with that key (when
            not given, that of the URL in ``urls``).
        files: every sitemap file or URL read (indexes and children).
        read_at: Unix time it was read.
    """

    sources: tuple[str, ...]
    urls: Mapping[str, str]
    lastmod: Mapping[str, str] = field(default_factory=dict)
    files: tuple[str, ...] = ()
    read_at: float = 0.0
    forms: Mapping[str, frozenset[str]] = field(default_factory=dict)

    def __contains__(self, url: object) -> bool:
        return isinstance(url, str) and self.publishes(url)

    def forms_of(self, key: str) -> frozenset[str]:
        """The :func:`page_form` values the sitemap has for ``key`` (empty: not listed)."""
        if key not in self.urls:
            return frozenset()
        return self.forms.get(key) or frozenset({page_form(self.urls[key])})

    def publishes(self, url: str, key: str | None = None) -> bool:
        """Whether the sitemap lists ``url``: its :func:`site_key` in its :func:`page_form`.
        ``key``: ``site_key(url)`` when the caller has it."""
        return page_form(url) in self.forms_of(key or site_key(url))

    def __len__(self) -> int:
        return len(self.urls)

    def digest(self) -> str:
        """Changes exactly when the set of published URLs (keys and their
        :func:`page_form`) does (not with ``lastmod``).
        Computed once (every batch's corpus rules ask for it)."""
        cached: str | None = self.__dict__.get("_digest")
        if cached is None:
            hasher = hashlib.sha256()
            for key in sorted(self.urls):
                forms = ",".join(sorted(self.forms_of(key)))
                hasher.update(key.encode("utf-8", "surrogateescape") + b" " + forms.encode() + b"\n")
            cached = hasher.hexdigest()[:16]
            object.__setattr__(self, "_digest", cached)  # frozen: a cache, not state
        return cached

    def near(self, url: str, key: str | None = None) -> str | None:
        """A sitemap URL that looks like the page ``url`` meant, or ``None``: the same
        path in another letter case, with one path segment more or less at the start (a
        locale prefix, ``docs/``), or on another host. It shows a wrong URL pattern.
        ``key``: ``site_key(url)`` when the caller has it."""
        key = key or site_key(url)
        if key in self.urls:
            return self.urls[key]
        host, path = _split_key(key)
        indexes = self._indexes()
        found = indexes["lower"].get(key.lower())
        if found is not None:
            return found
        found = indexes["prefixed"].get(key)  # the site has a first segment we do not produce
        if found is not None:
            return found
        segments = path.strip("/").split("/", 1)
        if len(segments) == 2:  # we produce a first segment the site does not have
            found = self.urls.get(f"//{host}/{segments[1]}")
            if found is not None:
                return found
        return indexes["path"].get(path)

    def _indexes(self) -> dict[str, dict[str, str]]:
        cached: dict[str, dict[str, str]] | None = self.__dict__.get("_near_indexes")
        if cached is None:
            lower: dict[str, str] = {}
            prefixed: dict[str, str] = {}
            by_path: dict[str, str] = {}
            for key, url in sorted(self.urls.items()):
                lower.setdefault(key.lower(), url)
                host, path = _split_key(key)
                segments = path.strip("/").split("/", 1)
                if len(segments) == 2:
                    prefixed.setdefault(f"//{host}/{segments[1]}", url)
                by_path.setdefault(path, url)
            cached = {"lower": lower, "prefixed": prefixed, "path": by_path}
            object.__setattr__(self, "_near_indexes", cached)  # frozen: a cache, not state
        return cached

    def to_json(self) -> dict[str, Any]:
        """What :meth:`from_json` reads back (kept under the index's state folder)."""
        return {"format": STATE_FORMAT, "sources": list(self.sources), "readAt": self.read_at,
                "files": list(self.files),
                "urls": {key: [url, self.lastmod.get(key), sorted(self.forms_of(key))]
                         for key, url in sorted(self.urls.items())}}

    @classmethod
    def from_json(cls, data: Any) -> Sitemap:
        """The inverse of :meth:`to_json`.

        Raises:
            SitemapError: not a kept sitemap of this format.
        """
        try:
            if data["format"] != STATE_FORMAT:
                raise SitemapError(f"kept sitemap has format {data['format']!r}, not {STATE_FORMAT}")
            urls = {str(k): str(v[0]) for k, v in data["urls"].items()}
            lastmod = {str(k): str(v[1]) for k, v in data["urls"].items() if v[1] is not None}
            # Kept before forms were: the kept URL's own form (the others come at the next read).
            forms = {str(k): frozenset(map(str, v[2])) for k, v in data["urls"].items() if len(v) > 2}
            return cls(tuple(map(str, data["sources"])), urls, lastmod, tuple(map(str, data["files"])),
                       float(data["readAt"]), forms)
        except (KeyError, TypeError, IndexError, AttributeError, ValueError) as exc:
            raise SitemapError(f"kept sitemap is not readable ({exc!r})") from None

    def save(self, path: Path) -> None:
        """Write :meth:`to_json` to ``path`` atomically (a crash leaves the old file)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(self.to_json(), ensure_ascii=False), "utf-8", errors="surrogateescape")
        os.replace(tmp, path)


def _split_key(key: str) -> tuple[str, str]:
    rest = key[2:] if key.startswith("//") else key
    host, slash, path = rest.partition("/")
    return host, "/" + path if slash else "/"


def _local(name: str) -> str:
    return name.rpartition("}")[2]


#: The sitemap protocol's namespace (sitemaps.org: "the namespace … is required"): an
#: ``<urlset>`` outside it is some other XML, not a list of published pages.
SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"


def _ours(tag: str, name: str) -> bool:
    """Whether ``tag`` (ElementTree's ``{namespace}local``) is the protocol's ``name``."""
    return tag == f"{{{SITEMAP_NS}}}{name}"


class _Reader:
    """One :func:`load_sitemap`: the files read so far and the URLs found."""

    def __init__(self, limits: SitemapLimits, client: httpx.Client | None,
                 resolve: Callable[[str], list[str]] | None = None) -> None:
        self.limits = limits
        self.client = client
        self.resolve = resolve or _resolve
        #: Whether the configured source being read is itself on an inner address (a
        #: local test server, a staging host): then its children and redirects may be too.
        self.inner_network = False
        self.urls: dict[str, str] = {}
        self.lastmod: dict[str, str] = {}
        self.forms: dict[str, frozenset[str]] = {}
        self.files: list[str] = []

    def read_source(self, source: str, depth: int, above: tuple[str, ...] = ()) -> None:
        """Read ``source``; ``above``: the index files that led here, outermost first
        (their :func:`_identity`), so an index that lists itself or an ancestor is
        reported as the loop it is, not as too deep."""
        ident = _identity(source)
        if ident in above:
            if above[-1] == ident:
                raise SitemapRefused(f"{source}: the sitemap index lists itself; refused (remove its own <loc>)")
            chain = " → ".join([*above[above.index(ident):], ident])
            raise SitemapRefused(f"{source}: sitemap index files form a cycle ({chain}); refused (an index must "
                               "list only child sitemaps)")
        if len(self.files) >= self.limits.max_files:
            raise SitemapRefused(f"more than {self.limits.max_files} sitemap files; refused at {source}")
        self.files.append(source)
        data = self._fetch(source) if is_url_source(source) else self._read_file(Path(source))
        for loc in self._read_xml(data, source, depth):
            self.read_source(self._child(source, loc), depth + 1, (*above, ident))

    def _read_xml(self, data: bytes, source: str, depth: int) -> list[str]:
        """Parse one sitemap as a stream, keeping its URLs; returns the child sitemaps an
        index names. Streamed so a file over :attr:`SitemapLimits.max_urls_per_file` is
        refused at its first URL too many, not after parsing all of it."""
        children: list[str] = []
        kind = ""
        level = 0
        count = 0
        root: Element | None = None
        try:
            for event, element in SafeET.iterparse(io.BytesIO(data), events=("start", "end"), forbid_dtd=False,
                                                   forbid_entities=True, forbid_external=True):
                if event == "start":
                    level += 1
                    if root is None:
                        root, kind = element, _local(element.tag)
                        if kind not in ("urlset", "sitemapindex"):
                            raise SitemapError(f"{source}: not a sitemap (its root element is <{kind}>, not "
                                               "<urlset> or <sitemapindex>)")
                        if not _ours(element.tag, kind):
                            space = element.tag[1:].partition("}")[0] if element.tag.startswith("{") else ""
                            raise SitemapError(f"{source}: not a sitemap (its <{kind}> is in the namespace "
                                               f"{space or '(none)'!r}, not the sitemap protocol's {SITEMAP_NS!r}; "
                                               "give the file the tool wrote, with xmlns set as the protocol "
                                               "requires)")
                        if kind == "sitemapindex" and depth >= self.limits.max_depth:
                            raise SitemapRefused(f"{source}: sitemap index files nested deeper than "
                                                 f"{self.limits.max_depth} levels; refused")
                    continue
                level -= 1
                if level != 1 or root is None:
                    continue
                if kind == "urlset" and _ours(element.tag, "url"):
                    count += 1
                    if count > self.limits.max_urls_per_file:
                        raise SitemapRefused(f"{source}: more than {self.limits.max_urls_per_file} URLs in one "
                                             "file (the sitemap protocol's limit is 50,000; split it with a "
                                             "sitemap index, or raise sitemap_max_urls); refused")
                    self._url(element, source)
                elif kind == "sitemapindex" and _ours(element.tag, "sitemap"):
                    loc = _text(element, "loc")
                    if loc:
                        children.append(loc)
                root.clear()  # the entries read so far: memory stays one entry deep
        except defusedxml.EntitiesForbidden:
            raise SitemapRefused(f"sitemap {source} declares XML entities; refused (entity expansion is how an "
                                 "XML bomb works, and no sitemap needs one)") from None
        except defusedxml.ExternalReferenceForbidden:
            raise SitemapRefused(f"sitemap {source} refers to an external entity or DTD; refused") from None
        except defusedxml.DTDForbidden:  # not asked for; kept so a change of defaults stays closed
            raise SitemapRefused(f"sitemap {source} has a DTD; refused") from None
        except ParseError as exc:
            raise SitemapError(f"sitemap {source} is not well-formed XML: {exc}") from None
        return children

    def _url(self, entry: Element, source: str) -> None:
        loc = _text(entry, "loc")
        if not loc:
            return
        # Only a <loc> proves publication: an <xhtml:link rel="alternate"> (hreflang,
        # x-default) is a link from this page to another, which the sitemap protocol
        # says gets its own <url> when the site publishes it (Hugo, Docusaurus and
        # mkdocs-static-i18n all write one); an alternate alone proves nothing.
        key = site_key(loc)
        self.urls.setdefault(key, loc)
        self.forms[key] = self.forms.get(key, frozenset()) | {page_form(loc)}
        modified = _text(entry, "lastmod")
        if modified:
            self.lastmod[key] = modified
        if len(self.urls) > self.limits.max_urls:
            raise SitemapRefused(f"{source}: more than {self.limits.max_urls} URLs in all; refused")

    def _child(self, parent: str, loc: str) -> str:
        """Where a child sitemap named by an index is read: its URL, or for an index read
        from a file, the file at the URL's path below the index's folder."""
        if is_url_source(parent):
            return urljoin(parent, loc)
        folder = Path(parent).parent
        path = unquote(urlsplit(loc).path if is_url_source(loc) else loc).lstrip("/")
        segments = [s for s in path.split("/") if s not in ("", ".")]
        if ".." in segments:
            raise SitemapError(f"{parent}: child sitemap {loc!r} leaves the folder; refused")
        for start in range(len(segments)):
            candidate = folder.joinpath(*segments[start:])
            if candidate.is_file():
                return str(candidate)
        raise SitemapError(f"{parent}: child sitemap {loc!r} is not in {folder} (looked for "
                           f"{'/'.join(segments) or loc!r} and its shorter suffixes); give its file, or the "
                           "index's https URL")

    def _read_file(self, path: Path) -> bytes:
        try:
            with path.open("rb") as handle:
                data = handle.read(self.limits.max_bytes + 1)
        except FileNotFoundError:
            raise SitemapError(f"sitemap {path} does not exist (build the site, or fix `sitemap:`)") from None
        except OSError as exc:
            raise SitemapError(f"sitemap {path} cannot be read: {exc.strerror}") from None
        return self._bounded(data, str(path))

    def _fetch(self, url: str) -> bytes:
        """The body of ``url``, following at most :data:`_MAX_REDIRECTS` redirects one by
        one: every hop (the URL itself and each ``Location``) must pass :meth:`_allowed`
        before it is requested, not only the last one (https → http → https is refused)."""
        import httpx  # here: the configuration imports this module, and most commands fetch nothing

        client = self.client or httpx.Client(timeout=self.limits.timeout_s)
        hop = url
        try:
            for _ in range(_MAX_REDIRECTS + 1):
                self._allowed(hop, url)
                with client.stream("GET", hop, headers={"Accept-Encoding": "identity"},
                                   follow_redirects=False) as response:
                    if response.is_redirect:
                        location = response.headers.get("location", "")
                        if not location:
                            raise SitemapError(f"sitemap {url}: {hop} redirects nowhere (no Location)")
                        hop = urljoin(hop, location)
                        continue
                    if response.status_code != 200:
                        raise SitemapError(f"sitemap {url} answered HTTP {response.status_code}"
                                           + (f" (at {hop})" if hop != url else ""))
                    chunks: list[bytes] = []
                    size = 0
                    for chunk in response.iter_raw():
                        chunks.append(chunk)
                        size += len(chunk)
                        if size > self.limits.max_bytes:
                            break
                    return self._bounded(b"".join(chunks), url)
            raise SitemapError(f"sitemap {url}: more than {_MAX_REDIRECTS} redirects; refused")
        except httpx.HTTPError as exc:
            raise SitemapError(f"sitemap {url} cannot be fetched: {exc.__class__.__name__}: {exc}") from None
        finally:
            if self.client is None:
                client.close()

    def _allowed(self, hop: str, url: str) -> None:
        """Refuse a URL to request (a source, a child of an index, a redirect hop) that is
        not ``https`` (``http`` only on ``127.0.0.1``/``localhost``/``::1``), or whose
        host resolves to a loopback, private, link-local, unspecified or otherwise
        non-global address while the configured source it came from does not (SSRF: a
        public sitemap index must not make the provider fetch from its own network).

        Raises:
            SitemapRefused: either rule refuses ``hop``.
        """
        parts = urlsplit(hop)
        host = parts.hostname or ""
        where = f"sitemap {url}" + (f": {hop}" if hop != url else "")
        if parts.scheme.lower() != "https" and not (parts.scheme.lower() == "http" and host in _LOCAL_HOSTS):
            raise SitemapRefused(f"{where} is not https; refused (only https URLs are read, every redirect "
                                 "and child too; http only from 127.0.0.1 or localhost)")
        if self.inner_network:
            return
        if self._inner(host):
            raise SitemapRefused(f"{where} is on a loopback, private or link-local address ({host}) while the "
                                 "configured sitemap is not; refused (a public sitemap may not lead the provider "
                                 "into its own network)")

    def _inner(self, host: str) -> bool:
        """Whether ``host`` is, or resolves to any, non-global address (fail closed: one
        that cannot be resolved counts as inner)."""
        try:
            addresses = [host] if _is_ip(host) else self.resolve(host)
        except OSError:
            return True
        return not addresses or any(_inner_address(a) for a in addresses)

    def _bounded(self, data: bytes, where: str) -> bytes:
        limit = self.limits.max_bytes
        if len(data) > limit:
            raise SitemapRefused(f"sitemap {where} is larger than {limit} bytes; refused")
        if not data.startswith(_GZIP_MAGIC):
            return data
        try:
            with gzip.GzipFile(fileobj=io.BytesIO(data)) as unpacked:
                data = unpacked.read(limit + 1)
        except (OSError, EOFError) as exc:
            raise SitemapError(f"sitemap {where} is not valid gzip: {exc}") from None
        if len(data) > limit:
            raise SitemapRefused(f"sitemap {where} is larger than {limit} bytes once decompressed; refused")
        return data



_MAX_REDIRECTS = 10


def _resolve(host: str) -> list[str]:
    """The addresses ``host`` resolves to (raises ``OSError`` when it does not)."""
    return sorted({str(info[4][0]) for info in socket.getaddrinfo(host, None)})


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def _inner_address(address: str) -> bool:
    """Loopback, private, link-local, unspecified, reserved, shared or multicast: any
    address that is not global (an IPv4-mapped IPv6 address as its IPv4 one)."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return True
    mapped = getattr(ip, "ipv4_mapped", None)
    if mapped is not None:
        ip = mapped
    return not ip.is_global or ip.is_multicast


def _identity(source: str) -> str:
    """One spelling per sitemap: a URL without its fragment (scheme and host in lower
    case), a file by its resolved path (``./a/../sitemap.xml`` is ``sitemap.xml``)."""
    if is_url_source(source):
        parts = urlsplit(source.strip())
        return parts._replace(scheme=parts.scheme.lower(), netloc=parts.netloc.lower(), fragment="").geturl()
    try:
        return str(Path(source).resolve())
    except (OSError, RuntimeError):
        return source


def _text(element: Element, name: str) -> str:
    """The text of ``element``'s first child ``name`` in the protocol's namespace (a
    ``<loc>`` of another namespace is another vocabulary's, not a sitemap entry)."""
    for child in element:
        if _ours(child.tag, name):
            return (child.text or "").strip()
    return ""


def load_sitemap(sources: str | Iterable[str], *, limits: SitemapLimits | None = None,
                 client: httpx.Client | None = None, clock: Any = time.time,
                 resolve: Callable[[str], list[str]] | None = None) -> Sitemap:
    """Read every URL the sitemap ``sources`` publish (module docstring).

    Args:
        sources: file paths (absolute, or relative to the working directory) and
            ``https`` URLs; several add up (per-language sitemaps).
        limits: bounds (:class:`SitemapLimits`).
        client: an ``httpx.Client`` to fetch with (tests, proxies); default: a new one.
        clock: returns Unix time (for :attr:`Sitemap.read_at`).
        resolve: host name → its IP addresses (default: the system resolver), for the
            rule on inner addresses (module docstring).

    Raises:
        SitemapError: a file is missing, unreadable, not a sitemap, or not XML; a child
            of an index cannot be found. :class:`SitemapRefused` (a subclass): refused as
            unsafe (module docstring).
    """
    listed = (sources,) if isinstance(sources, str) else tuple(sources)
    if not listed:
        raise SitemapError("no sitemap source given")
    reader = _Reader(limits or SitemapLimits(), client, resolve)
    for source in listed:
        reader.inner_network = is_url_source(source) and reader._inner(urlsplit(source).hostname or "")
        reader.read_source(source, 0)
    return Sitemap(listed, reader.urls, reader.lastmod, tuple(reader.files), float(clock()), reader.forms)
