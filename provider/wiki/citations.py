"""Citation URLs (the ``citationUrl`` capability, CONTRACT R7).

A document's URL comes from, in order:

* a **public** document: its front matter ``url`` — an absolute ``https`` URL as it is, or
  a site path (``/guide/x/``) joined to ``citation_base_url`` (not with the Jekyll layout:
  Jekyll ignores a front matter ``url``); else ``citation_base_url``
  followed by ``citation_path_pattern`` filled in for the document;
* an **internal** document: ``internal_citation_base_url`` followed by the pattern, and only
  in the ``all`` index (agent_only). Never its front matter ``url``, never the public base:
  a link to the public site would be a broken or, worse, a guessable link.

Pattern placeholders (each value percent-encoded, ``/`` kept in paths):

==================  ===========================================================================
``{path}``          the page's path on its site by the layout's URL rules (:func:`url_inputs`):
                    the file's path without extension and locale marker, a bundle's ``index``
                    standing for its folder (``de/account/reset.md`` → ``account/reset``);
                    Hugo: without ``content/``, lower case; Docusaurus: ``docs/`` replaced by
                    ``route_base_path``, ``01-`` prefixes dropped, a front matter ``id`` as the
                    last segment, a file named like its folder the folder, blog posts
                    ``blog/2024/01/31/slug``; Starlight: without
                    ``src/content/docs/``, lower case; MkDocs: the path inside the
                    project's ``docs_dir`` (``mkdocs.yml``, :mod:`~provider.wiki.mkdocs_site`;
                    ``docs/`` without one), ``page.html`` when ``use_directory_urls`` is
                    ``false``; Jekyll: by its permalinks
                    (:mod:`~provider.wiki.jekyll_urls`), by default ``.html`` pages, posts
                    ``2024/01/31/slug.html``, an ``index`` its folder
``{locale}``        the document's locale: ``de``, ``pt-BR``
``{locale_key}``    the locale as the site writes it: the path's own folder or suffix
                    (``zh-cn`` for ``zh-CN``), else the tag
``{locale_prefix}`` ``""`` for the default locale, else ``{locale_key}`` and ``/`` (``zh-cn/``):
                    sites that serve the default language without a prefix (Hugo,
                    Docusaurus); Starlight: ``{locale_key}/`` whenever the path has a locale
                    folder (only a ``root`` locale has no prefix)
``{id}``            the ``documentId``
``{slug}``          the last segment of ``{path}``
==================  ===========================================================================

Each layout has a default pattern matching its tool's default URLs
(:attr:`~provider.wiki.layouts.Layout.url_pattern`), used when
``citation_path_pattern`` is not set: Hugo ``/{locale_prefix}{path}/``, Docusaurus
``/{locale_prefix}{path}``, Starlight ``/{locale_prefix}{path}/``, MkDocs
``/{locale_prefix}{path}/`` (``/{locale_prefix}{path}`` without directory URLs), Jekyll, DocFX
and plain ``/{path}``.

A chunk's URL carries its heading's anchor (:mod:`provider.wiki.anchors`) unless the URL
already has a fragment. Every URL is checked against R7 — ``https``, absolute, a host, no
user information, no whitespace or control characters — and one that fails is dropped
with a warning (shown by ``index``, ``serve`` and ``check``); the document is then served
without ``url``.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from urllib.parse import quote, urlsplit

from .dates import DATED_NAME
from .docfx_urls import docfx_site
from .docusaurus_urls import docusaurus_doc_path
from .generated_pages import hugo_permalink_sections
from .hugo_site import hugo_leaf_bundle
from .locale_patterns import match_locale
from .locales import strip_extension
from .mkdocs_site import project_for
from .model import CitationSettings, DocumentMeta, WikiSettings
from .sites.javascript import (
    docusaurus_current_docs,
    docusaurus_route_base_path,
    docusaurus_trailing_slash,
    docusaurus_version_path,
)

__all__ = [
    "DEFAULT_PATH_PATTERN",
    "PLACEHOLDERS",
    "CitationSettings",
    "UrlInputs",
    "builds_url",
    "check_base_url",
    "check_path_pattern",
    "document_url",
    "is_citable",
    "url_inputs",
    "with_anchor",
]

DEFAULT_PATH_PATTERN = "/{path}"
PLACEHOLDERS = ("path", "locale", "locale_key", "locale_prefix", "id", "slug")
MAX_URL_CHARS = 2000
_CONTROL_OR_SPACE = re.compile(r"[\s\x00-\x1f\x7f]")


#: A released Docusaurus version's docs folder: ``versioned_docs/version-<name>/``.
_VERSIONED = re.compile(r"versioned_docs/version-([^/]+)/")


def is_citable(url: str) -> bool:
    """Whether ``url`` may be sent as ``url`` (R7): ``https``, absolute with a host, no
    user information, no whitespace or control characters, at most 2,000 characters."""
    if not isinstance(url, str) or len(url) > MAX_URL_CHARS or _CONTROL_OR_SPACE.search(url):
        return False
    try:
        parts = urlsplit(url)
        _ = parts.port  # raises on a malformed port
    except ValueError:
        return False
    # An "@" anywhere before the path is refused, not only in what urlsplit calls the
    # netloc: ``https://host?@evil`` is read differently by naive URL parsers.
    before_path = url.split("/", 3)[2] if url.count("/") >= 2 else url
    return parts.scheme == "https" and bool(parts.hostname) and "@" not in parts.netloc and "@" not in before_path


def check_base_url(value: str) -> str:
    """Validate a configured base URL and return it without a trailing ``/``.

    Raises:
        ValueError: not an absolute ``https`` URL with a host, or it has user information,
            a query or a fragment.
    """
    text = value.strip()
    if not is_citable(text):
        raise ValueError(f"{value!r} must be an absolute https URL with a host and no user information, "
                         "e.g. https://help.example.com")
    parts = urlsplit(text)
    if parts.query or parts.fragment:
        raise ValueError(f"{value!r} must not have a query or fragment")
    return text.rstrip("/")


def check_path_pattern(value: str) -> str:
    """Validate a path pattern.

    Raises:
        ValueError: it does not start with ``/``, names an unknown placeholder or has an
            unbalanced brace.
    """
    if not value.startswith("/"):
        raise ValueError(f"{value!r} must start with / (e.g. /{{locale}}/{{path}}/)")
    try:
        fields = [name for _, name, spec, conversion in string.Formatter().parse(value) if name is not None]
    except ValueError as exc:
        raise ValueError(f"{value!r}: {exc}") from None
    for name in fields:
        if name not in PLACEHOLDERS:
            raise ValueError(f"{value!r} has an unknown placeholder {{{name}}}; use "
                             + ", ".join(f"{{{p}}}" for p in PLACEHOLDERS))
    return value


@dataclass(frozen=True)
class UrlInputs:
    """What a document contributes to its URL.

    Attributes:
        front_matter_url: the validated front matter ``url`` (https URL or site path), or ``None``.
        site_path: ``{path}``.
        locale: ``{locale}``.
        default_locale: the operator's default locale (for ``{locale_prefix}``).
        doc_id: ``{id}``.
        locale_key: the locale as the path writes it (``zh-cn``), or ``""``.
        prefix_default: the default locale has a prefix too when its path names it
            (Starlight).
        default_pattern: the layout's pattern, used when none is configured.
        problem: why the layout cannot tell the page's path on the site (a DocFX docset
            without a base path), or ``None``; then no URL is built from the pattern.
    """

    front_matter_url: str | None
    site_path: str
    locale: str
    default_locale: str
    doc_id: str
    locale_key: str = ""
    prefix_default: bool = False
    default_pattern: str = DEFAULT_PATH_PATTERN
    problem: str | None = None


def _expand(base: str, pattern: str | None, inputs: UrlInputs) -> str:
    pattern = pattern or inputs.default_pattern
    path = inputs.site_path.strip("/")
    key = quote(inputs.locale_key or inputs.locale, safe="")
    default = inputs.locale == inputs.default_locale and not (inputs.prefix_default and inputs.locale_key)
    values = {
        "path": quote(path, safe="/") + ("/" if inputs.site_path.endswith("/") and path else ""),
        "locale": quote(inputs.locale, safe=""),
        "locale_key": key,
        "locale_prefix": "" if default else key + "/",
        "id": quote(inputs.doc_id, safe="/"),
        "slug": quote(path.rsplit("/", 1)[-1], safe=""),
    }
    return base + re.sub(r"/{2,}", "/", pattern.format(**values))


def builds_url(front_matter_url: str | None, *, public: bool, settings: CitationSettings, agent_view: bool) -> bool:
    """Whether :func:`document_url` builds a URL (valid or not) for a document: a public
    one with an absolute front matter ``url`` or a ``base_url`` to put under it; an
    internal one only in the agent view and with an ``internal_base_url``. Where this
    is ``False`` there is no URL and so no warning, and nothing needs to be built.

    Args:
        front_matter_url: the document's validated front matter ``url``, or ``None``.
        public, settings, agent_view: as :func:`document_url`.
    """
    if public:
        own = front_matter_url
        return (own is not None and not own.startswith("/")) or settings.base_url is not None
    return agent_view and settings.internal_base_url is not None


def document_url(
    inputs: UrlInputs, *, public: bool, settings: CitationSettings, agent_view: bool
) -> tuple[str | None, str | None]:
    """The citation URL of a document, and a warning when one was built but fails R7.

    Args:
        inputs: the document's URL material.
        public: whether the document's effective audience is ``public``.
        settings: the operator's settings.
        agent_view: building the ``all`` (agent_only) index; internal documents get a URL
            only there.
    """
    if not builds_url(inputs.front_matter_url, public=public, settings=settings, agent_view=agent_view):
        return None, None
    own = inputs.front_matter_url
    url: str | None
    if inputs.problem is not None and not (public and own is not None):
        return None, None  # the path on the site is unknown: no guess (check lists why, once per cause)
    if public and own is not None and not own.startswith("/"):
        url = own
    elif public:
        base = settings.base_url or ""  # set: builds_url says so
        url = base + own if own is not None else _expand(base, settings.path_pattern, inputs)
    else:
        url = _expand(settings.internal_base_url or "", settings.path_pattern, inputs)
    if url is None or not is_citable(url):
        return None, f"citation URL {str(url)[:120]!r} is not an absolute https URL without user information; dropped"
    return url, None


def with_anchor(url: str | None, anchor: str) -> str | None:
    """``url`` with ``#anchor`` (percent-encoded) added, unless it has a fragment already
    or there is no anchor."""
    if url is None or not anchor or "#" in url:
        return url
    anchored = f"{url}#{quote(anchor, safe='-_')}"
    return anchored if is_citable(anchored) else url


_NUMBER_PREFIX = re.compile(r"^\d+[-_.](?=.)")


def _docfx_path(meta: DocumentMeta, settings: WikiSettings) -> str | None:
    """``{path}`` of a DocFX page by its docset's ``docfx.json`` (:mod:`~provider.wiki.docfx_urls`),
    or ``None`` when it cannot be told."""
    site = docfx_site(settings.root, settings.citation.docfx_base_paths, settings.citation.base_url)
    if not site.docsets:
        return meta.site_path.strip("/")  # no docfx.json: the layout's plain rule
    return site.url_path(meta.relpath)[0]


def _layout_path(meta: DocumentMeta, settings: WikiSettings) -> str | None:
    """``{path}`` by the layout's URL rules (module docstring); ``None``: unknown."""
    layout = settings.preset
    path = meta.site_path.strip("/")
    rules = layout.url_rules
    if rules == "hugo":
        path = ("" if path == "content" else path.removeprefix("content/")).lower()
        if meta.slug and path:  # front matter slug: the last segment (a bundle's folder)
            path = "/".join([*path.split("/")[:-1], meta.slug.lower()])
    elif rules == "starlight":
        path = ("" if path == "src/content/docs" else path.removeprefix("src/content/docs/")).lower()
    elif rules == "mkdocs":
        path = _mkdocs_path(meta, settings)
    elif rules == "docusaurus":
        is_doc, docs, _ = _docusaurus_docs_path(meta, settings)
        if is_doc:
            return docs
        parts = path.split("/")
        if meta.sources.get("doc_id", "").startswith("front matter id") and parts:
            parts[-1] = meta.doc_id.rsplit("/", 1)[-1]
        dated = DATED_NAME.fullmatch(parts[-1]) if parts[0] == "blog" else None
        if dated is not None:  # blog/2024-01-31-hello → blog/2024/01/31/hello
            return "/".join(["blog", *dated["date"].split("-"), dated["slug"]])
        parts = [_NUMBER_PREFIX.sub("", part) for part in parts]
        if len(parts) > 1 and parts[-1].lower() == parts[-2].lower():
            parts.pop()  # guides/guides.md is the category's index page, as README.md is
        if len(parts) > 2 and parts[:2] == ["src", "pages"]:
            parts = parts[2:]
        path = "/".join(parts)
    elif rules == "docfx":
        return _docfx_path(meta, settings)
    elif rules == "jekyll":
        if meta.slug.startswith("/"):  # read by provider.wiki.jekyll_urls (permalinks)
            return meta.slug.lstrip("/")
        stem = meta.relpath.rsplit(".", 1)[0].rsplit("/", 1)[-1].lower()
        if meta.sources.get("doc_id") == "post date and name":
            path = meta.doc_id.removeprefix("posts/") + ".html"
        elif stem in layout.index_names:
            path = f"{path}/" if path else ""
        else:
            path = f"{path}.html"
    return path


