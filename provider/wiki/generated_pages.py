"""Pages a docs tool generates itself, with no markdown source (issue 24).

A sitemap lists every page the site publishes, the tool's own among them: taxonomy and
tag lists, blog archives and their pagination, a search page, feeds, the 404 page. A
markdown document whose URL is one of those routes — ``url: /tags/`` in Hugo, Docusaurus
``slug: /tags``, a file in ``src/pages`` named like a route — is not proved published by
that ``<loc>``: the site may well serve the generated page there instead. The site gate
(:mod:`provider.wiki.site_gate`) withholds such a document from ``customer_safe``.

The route families, per layout (each path also under a locale folder, ``/de/tags/``):

==============  ===================================================================================
``hugo``        ``/tags/``, ``/categories/`` (or the taxonomies the site configuration names) and
                their terms; ``/page/N/`` and ``/<section>/page/N/`` (pagination); ``/index.xml``
                and ``/<section>/index.xml`` (feeds); ``/sitemap.xml``; ``/404.html``
``docusaurus``  ``/tags`` and ``/<routeBasePath>/tags`` and their tags; ``/blog`` (the post list),
                ``/blog/page/N``, ``/blog/tags…``, ``/blog/archive``, ``/blog/authors…``, the blog's
                feeds (``/blog/rss.xml``, ``/blog/atom.xml``, ``/blog/feed.json``); ``/search``;
                ``/404.html``
``mkdocs``      ``/search/`` and ``/search.html``; ``/404.html``; the blog plugin's ``/blog/page/N/``,
                ``/blog/archive/…``, ``/blog/category/…``; and for each Material ``blog`` the
                ``mkdocs.yml`` configures, below its ``blog_dir``: the archive
                (``archive_url_format``, its ``{date}`` by ``archive_url_date_format``), category
                (``categories_url_format``), author (``authors_profiles_url_format``) pages,
                each also paginated (``pagination_url_format``), and the index's pagination
``jekyll``      ``/feed.xml``, ``/sitemap.xml``, the paginator's ``/pageN/``; jekyll-archives'
                ``/tag/…``, ``/category/…``; with jekyll-archives named in ``_config.yml``
                (``plugins``, ``gems`` or its ``jekyll-archives`` key) its ``permalinks``
                (defaults ``/:year/``, ``/:year/:month/``, ``/:year/:month/:day/``,
                ``/tag/:name/``, ``/category/:name/``), whatever ``enabled`` says (fail closed)
``starlight``   ``/404``
==============  ===================================================================================
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

__all__ = ["generated_route", "hugo_permalink_sections", "jekyll_archive_routes"]

_PAGE_N = re.compile(r"(?:^|/)page/\d+$")
_JEKYLL_PAGE_N = re.compile(r"^page\d+$")
_DEFAULT_TAXONOMIES = ("tags", "categories")


_taxonomies: dict[tuple[str, tuple[tuple[str, int], ...]], tuple[str, ...]] = {}


def _hugo_taxonomies(root: Path) -> tuple[str, ...]:
    """The plural names of the site's taxonomies (``[taxonomies]``), Hugo's two by default.
    A configuration that cannot be read keeps the defaults (it is reported elsewhere).
    Cached by the files' modification times."""
    from .hugo_site import _candidates, _read

    site = root.parent if root.name == "content" else root
    try:
        files = _candidates(site)
        stamp = tuple((str(path), path.stat().st_mtime_ns) for path, _ in files)
    except OSError:
        return _DEFAULT_TAXONOMIES
    key = (str(site), stamp)
    if key in _taxonomies:
        return _taxonomies[key]
    names: list[str] = []
    try:
        for path, holds_list in files:
            if holds_list:
                continue
            data: Any = _read(path)
            taxonomies = data.get("taxonomies") if isinstance(data, dict) else None
            if isinstance(taxonomies, dict):
                names += [str(v).strip("/").lower() for v in taxonomies.values() if isinstance(v, str) and v.strip("/")]
    except (OSError, ValueError):
        pass
    if len(_taxonomies) > 64:
        _taxonomies.clear()
    found = _taxonomies[key] = tuple(dict.fromkeys([*names, *_DEFAULT_TAXONOMIES]))
    return found


_permalinks: dict[tuple[str, tuple[tuple[str, int], ...]], frozenset[str]] = {}


