"""Jekyll page URLs, as Jekyll 4 builds them (``Jekyll::URL``, ``Drops::UrlDrop``,
``Page#template``, ``Configuration#style_to_permalink``).

* A post (a file in ``_posts``) or a collection document: its front matter
  ``permalink``, else its collection's ``permalink`` (``collections.<label>.permalink``),
  else the site's ``permalink`` style (posts) or ``/:collection/:path`` with the style's
  suffix (other collections). Styles: ``date`` (the default)
  ``/:categories/:year/:month/:day/:title:output_ext``, ``pretty`` (the same ending in
  ``/``), ``ordinal`` ``/:categories/:year/:y_day/:title:output_ext``, ``weekdate``,
  ``none`` ``/:categories/:title:output_ext``; any other value is a template.
  Placeholders: ``:year`` ``:month`` ``:day`` ``:i_month`` ``:i_day`` ``:short_year``
  ``:y_day`` ``:hour`` ``:minute`` ``:second`` (the front matter ``date``, else the
  file name's, as written: no time zone conversion), ``:title`` (the front matter
  ``slug``, else the file name's, slugified keeping case), ``:slug`` (the same, lower
  case), ``:name``, ``:categories`` (the folders above ``_posts``, then the front matter
  ``categories`` and ``category``, lower case, joined by ``/``), ``:collection``,
  ``:path`` (below the collection folder, without extension), ``:basename``,
  ``:output_ext`` (``.html``).
* A page: its front matter ``permalink`` (``:path``, ``:basename``, ``:output_ext``),
  else ``/:path/`` for an ``index`` page, else ``/:path/:basename`` with the site style's
  suffix (``/`` for ``pretty`` or a template ending in ``/``, ``.html`` for the named
  styles and a template ending in ``:output_ext``, nothing otherwise).

The URL is sanitised as Jekyll does (``..`` removed, ``./`` dropped, ``/`` runs
squeezed). An unknown placeholder is left as written (Jekyll raises on it; the page then
has no URL there, and no sitemap entry matches it either).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from typing import Any

__all__ = ["jekyll_url", "slugify"]

_STYLES = {
    "pretty": "/:categories/:year/:month/:day/:title/",
    "none": "/:categories/:title:output_ext",
    "date": "/:categories/:year/:month/:day/:title:output_ext",
    "ordinal": "/:categories/:year/:y_day/:title:output_ext",
    "weekdate": "/:categories/:year/W:week/:short_day/:title:output_ext",
}
_DATED = re.compile(r"(?P<date>\d{2,4}-\d{1,2}-\d{1,2})-(?P<slug>[^/]*)\Z")
_PLACEHOLDER = re.compile(r":([a-z_]+)")
_PRETTY = re.compile(r"[^\w.~!$&'()+,;=@]+")
_DEFAULT = re.compile(r"[^\w]+")
_TIME = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?")


def slugify(text: str, *, mode: str = "default", cased: bool = False) -> str:
    """Jekyll's ``Utils.slugify`` for modes ``default`` (runs of anything but letters
    and digits become ``-``) and ``pretty`` (also keeps ``._~!$&'()+,;=@``); leading and
    trailing ``-`` dropped; lower case unless ``cased``."""
    pattern = _PRETTY if mode == "pretty" else _DEFAULT
    slug = pattern.sub("-", text.replace("_", "-")).strip("-")
    return slug if cased else slug.lower()


def _when(value: Any) -> dt.datetime | None:
    if isinstance(value, dt.datetime):
        return value
    if isinstance(value, dt.date):
        return dt.datetime(value.year, value.month, value.day)
    if isinstance(value, str) and (m := _TIME.match(value.strip())):
        try:
            return dt.datetime(int(m[1]), int(m[2]), int(m[3]), int(m[4] or 0), int(m[5] or 0), int(m[6] or 0))
        except ValueError:
            return None
    return None


def _words(value: Any) -> list[str]:
    if isinstance(value, str):
        return value.split()
    if isinstance(value, list):
        return [str(item) for item in value if item is not None]
    return [] if value is None else [str(value)]


def _style_suffix(style: str) -> str:
    if style == "pretty" or (style not in _STYLES and style.endswith("/")):
        return "/"
    if style in _STYLES or style.endswith(":output_ext"):
        return ":output_ext"
    return ""


def _fill(template: str, values: Mapping[str, str]) -> str:
    url = _PLACEHOLDER.sub(lambda m: values.get(m[1], m[0]), template)
    # Jekyll::URL#sanitize_url
    url = ("/" + url).replace("..", "/").replace("./", "")
    return re.sub(r"/{2,}", "/", url)


def jekyll_url(relpath: str, front: Mapping[str, Any], *, kind: str, style: Any = "date",
               collection_permalink: Any = None, collection_folder: str = "") -> str:
    """The URL path (starting with ``/``) Jekyll gives the file at ``relpath``.

    Args:
        relpath: POSIX path from the site root, extension included.
        front: the page's front matter with the site's ``defaults`` merged under it.
        kind: ``pages``, ``posts`` or a collection label
            (:meth:`~provider.wiki.sites.policy.SitePolicy.page_type`).
        style: the site's ``permalink`` setting (a style name or a template).
        collection_permalink: ``collections.<label>.permalink``, when set.
        collection_folder: the collection's folder (``_docs``, ``coll/_docs``); for posts
            the ``_posts`` folder holding the file is found in ``relpath``.
    """
    style = style if isinstance(style, str) and style.strip() else "date"
    style = style.strip()
    folder, _, name = relpath.rpartition("/")
    stem, dot, _ext = name.rpartition(".")
    basename = stem if dot else name
    own = front.get("permalink")
    own = own if isinstance(own, str) and own.strip() else None
    if kind == "pages":
        values = {"path": folder, "basename": basename, "output_ext": ".html"}
        if own is not None:
            return _fill(own, values)
        if basename == "index":
            return _fill("/:path/", values)
        return _fill("/:path/:basename" + _style_suffix(style), values)
    if kind == "posts":
        parts = folder.split("/")
        at = max(i for i, part in enumerate(parts) if part == "_posts") if "_posts" in parts else len(parts)
        superdirs = [p for p in parts[:at] if p]
        inner = "/".join(parts[at + 1:])
        template = own or (collection_permalink if isinstance(collection_permalink, str) and collection_permalink
                           else _STYLES.get(style, style))
    else:
        superdirs = []
        inner = folder[len(collection_folder):].strip("/") if folder.startswith(collection_folder) else folder
        default = "/:collection/:path" + _style_suffix(style)
        template = own or (collection_permalink if isinstance(collection_permalink, str) and collection_permalink
                           else default)
    dated = _DATED.match(basename)
    slug_source = front.get("slug")
    slug = str(slug_source) if isinstance(slug_source, (str, int)) and str(slug_source).strip() else (
        dated["slug"] if dated else basename)
    when = _when(front.get("date")) or (_when(dated["date"]) if dated else None)
    categories = list(dict.fromkeys([*superdirs, *_words(front.get("categories")),
                                     *(_words(front.get("category")))]))
    path = "/".join(p for p in (inner, basename) if p)
    values = {
        "collection": kind,
        "path": "/" + path,
        "basename": basename,
        "name": slugify(basename),
        "title": slugify(slug, mode="pretty", cased=True),
        "slug": slugify(slug),
        "categories": "/".join(dict.fromkeys(c.lower() for c in categories)),
        "output_ext": ".html",
    }
    if when is not None:
        values.update({
            "year": f"{when.year:04d}", "month": f"{when.month:02d}", "day": f"{when.day:02d}",
            "i_month": str(when.month), "i_day": str(when.day), "short_year": f"{when.year % 100:02d}",
            "y_day": f"{when.timetuple().tm_yday:03d}", "hour": f"{when.hour:02d}", "minute": f"{when.minute:02d}",
            "second": f"{when.second:02d}", "week": f"{when.isocalendar()[1]:02d}",
            "short_day": when.strftime("%a"), "long_day": when.strftime("%A"),
            "short_month": when.strftime("%b"), "long_month": when.strftime("%B"),
        })
    return _fill(template, values)
