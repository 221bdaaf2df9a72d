"""An MkDocs project's own settings that decide what a page's URL and anchors are.

The ``mkdocs`` layout reads, from the project's ``mkdocs.yml`` (or ``mkdocs.yaml``):

* ``docs_dir`` (default ``docs``, relative to the file): a page's URL path is its path
  inside that folder, so the folder's name never appears in a URL;
* ``use_directory_urls`` (default ``true``): ``guide/setup.md`` is ``/guide/setup/``, or
  ``/guide/setup.html`` when ``false`` (an ``index.md`` stays ``…/index.html``);
* the ``toc`` extension's ``slugify`` and ``separator`` under ``markdown_extensions``:
  heading anchors are made by Python-Markdown's own ``toc`` functions
  (:mod:`provider.wiki.anchors`); ``slugify_unicode`` and pymdownx's ``uslugify`` keep
  letters of every script, any other named function falls back to the default (ASCII)
  rule, which :attr:`MkDocsProject.notes` says;
* ``INHERIT:`` (a parent configuration the file extends, as FastAPI's per-language
  sites do): the whole chain, each deep-merged under the file naming it, as MkDocs does
  (:func:`~provider.wiki.sites.config_files.load_inherited`; a parent that does not
  exist is left out); ``markdown_extensions`` as a list or as a mapping;
* the Material ``blog`` plugin (:class:`Blog`): a post in its posts folder has the URL
  the plugin gives it (``blog/2024/01/31/slug/`` by default: ``post_url_format``,
  ``post_url_date_format``, ``post_slugify``, ``post_url_max_categories``,
  :func:`blog_post_path`), not its path.

Which project a page belongs to: the nearest folder holding an ``mkdocs.yml``, from the
page's own folder up to the content folder and then the content folder's parent (the
content folder may be the repository or its ``docs`` folder), whose ``docs_dir`` holds
the page. Several projects in one repository (one per language) are found each for its
pages.

Python-specific YAML tags MkDocs configurations use (``!!python/name:…``, ``!ENV``,
``!relative``) are read as plain values, never executed. A configuration that cannot be
read leaves the layout's defaults in force (``docs/`` removed from paths, directory
URLs, the default slug rule), and :attr:`MkDocsProject.error` says why.
"""

from __future__ import annotations

import datetime as dt
import os
import posixpath
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

from .sites.config_files import load_inherited, steady

__all__ = ["CONFIG_NAMES", "Blog", "MkDocsProject", "blog_post_path", "project_for", "site_blogs", "toc_slugify"]

CONFIG_NAMES = ("mkdocs.yml", "mkdocs.yaml")
_MAX_CONFIG_BYTES = 1 << 20
_UNICODE_SLUGS = ("slugify_unicode", "uslugify", "uslugify_cased")


#: A generated-page format that is not a string: it may be any path below ``blog_dir``.
ANY_ROUTE = "\0any"


@dataclass(frozen=True)
class Blog:
    """One instance of Material for MkDocs' ``blog`` plugin, as configured (defaults of
    Material 9.2+).

    Attributes:
        blog_dir: the blog's folder inside the docs folder (``blog``).
        post_dir: the posts' folder inside the docs folder (``{blog}/posts``, resolved).
        url_format: ``post_url_format`` (``{date}/{slug}``; ``{categories}``, ``{file}``).
        date_format: ``post_url_date_format`` (a Babel pattern, ``yyyy/MM/dd``).
        max_categories: ``post_url_max_categories`` (1).
        separator: ``post_slugify_separator`` (``-``).
        slugify: ``""`` for Python-Markdown's ``toc.slugify`` (the default), ``"unicode"``
            for ``slugify_unicode``, else the unknown function's name (URLs then unknown).
        categories_separator: ``categories_slugify_separator``.
        categories_slugify: as ``slugify``, for ``categories_slugify``.
    """

    blog_dir: str = "blog"
    post_dir: str = "blog/posts"
    url_format: str = "{date}/{slug}"
    date_format: str = "yyyy/MM/dd"
    max_categories: int = 1
    separator: str = "-"
    slugify: str = ""
    categories_separator: str = "-"
    categories_slugify: str = ""
    #: the pages it generates below ``blog_dir``: ``archive_url_format``,
    #: ``categories_url_format``, ``authors_profiles_url_format`` (a format that is not a
    #: string: :data:`ANY_ROUTE`, any path, fail closed)
    list_formats: tuple[str, ...] = ("archive/{date}", "category/{slug}", "author/{slug}")
    pagination_format: str = "page/{page}"
    #: a regular expression for an archive's ``{date}`` (``archive_url_date_format``, ``yyyy``)
    archive_date_pattern: str = r"\d{4}"