def hugo_permalink_sections(root: Path) -> frozenset[str]:
    """The sections (first content folders, lower case) whose page URLs the Hugo site's
    ``[permalinks]`` sets (``posts = "/:year/:slug/"``, or under ``page``/``section``);
    ``"*"`` when a configuration that sets permalinks cannot be read in full. The provider
    does not build such URLs (issue 24): their pages get no citation URL. Cached by the
    files' modification times; never raises."""
    from .hugo_site import _candidates, _read

    site = root.parent if root.name == "content" else root
    try:
        files = _candidates(site)
        stamp = tuple((str(path), path.stat().st_mtime_ns) for path, _ in files)
    except OSError:
        return frozenset()
    key = (str(site), stamp)
    if key in _permalinks:
        return _permalinks[key]
    found: set[str] = set()
    for path, holds_list in files:
        if holds_list:
            continue
        try:
            data: Any = _read(path)
        except (OSError, ValueError):
            continue  # reported by the site configuration reader
        rules = data.get("permalinks") if isinstance(data, dict) else None
        if rules is None:
            continue
        if not isinstance(rules, dict):
            found.add("*")
            continue
        for name, value in rules.items():
            if isinstance(value, dict):  # Hugo 0.120+: [permalinks.page], [permalinks.section]…
                found.update(str(k).strip("/").lower() for k in value)
            else:
                found.add(str(name).strip("/").lower())
    if len(_permalinks) > 64:
        _permalinks.clear()
    result = _permalinks[key] = frozenset(found)
    return result


_ARCHIVES = {"year": "/:year/", "month": "/:year/:month/", "day": "/:year/:month/:day/", "tag": "/tag/:name/",
             "category": "/category/:name/"}
_ARCHIVE_TOKENS = {"year": r"\d{4}", "month": r"\d{2}", "day": r"\d{2}", "name": r"[^/]+"}
_archives: dict[tuple[str, int, int], tuple[re.Pattern[str], ...]] = {}


def _permalink_regex(template: str, tokens: dict[str, str]) -> re.Pattern[str]:
    """A route template (``/:year/:month/``, ``archive/{date}``) as a regular expression
    over a path without leading or trailing ``/``, lower case; any other placeholder is
    one segment."""
    out = []
    for piece in re.split(r"(:[a-z_]+|\{[a-z_]+\})", template.strip("/").lower()):
        name = piece.strip(":{}")
        if piece.startswith(":") or (piece.startswith("{") and piece.endswith("}")):
            out.append(f"(?:{tokens.get(name, r'[^/]+')})")
        else:
            out.append(re.escape(piece))
    return re.compile("".join(out) + r"(?:\.html)?")


def jekyll_archive_routes(root: Path) -> tuple[re.Pattern[str], ...]:
    """The pages jekyll-archives generates on the Jekyll site at ``root`` (module
    docstring), as patterns over a path (no leading or trailing ``/``, lower case);
    none when ``_config.yml`` does not name the plugin. A configuration that names it but
    cannot be read gives the defaults; a permalink that is not a string a pattern
    matching every path (fail closed). Cached by the file's modification time and size;
    never raises."""
    from .sites.config_files import ConfigError, read_config
    from .sites.jekyll import CONFIG_NAMES

    path = next((root / name for name in CONFIG_NAMES if (root / name).is_file()), None)
    if path is None:
        return ()
    try:
        stat = path.stat()
    except OSError:
        return ()
    key = (str(path), stat.st_mtime_ns, stat.st_size)
    if key in _archives:
        return _archives[key]
    try:
        data: Any = read_config(path)
        text = path.read_text("utf-8", errors="replace")
    except (ConfigError, OSError):
        data, text = None, ""
    named = "jekyll-archives" in text
    patterns: tuple[re.Pattern[str], ...] = ()
    if named:
        options = data.get("jekyll-archives") if isinstance(data, dict) else None
        permalinks = options.get("permalinks") if isinstance(options, dict) else None
        templates = dict(_ARCHIVES)
        everything = False
        if isinstance(permalinks, dict):
            for kind, value in permalinks.items():
                if isinstance(value, str):
                    templates[str(kind)] = value
                else:
                    everything = True
        elif permalinks is not None:
            everything = True
        patterns = tuple(_permalink_regex(t, _ARCHIVE_TOKENS) for t in templates.values())
        if everything:
            patterns += (re.compile(r".+"),)
    if len(_archives) > 64:
        _archives.clear()
    _archives[key] = patterns
    return patterns