def _docusaurus_docs_path(meta: DocumentMeta, settings: WikiSettings) -> tuple[bool, str | None, str | None]:
    """``(is a doc, {path}, problem)`` of a doc of Docusaurus' docs plugin (``docs/`` or its
    ``i18n/`` mirror, or a released version's ``versioned_docs/version-<name>/``) by
    :func:`~provider.wiki.docusaurus_urls.docusaurus_doc_path`, under the
    ``routeBasePath`` (the operator's, else the site configuration's) and the version's
    path (``next/`` for the current docs once versions are released, ``1.0/`` or ``""``
    for lastVersion: :func:`~provider.wiki.sites.javascript.docusaurus_version_path`); the path is
    ``None`` when unknown (a slug Docusaurus refuses, a ``routeBasePath`` that is not a
    literal) or when the current version is not built, ``problem`` then saying why
    when it is not the slug."""
    stem = strip_extension(meta.relpath)
    found = match_locale(stem, settings.patterns, settings.known_locales)
    source = (found.group if found is not None else stem) + meta.relpath[len(stem):]
    # A released version's docs (versioned_docs/version-1.0/…) are cited under that
    # version's path (/docs/1.0/…, or /docs/… for lastVersion), as the docs/ folder is
    # under the current version's (issue 24).
    versioned = _VERSIONED.match(source)
    if not source.startswith("docs/") and versioned is None:
        return False, None, None
    inner = source[versioned.end():] if versioned is not None else source.removeprefix("docs/")
    front_id = meta.doc_id.rsplit("/", 1)[-1] if meta.sources.get("doc_id", "").startswith("front matter id") else None
    slug = docusaurus_doc_path(inner, slug=meta.slug, front_id=front_id)
    base = settings.citation.route_base_path
    if base is None:
        base, problem = docusaurus_route_base_path(settings.root)
        if problem is not None:
            return True, None, problem
    base = "docs" if base is None else base.strip("/")
    # The docs/ folder is the current version: not at routeBasePath once versions are
    # released (issue 24: the released page there is another file's).
    version, problem = (docusaurus_version_path(settings.root, versioned.group(1)) if versioned is not None
                        else docusaurus_current_docs(settings.root))
    if version is None:
        return True, None, problem
    if slug is None:
        return True, None, None
    return True, "/".join(p for p in (base, version, slug) if p), None