def toc_slugify(value: str, separator: str = "-", *, unicode: bool = False) -> str:
    """Python-Markdown's ``toc.slugify`` (``slugify_unicode`` with ``unicode``)."""
    if not unicode:
        value = unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode("ascii")
    value = re.sub(r"[^\w\s-]", "", value).strip().lower()
    return re.sub(rf"[{re.escape(separator)}\s]+", separator, value)


_BABEL = re.compile(r"y+|M+|d+|'[^']*'|[A-Za-z]+|[^A-Za-z']+")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")


def _babel_date(when: dt.date, pattern: str) -> str | None:
    """A date by a Babel pattern's year, month and day fields (``yyyy/MM/dd``,
    ``yyyy-MMM``…, English month names); ``None`` for a field not read here."""
    out = []
    for token in _BABEL.findall(pattern):
        if token.startswith("'"):
            out.append(token[1:-1] or "'")
        elif token[0] == "y":
            out.append(f"{when.year % 100:02d}" if len(token) == 2 else f"{when.year:0{len(token)}d}")
        elif token[0] == "M":
            month = _MONTHS[when.month - 1]
            out.append({1: str(when.month), 2: f"{when.month:02d}", 3: month[:3]}.get(len(token), month))
        elif token[0] == "d":
            out.append(f"{when.day:0{len(token)}d}")
        elif token[0].isalpha():
            return None
        else:
            out.append(token)
    return "".join(out)


def _post_date(value: Any) -> dt.date | None:
    if isinstance(value, Mapping):
        value = value.get("created")
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        try:
            return dt.datetime.fromisoformat(value.strip()).date()
        except ValueError:
            return None
    return None


def blog_post_path(blog: Blog, inner: str, front: Mapping[str, Any], title: str) -> str | None:
    """The post's path below the site root without a suffix (``blog/2024/01/31/hello``),
    as Material's ``_format_path_for_post`` makes it: ``post_url_format`` filled with the
    post's ``date`` (or ``date.created``) by ``post_url_date_format``, its front matter
    ``slug`` or its title slugified, its first categories slugified, its file name;
    ``None`` when a value it needs is missing or not read here."""
    if blog.slugify not in ("", "unicode") or blog.categories_slugify not in ("", "unicode"):
        return None
    when = _post_date(front.get("date"))
    if when is None:
        return None  # Material refuses a post without a date
    date = _babel_date(when, blog.date_format)
    raw_categories = front.get("categories") or []
    if date is None or not isinstance(raw_categories, list):
        return None
    categories = [toc_slugify(str(name), blog.categories_separator, unicode=blog.categories_slugify == "unicode")
                  for name in raw_categories[:max(blog.max_categories, 0)]]
    slug = front.get("slug")
    slug = slug if isinstance(slug, str) and slug else toc_slugify(title, blog.separator,
                                                                   unicode=blog.slugify == "unicode")
    name = PurePosixPath(inner).stem
    try:
        path = blog.url_format.format(categories="/".join(categories), date=date, file=name, slug=slug)
    except (KeyError, IndexError, ValueError):
        return None
    path = posixpath.normpath(path.strip("/"))
    return posixpath.join(blog.blog_dir, path)