def _mkdocs_blog_routes(root: Path) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """``(blog_dir, pattern over the path below it)`` of the pages each configured
    Material blog generates (module docstring)."""
    from .mkdocs_site import ANY_ROUTE, site_blogs

    def regex(fmt: str, tokens: dict[str, str]) -> str:
        return ".+" if fmt == ANY_ROUTE else _permalink_regex(fmt, tokens).pattern

    found = []
    for blog in site_blogs(root):
        pagination = regex(blog.pagination_format, {"page": r"\d+"})
        lists = [regex(fmt, {"date": blog.archive_date_pattern}) for fmt in blog.list_formats]
        either = "|".join(f"(?:{x})" for x in lists)
        found.append((blog.blog_dir.lower(), re.compile(rf"(?:(?:{either})(?:/{pagination})?|{pagination})")))
    return tuple(found)


def _family(layout: str, path: str, *, root: Path, route_base: str) -> str | None:
    """The generated route family ``path`` (no leading or trailing ``/``, lower case) is
    in, or ``None``."""
    segments = path.split("/") if path else []
    first = segments[0] if segments else ""
    last = segments[-1] if segments else ""
    if layout == "hugo":
        if first in _hugo_taxonomies(root):
            return f"the {first} taxonomy's pages"
        if _PAGE_N.search(path):
            return "a list page's pagination, …/page/N/"
        if last == "index.xml":
            return "a list page's RSS feed"
        if path in ("sitemap.xml", "404.html", "robots.txt"):
            return f"Hugo's {path}"
        return None
    if layout == "docusaurus":
        base = route_base.strip("/").lower()
        tags = {"tags", f"{base}/tags".strip("/")}
        if any(path == t or path.startswith(t + "/") for t in tags):
            return "the docs plugin's tag pages"
        if first == "blog" and (len(segments) == 1 or segments[1] in ("page", "tags", "archive", "authors")
                                or last in ("rss.xml", "atom.xml", "feed.json")):
            return "the blog plugin's list, tag, archive, author and feed pages"
        if path in ("search", "404.html", "sitemap.xml"):
            return f"Docusaurus' /{path}"
        return None
    if layout == "mkdocs":
        if path in ("search", "search.html", "404.html", "sitemap.xml", "sitemap.xml.gz"):
            return f"MkDocs' /{path}"
        if first == "blog" and len(segments) > 1 and (segments[1] in ("archive", "category")
                                                      or _PAGE_N.search(path)):
            return "the blog plugin's archive, category and pagination pages"
        for blog_dir, pattern in _mkdocs_blog_routes(root):
            below = path if not blog_dir else path[len(blog_dir) + 1:] if path.startswith(blog_dir + "/") else None
            if below and pattern.fullmatch(below):
                return f"the blog plugin's archive, category, author and pagination pages (blog_dir {blog_dir!r})"
        return None
    if layout == "jekyll":
        if path in ("feed.xml", "sitemap.xml", "robots.txt") or _JEKYLL_PAGE_N.match(last):
            return f"Jekyll's /{path}" if not _JEKYLL_PAGE_N.match(last) else "the paginator's /pageN/"
        if first in ("tag", "category") and len(segments) > 1:
            return "jekyll-archives' tag and category pages"
        if path and any(p.fullmatch(path) for p in jekyll_archive_routes(root)):
            return "jekyll-archives' date, tag and category pages (its permalinks)"
        return None
    if layout == "starlight":
        return "Starlight's /404" if path in ("404", "404.html") else None
    return None


def generated_route(layout: str, path: str, *, root: Path, route_base: str = "docs",
                    locales: Iterable[str] = ()) -> str | None:
    """Which family of pages the tool of ``layout`` generates at the site path ``path``
    (``/tags/go/``; below the site's base URL, percent-decoded or not), in words
    (``"the tags taxonomy's pages"``), or ``None`` when no generated page is there.

    Args:
        layout: the layout name (``hugo``, ``docusaurus``, ``mkdocs``, ``jekyll``,
            ``starlight``); any other has no generated pages here.
        root: the content root (Hugo: where the site configuration is looked for).
        route_base: Docusaurus' docs ``routeBasePath`` (its tag pages are below it).
        locales: locale folders a path may start with (``de``, ``zh-cn``); compared
            without letter case.

    Never raises.
    """
    clean = path.split("?", 1)[0].split("#", 1)[0].strip("/").lower()
    clean = re.sub(r"(?:^|/)index\.html?$", "", clean).strip("/")
    found = _family(layout, clean, root=root, route_base=route_base)
    if found is None:
        first, _, rest = clean.partition("/")
        if first and first in {locale.lower() for locale in locales}:
            found = _family(layout, rest, root=root, route_base=route_base)
    return found