def _mkdocs_path(meta: DocumentMeta, settings: WikiSettings) -> str:
    """``{path}`` of an MkDocs page: its path inside its project's ``docs_dir``, without
    locale marker (the i18n plugin's ``ja/`` folder or ``.ja`` suffix: ``{locale_prefix}``
    puts it back), an ``index``/``README`` standing for its folder; ``.html`` pages when
    the project turns ``use_directory_urls`` off."""
    if meta.slug.startswith("/"):  # a Material blog post (MkDocsProject.blog_url)
        return meta.slug.lstrip("/")
    project = project_for(settings.root, meta.relpath)
    inner = project.page_path(meta.relpath) if project is not None and project.error is None else None
    if project is None or inner is None:
        path = meta.site_path.strip("/")
        return "" if path == "docs" else path.removeprefix("docs/")
    stem = strip_extension(inner)
    found = match_locale(stem, settings.patterns, settings.known_locales)
    stem = found.stem if found is not None and found.where == "folder" else found.group if found else stem
    folder, _, name = stem.rpartition("/")
    is_index = name.lower() in settings.preset.index_names
    if not project.use_directory_urls:
        return f"{folder}/index.html".lstrip("/") if is_index else f"{stem}.html"
    return folder if is_index else stem


def url_inputs(meta: DocumentMeta, settings: WikiSettings) -> UrlInputs:
    """What a document contributes to its citation URL, by its layout's URL rules."""
    found = match_locale(strip_extension(meta.relpath), settings.patterns, settings.known_locales)
    pattern = settings.preset.url_pattern
    if settings.preset.url_rules == "mkdocs":
        project = project_for(settings.root, meta.relpath)
        if project is not None and project.error is None and not project.use_directory_urls:
            pattern = pattern.rstrip("/")
    if settings.preset.url_rules == "docusaurus" and docusaurus_trailing_slash(settings.root) is True:
        pattern = pattern.rstrip("/") + "/"  # trailingSlash: true — every page URL ends with /
    path = _layout_path(meta, settings)
    problem = None
    bundle = hugo_leaf_bundle(settings.root, meta.relpath) if settings.preset.url_rules == "hugo" else None
    if bundle is not None:
        # A resource of a leaf bundle: Hugo renders no page from it, so any URL it claims
        # (its path, or a front matter url) is another source's (issue 24).
        path, problem = None, f"a resource of the leaf bundle {bundle}/, not a page: Hugo builds no page from it"
    elif path is not None and settings.preset.url_rules == "hugo":
        sections = hugo_permalink_sections(settings.root)
        section = path.split("/", 1)[0]
        if "*" in sections or section in sections:
            # Hugo builds these URLs from tokens (:year, :slug, :title…) the provider does
            # not evaluate: no URL is better than a wrong one (issue 24).
            path, problem = None, (f"the site's Hugo [permalinks] sets the URLs of section {section!r}, which "
                                   "the provider does not build; set citation URLs by front matter url")
    if problem is not None:
        pass  # told above
    elif path is None and settings.preset.url_rules == "docusaurus" and (
            why := _docusaurus_docs_path(meta, settings)[2]) is not None:
        problem = why
    elif path is None and settings.preset.url_rules == "docfx":
        site = docfx_site(settings.root, settings.citation.docfx_base_paths, settings.citation.base_url)
        problem = site.url_path(meta.relpath)[1] or "the page's path on the site is unknown"
    elif path is None:
        problem = ("the page's path on the site is unknown (a slug the docs tool refuses, or a routeBasePath "
                   "that is not a literal string)")
    # Jekyll computes page.url itself and ignores a front matter ``url`` (issue 24): the
    # page is published at its path's URL, so honouring the key would cite, and look up
    # in the sitemap, a URL the page does not have (another page's, if it names one).
    own_url = None if settings.preset.url_rules == "jekyll" or bundle is not None else meta.url
    return UrlInputs(front_matter_url=own_url, site_path=path or "", locale=meta.locale,
                     default_locale=settings.default_locale, doc_id=meta.doc_id,
                     locale_key=found.key if found is not None and found.locale == meta.locale else "",
                     prefix_default=settings.preset.locale_prefix_default,
                     default_pattern=pattern, problem=problem)