def _slugify_name(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        name = value.rsplit(":", 1)[-1].rsplit(".", 1)[-1]
        return "" if name == "slugify" else "unicode" if name == "slugify_unicode" else name
    return repr(value)


def _blogs(plugins: Any) -> tuple[Blog, ...]:
    entries: list[tuple[str, Any]] = []
    for item in plugins if isinstance(plugins, list) else [plugins] if isinstance(plugins, dict) else []:
        if isinstance(item, str):
            entries.append((item, None))
        elif isinstance(item, dict):
            entries += list(item.items())
    out = []
    for name, options in entries:
        if str(name).removeprefix("material/") != "blog":
            continue
        opts = options if isinstance(options, dict) else {}
        if opts.get("enabled", True) is False:
            continue
        blog_dir = opts.get("blog_dir", "blog")
        blog_dir = posixpath.normpath(blog_dir.strip("/")) if isinstance(blog_dir, str) and blog_dir.strip("/") else ""
        blog_dir = "" if blog_dir == "." else blog_dir
        post_dir = opts.get("post_dir", "{blog}/posts")
        post_dir = post_dir.format(blog=blog_dir) if isinstance(post_dir, str) else f"{blog_dir}/posts"
        post_dir = posixpath.normpath(post_dir.strip("/"))
        maximum = opts.get("post_url_max_categories", 1)
        text = {key: opts.get(key, default) for key, default in (
            ("post_url_format", "{date}/{slug}"), ("post_url_date_format", "yyyy/MM/dd"),
            ("post_slugify_separator", "-"), ("categories_slugify_separator", "-"))}
        if not all(isinstance(v, str) for v in text.values()) or not isinstance(maximum, int):
            text["post_url_format"] = "\0unknown"
        lists = tuple(value if isinstance(value := opts.get(key, default), str) else ANY_ROUTE
                      for key, default in (("archive_url_format", "archive/{date}"),
                                           ("categories_url_format", "category/{slug}"),
                                           ("authors_profiles_url_format", "author/{slug}")))
        pagination = opts.get("pagination_url_format", "page/{page}")
        date_format = opts.get("archive_url_date_format", "yyyy")
        # Each "/" of the Babel pattern is one more segment of the archive's URL.
        date_pattern = ("/".join([r"[^/]+"] * (date_format.count("/") + 1)) if isinstance(date_format, str)
                        else r"[^/]+(?:/[^/]+)*")
        out.append(Blog(blog_dir, "" if post_dir == "." else post_dir, str(text["post_url_format"]),
                        str(text["post_url_date_format"]), maximum if isinstance(maximum, int) else 1,
                        str(text["post_slugify_separator"]), _slugify_name(opts.get("post_slugify")),
                        str(text["categories_slugify_separator"]), _slugify_name(opts.get("categories_slugify")),
                        lists, pagination if isinstance(pagination, str) else ANY_ROUTE, date_pattern))
    return tuple(out)


@dataclass(frozen=True)
class MkDocsProject:
    """One MkDocs project's settings (module docstring).

    Attributes:
        config: the configuration file, relative to the content folder (``..`` for its
            parent), POSIX.
        docs_dir: the docs folder relative to the content folder (``""``: the content
            folder itself; ``None``: outside it).
        use_directory_urls: MkDocs' setting of that name.
        slug_unicode: the toc slugify keeps letters of every script.
        slug_separator: the toc extension's ``separator``.
        notes: what was read but not understood (an unknown slugify function).
        error: why the file cannot be read, or ``None``.
        blogs: the Material ``blog`` plugin instances (:class:`Blog`).
    """

    config: str
    docs_dir: str | None = "docs"
    use_directory_urls: bool = True
    slug_unicode: bool = False
    slug_separator: str = "-"
    notes: tuple[str, ...] = ()
    error: str | None = None
    blogs: tuple[Blog, ...] = ()

    def blog_url(self, inner: str, front: Mapping[str, Any], title: str) -> str | None:
        """The URL path (no leading ``/``) Material's blog plugin gives the post at
        ``inner`` (its path inside the docs folder), from its front matter and ``title``
        (:func:`blog_post_path`); ``None`` when no blog's posts folder holds it, or the
        URL cannot be told (a setting or date not read here)."""
        for blog in self.blogs:
            if inner.startswith(blog.post_dir.rstrip("/") + "/"):
                path = blog_post_path(blog, inner, front, title)
                if path is None:
                    return None
                return path + ("/" if self.use_directory_urls else ".html")
        return None

    def page_path(self, relpath: str) -> str | None:
        """``relpath`` (POSIX, relative to the content folder) inside the docs folder, or
        ``None`` when the page is not in it."""
        if self.docs_dir is None:
            return None
        if not self.docs_dir:
            return relpath
        prefix = self.docs_dir.rstrip("/") + "/"
        return relpath[len(prefix):] if relpath.startswith(prefix) else None


class _ConfigLoader(yaml.SafeLoader):
    """A safe loader that reads MkDocs' Python tags as plain values (never runs them)."""


def _plain_tag(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> Any:
    if isinstance(node, yaml.ScalarNode):
        value = loader.construct_scalar(node)
        return f"{suffix}{value}" if suffix.startswith("python/") else value
    if isinstance(node, yaml.SequenceNode):
        items = loader.construct_sequence(node)
        # !ENV [NAME, default]: the default is what a build without the variable uses.
        return items[-1] if suffix == "ENV" and items else items
    return loader.construct_mapping(node)  # type: ignore[arg-type]


_ConfigLoader.add_multi_constructor("tag:yaml.org,2002:", _plain_tag)
_ConfigLoader.add_multi_constructor("!", _plain_tag)


def _read_one(path: Path) -> dict[str, Any]:
    data = path.read_bytes()
    if len(data) > _MAX_CONFIG_BYTES:
        raise ValueError(f"larger than {_MAX_CONFIG_BYTES} bytes")
    loaded = steady(path, yaml.load(data.decode("utf-8"), Loader=_ConfigLoader))  # noqa: S506
    if loaded is None:
        loaded = {}
    if not isinstance(loaded, dict):
        raise ValueError("not a mapping")
    return loaded


def _load(path: Path) -> dict[str, Any]:
    # A generated parent not in the checkout (FastAPI's mkdocs.maybe-insiders.yml) is left
    # out: this file still says where the pages are.
    loaded: dict[str, Any] = load_inherited(path, _read_one, missing_parent_ok=True)
    return loaded


def _toc_options(extensions: Any) -> dict[str, Any]:
    items = extensions if isinstance(extensions, list) else [extensions] if isinstance(extensions, dict) else []
    for item in items:
        if isinstance(item, dict):
            for name, options in item.items():
                if name in ("toc", "markdown.extensions.toc") and isinstance(options, dict):
                    return options
    return {}


def _project(content: Path, config: Path) -> MkDocsProject:
    where = os.path.relpath(config, content).replace(os.sep, "/")
    try:
        data = _load(config)
    except (OSError, ValueError, UnicodeDecodeError, yaml.YAMLError, RecursionError) as exc:
        reason = exc.__class__.__name__ if isinstance(exc, yaml.YAMLError) else str(exc)
        return MkDocsProject(where, error=f"{where} cannot be read ({reason}): MkDocs defaults assumed")
    docs = data.get("docs_dir", "docs")
    docs = docs if isinstance(docs, str) and docs.strip() else "docs"
    docs_path = os.path.normpath(config.parent / docs)
    inside = os.path.relpath(docs_path, content).replace(os.sep, "/")
    docs_dir = None if inside == ".." or inside.startswith("../") else ("" if inside == "." else inside)
    toc = _toc_options(data.get("markdown_extensions"))
    slugify = toc.get("slugify")
    name = slugify.rsplit(":", 1)[-1].rsplit(".", 1)[-1] if isinstance(slugify, str) else "slugify"
    notes = () if name in ("slugify", *_UNICODE_SLUGS) else (
        f"{where}: toc slugify {slugify!r} is not known; heading anchors follow Python-Markdown's default",)
    separator = toc.get("separator", "-")
    return MkDocsProject(
        config=where,
        docs_dir=docs_dir,
        use_directory_urls=data.get("use_directory_urls", True) is not False,
        slug_unicode=name in _UNICODE_SLUGS,
        slug_separator=separator if isinstance(separator, str) else "-",
        notes=notes,
        blogs=_blogs(data.get("plugins")),
    )


_cache: dict[tuple[str, int, int], MkDocsProject] = {}


def _config_in(folder: Path) -> Path | None:
    for name in CONFIG_NAMES:
        candidate = folder / name
        if candidate.is_file():
            return candidate
    return None


def _project_in(content: Path, folder: Path) -> MkDocsProject | None:
    """The project configured in ``folder`` (read again when its configuration file
    changes), or ``None`` when ``folder`` has none or it cannot be read."""
    try:
        config = _config_in(folder)
        if config is None:
            return None
        stat = config.stat()
    except OSError:
        return None
    key = (str(config), stat.st_mtime_ns, stat.st_size)
    project = _cache.get(key)
    if project is None:
        project = _cache[key] = _project(content, config)
    return project


def site_blogs(content: Path) -> tuple[Blog, ...]:
    """The Material blogs of the MkDocs project configured in ``content`` or its parent
    (:class:`Blog`); none without a readable configuration. Never raises."""
    for folder in (content, content.parent):
        project = _project_in(content, folder)
        if project is not None:
            return project.blogs
    return ()


def project_for(content: Path, relpath: str) -> MkDocsProject | None:
    """The MkDocs project whose docs folder holds the page ``relpath`` (POSIX, relative
    to the content folder ``content``), or ``None`` when no configuration is found or
    none holds it. Never raises."""
    parts = PurePosixPath(relpath).parts[:-1]
    folders = [content.joinpath(*parts[:n]) for n in range(len(parts), -1, -1)] + [content.parent]
    for folder in folders:
        project = _project_in(content, folder)
        if project is not None and (project.error is not None or project.page_path(relpath) is not None):
            return project
    return None
