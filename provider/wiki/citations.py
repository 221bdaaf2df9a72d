"""Citation URLs (the ``citationUrl`` capability, CONTRACT R7).

A document's URL comes from, in order:

* a **public** document: its front matter ``url`` — an absolute ``https`` URL as it is, or
  a site path (``/guide/x/``) joined to ``citation_base_url``; else ``citation_base_url``
  followed by ``citation_path_pattern`` filled in for the document;
* an **internal** document: ``internal_citation_base_url`` followed by the pattern, and only
  in the ``all`` index (agent_only). Never its front matter ``url``, never the public base:
  a link to the public site would be a broken or, worse, a guessable link.

Pattern placeholders (each value percent-encoded, ``/`` kept in paths):

==================  ===========================================================================
``{path}``          the file's path without extension and locale marker, a bundle's ``index``
                    standing for its folder: ``de/account/reset.md`` → ``account/reset``
``{locale}``        the document's locale: ``de``, ``pt-BR``
``{locale_prefix}`` ``""`` for the default locale, else the locale and ``/`` (``de/``): sites
                    that serve the default language without a prefix (Hugo, Docusaurus)
``{id}``            the ``documentId``
``{slug}``          the last segment of ``{path}``
==================  ===========================================================================

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
from typing import Any
from urllib.parse import quote, urlsplit

__all__ = [
    "DEFAULT_PATH_PATTERN",
    "PLACEHOLDERS",
    "CitationSettings",
    "UrlInputs",
    "check_base_url",
    "check_path_pattern",
    "document_url",
    "is_citable",
    "with_anchor",
]

DEFAULT_PATH_PATTERN = "/{path}"
PLACEHOLDERS = ("path", "locale", "locale_prefix", "id", "slug")
MAX_URL_CHARS = 2000
_CONTROL_OR_SPACE = re.compile(r"[\s\x00-\x1f\x7f]")


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
class CitationSettings:
    """The operator's citation settings (all optional).

    Attributes:
        base_url: the public site, e.g. ``https://help.example.com`` (validated, no
            trailing ``/``).
        path_pattern: appended to a base URL, with placeholders (module docstring).
        internal_base_url: where agents read internal documents, if anywhere.
    """

    base_url: str | None = None
    path_pattern: str = DEFAULT_PATH_PATTERN
    internal_base_url: str | None = None

    def describe(self) -> dict[str, Any]:
        return {"base_url": self.base_url, "path_pattern": self.path_pattern,
                "internal_base_url": self.internal_base_url}


@dataclass(frozen=True)
class UrlInputs:
    """What a document contributes to its URL.

    Attributes:
        front_matter_url: the validated front matter ``url`` (https URL or site path), or ``None``.
        site_path: ``{path}``.
        locale: ``{locale}``.
        default_locale: the operator's default locale (for ``{locale_prefix}``).
        doc_id: ``{id}``.
    """

    front_matter_url: str | None
    site_path: str
    locale: str
    default_locale: str
    doc_id: str


def _expand(base: str, pattern: str, inputs: UrlInputs) -> str:
    path = inputs.site_path.strip("/")
    values = {
        "path": quote(path, safe="/"),
        "locale": quote(inputs.locale, safe=""),
        "locale_prefix": "" if inputs.locale == inputs.default_locale else quote(inputs.locale, safe="") + "/",
        "id": quote(inputs.doc_id, safe="/"),
        "slug": quote(path.rsplit("/", 1)[-1], safe=""),
    }
    return base + re.sub(r"/{2,}", "/", pattern.format(**values))


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
    if public:
        own = inputs.front_matter_url
        if own is not None and not own.startswith("/"):
            url: str | None = own
        elif settings.base_url is None:
            return None, None
        elif own is not None:
            url = settings.base_url + own
        else:
            url = _expand(settings.base_url, settings.path_pattern, inputs)
    elif agent_view and settings.internal_base_url is not None:
        url = _expand(settings.internal_base_url, settings.path_pattern, inputs)
    else:
        return None, None
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
