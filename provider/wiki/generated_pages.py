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
                their terms; ``/page/N/`` and ``/<section>/page/N/`` (pagination; also by
                ``[pagination] path`` and the older ``paginatePath``, per language too);
                ``/index.xml`` and ``/<section>/index.xml`` (feeds) and the files of the other
                output formats (:class:`HugoRoutes`); ``/sitemap.xml``; ``/404.html``
``docusaurus``  ``/tags`` and ``/<routeBasePath>/tags`` (and each docs version's,
                ``/docs/1.0/tags``) and their tags; ``/blog`` (the post list),
                ``/blog/page/N``, ``/blog/tags…``, ``/blog/archive``, ``/blog/authors…``, the blog's
                feeds (``/blog/rss.xml``, ``/blog/atom.xml``, ``/blog/feed.json``); ``/search``;
                ``/404.html``
``mkdocs``      ``/search/`` and ``/search.html``; ``/404.html``; the blog plugin's ``/blog/page/N/``,
                ``/blog/archive/…``, ``/blog/category/…``; and for each Material ``blog`` the
                ``mkdocs.yml`` configures, below its ``blog_dir``: the archive
                (``archive_url_format``, its ``{date}`` by ``archive_url_date_format``), category
                (``categories_url_format``), author (``authors_profiles_url_format``) pages,
                each also paginated (``pagination_url_format``), and the index's pagination
``jekyll``      ``/feed.xml``, ``/sitemap.xml``; the paginators' pages
                (:func:`jekyll_pagination_routes`, a page's own
                :func:`jekyll_page_paginations`), in their letter case and form only
                (Jekyll's URLs are case-sensitive); jekyll-archives'
                ``/tag/…``, ``/category/…``; with jekyll-archives named in ``_config.yml``
                (``plugins``, ``gems`` or its ``jekyll-archives`` key) its ``permalinks``
                (defaults ``/:year/``, ``/:year/:month/``, ``/:year/:month/:day/``,
                ``/tag/:name/``, ``/category/:name/``), whatever ``enabled`` says (fail closed)
``starlight``   ``/404``
==============  ===================================================================================
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["HugoRoutes", "generated_route", "hugo_config_maps", "hugo_page_outputs", "hugo_permalink_sections",
           "hugo_routes",
           "jekyll_archive_routes", "jekyll_page_paginations", "jekyll_pagination_routes"]

_PAGE_N = re.compile(r"(?:^|/)page/\d+$")
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


#: Hugo's built-in output formats other than HTML: ``(baseName, suffix)`` of the file each
#: writes in a list page's (or a page's) folder. Hugo writes them for the kinds the
#: ``outputs`` setting or a page's own front matter names, so all count (a page naming
#: AMP: :func:`hugo_page_outputs`, read by the site gate).
_HUGO_FORMATS = {"rss": ("index", "xml"), "json": ("index", "json"), "calendar": ("index", "ics"),
                 "csv": ("index", "csv"), "robots": ("robots", "txt"), "sitemap": ("sitemap", "xml")}
#: Hugo's built-in media types' first suffix, for a custom output format's ``mediaType``.
_HUGO_SUFFIXES = {"application/json": "json", "application/rss+xml": "xml", "application/xml": "xml",
                  "text/xml": "xml", "text/html": "html", "text/calendar": "ics", "text/csv": "csv",
                  "text/plain": "txt", "text/css": "css", "text/javascript": "js", "application/javascript": "js",
                  "text/markdown": "md", "application/manifest+json": "webmanifest",
                  "application/toml": "toml", "application/yaml": "yaml", "text/x-toml": "toml",
                  "text/x-yaml": "yaml"}


@dataclass(frozen=True)
class HugoRoutes:
    """What a Hugo site's configuration says about the pages it generates (issue 24).

    Attributes:
        pagination: the pagination path segments (``[pagination] path``, the older
            ``paginatePath``, also per language), Hugo's ``page`` always among them.
        files: file names its output formats write in a list page's or a page's folder
            (``index.xml``, ``index.json``, a custom format's ``search.json``), lower case;
            ``*`` in place of a suffix it cannot tell (any suffix).
        taxonomies: the plural names ``[taxonomies]`` gives, wherever it is set (a
            ``config/_default/taxonomies.toml`` too, and per language), lower case.
        prefixes: first path segments of output formats with a ``path`` (``amp``: AMP
            pages are ``/amp/…``), lower case: a custom format's always (a page's front
            matter may name it), AMP's when the ``outputs`` setting names it.
    """

    pagination: tuple[str, ...] = ("page",)
    files: frozenset[str] = frozenset(f"{b}.{s}" for b, s in _HUGO_FORMATS.values())
    prefixes: frozenset[str] = frozenset()
    taxonomies: frozenset[str] = frozenset()


def _lowered(value: Any) -> Any:
    """A mapping with its keys in lower case, as Hugo reads its configuration."""
    return {str(k).lower(): v for k, v in value.items()} if isinstance(value, dict) else value


_config_maps: dict[tuple[str, tuple[tuple[str, int], ...]], list[dict[str, Any]] | None] = {}


def hugo_config_maps(site: Path) -> list[dict[str, Any]] | None:
    """Every configuration mapping of the Hugo site in the folder ``site`` (as
    :func:`_hugo_config_maps` reads them), or ``None`` when a configuration file there
    cannot be read (the caller fails closed). Cached by the files' modification times;
    never raises."""
    stamp = _config_stamp(site)
    if stamp is None:
        return None
    key = (str(site), stamp)
    if key not in _config_maps:
        if len(_config_maps) > 64:
            _config_maps.clear()
        _config_maps[key] = _hugo_config_maps(site, strict=True)
    return _config_maps[key]


def _config_stamp(site: Path) -> tuple[tuple[str, int], ...] | None:
    """``(path, mtime in ns)`` of the Hugo site's configuration files, ``None`` when they
    cannot be listed."""
    try:
        folders = [site / "config" / "_default", site / "config" / "production"]
        return tuple(sorted((str(p), p.stat().st_mtime_ns) for p in
                            [*site.glob("hugo.*"), *site.glob("config.*"),
                             *(q for f in folders if f.is_dir() for q in f.iterdir())]))
    except OSError:
        return None


def _hugo_config_maps(site: Path, *, strict: bool = False) -> list[dict[str, Any]] | None:
    """Every configuration mapping of the Hugo site (the root file, ``config/_default``
    and ``config/production``; a file named like a key, ``pagination.toml``, holds that
    key), keys in lower case. A file that cannot be read is left out (it is reported by
    the site configuration reader); ``strict``: ``None`` then."""
    from .hugo_site import ENVIRONMENT, _read

    found: list[dict[str, Any]] = []
    files = [site / f"{n}.{f}" for n in ("hugo", "config") for f in ("toml", "yaml", "yml", "json")]
    for folder in ("_default", ENVIRONMENT):
        base = site / "config" / folder
        with contextlib.suppress(OSError):
            files += sorted(p for p in base.iterdir() if p.suffix in (".toml", ".yaml", ".yml", ".json"))
    for path in files:
        if not path.is_file():
            continue
        try:
            data: Any = _read(path)
        except (OSError, ValueError):
            if strict:
                return None
            continue
        if path.stem.lower() not in ("hugo", "config"):
            data = {path.stem.lower(): data}
        if isinstance(data, dict):
            found.append(_lowered(data))
    return found


def _hugo_routes_of(maps: list[dict[str, Any]]) -> HugoRoutes:
    pagination = ["page"]
    formats = {name: (base, suffix, "") for name, (base, suffix) in _HUGO_FORMATS.items()}
    formats["amp"] = ("index", "html", "amp")
    suffixes = dict(_HUGO_SUFFIXES)
    named: set[str] = set()
    taxonomies: set[str] = set()
    scopes = list(maps)
    for data in maps:
        languages = data.get("languages")
        if isinstance(languages, dict):
            scopes += [_lowered(v) for v in languages.values() if isinstance(v, dict)]
    for data in scopes:
        paths = [data.get("paginatepath"), _lowered(data.get("pagination") or {}).get("path")
                 if isinstance(data.get("pagination"), dict) else None]
        pagination += [p.strip("/").lower() for p in paths if isinstance(p, str) and p.strip("/")]
        kinds = data.get("taxonomies")
        if isinstance(kinds, dict):
            taxonomies.update(str(v).strip("/").lower() for v in kinds.values() if isinstance(v, str) and v.strip("/"))
        media = data.get("mediatypes")
        if isinstance(media, dict):
            for kind, spec in media.items():
                spec = _lowered(spec)
                found = spec.get("suffixes") if isinstance(spec, dict) else None
                if isinstance(found, list) and found and isinstance(found[0], str):
                    suffixes[str(kind).lower()] = found[0].lower()
        outputs = data.get("outputs")
        if isinstance(outputs, dict):
            for names in outputs.values():
                named.update(str(n).lower() for n in (names if isinstance(names, list) else [names]))
        custom = data.get("outputformats")
        if isinstance(custom, dict):
            for name, spec in custom.items():
                spec = _lowered(spec) if isinstance(spec, dict) else {}
                old = formats.get(str(name).lower(), ("index", "", ""))
                base = spec.get("basename", old[0])
                media_type = spec.get("mediatype")
                suffix = (suffixes.get(str(media_type).lower(), "*") if media_type is not None else old[1]) or "*"
                path = spec.get("path", old[2])
                formats[str(name).lower()] = (str(base).lower(), suffix, str(path).strip("/").lower())
                named.add(str(name).lower())  # defined for a page's front matter outputs, fail closed
    files = {f"{base}.{suffix}" for base, suffix, _ in formats.values() if suffix != "html"}
    files |= {f"{base}.{suffix}" for name, (base, suffix, path) in formats.items()
              if suffix == "html" and base != "index" and name in named}
    prefixes = {path.split("/")[0] for name, (_, _, path) in formats.items() if path and name in named}
    return HugoRoutes(tuple(dict.fromkeys(pagination)), frozenset(files), frozenset(prefixes), frozenset(taxonomies))


_hugo_routes: dict[tuple[str, tuple[tuple[str, int], ...]], HugoRoutes] = {}


def hugo_routes(root: Path) -> HugoRoutes:
    """The :class:`HugoRoutes` of the Hugo site at ``root`` (its ``content`` folder or
    the site folder). Cached by the configuration files' modification times; never
    raises (an unreadable file keeps Hugo's defaults)."""
    site = root.parent if root.name == "content" else root
    stamp = _config_stamp(site)
    if stamp is None:
        return HugoRoutes()
    key = (str(site), stamp)
    if key not in _hugo_routes:
        if len(_hugo_routes) > 64:
            _hugo_routes.clear()
        _hugo_routes[key] = _hugo_routes_of(_hugo_config_maps(site) or [])
    return _hugo_routes[key]


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


def _permalink_regex(template: str, tokens: dict[str, str], *, exact: bool = False) -> re.Pattern[str]:
    """A route template (``/:year/:month/``, ``archive/{date}``) as a regular expression
    over a path without leading or trailing ``/``; any other placeholder is one segment.
    By default lower case, and the ``.html`` form of the page too; ``exact``: the template's
    letter case and form only (Jekyll's pagination: a folder template is a folder page,
    ``p2.html`` is another file)."""
    out = []
    text = template.strip("/") if exact else template.strip("/").lower()
    for piece in re.split(r"(:[a-z_]+|\{[a-z_]+\})", text):
        name = piece.strip(":{}")
        if piece.startswith(":") or (piece.startswith("{") and piece.endswith("}")):
            out.append(f"(?:{tokens.get(name, r'[^/]+')})")
        else:
            out.append(re.escape(piece))
    return re.compile("".join(out) + ("" if exact else r"(?:\.html)?"))


def _jekyll_config_key(root: Path) -> tuple[str, int, int] | None:
    """``(path, mtime in ns, size in bytes)`` of the Jekyll site's ``_config.yml`` at
    ``root`` — what the route caches are keyed by — or ``None`` without one."""
    from .sites.jekyll import CONFIG_NAMES

    path = next((root / name for name in CONFIG_NAMES if (root / name).is_file()), None)
    if path is None:
        return None
    try:
        stat = path.stat()
    except OSError:
        return None
    return str(path), stat.st_mtime_ns, stat.st_size


def _read_jekyll_config(key: tuple[str, int, int]) -> tuple[Any, str]:
    """The configuration ``key`` names, as data and as text; ``(None, "")`` when it
    cannot be read or parsed."""
    from .sites.config_files import ConfigError, read_config

    path = Path(key[0])
    try:
        return read_config(path), path.read_text("utf-8", errors="replace")
    except (ConfigError, OSError):
        return None, ""


def jekyll_archive_routes(root: Path) -> tuple[re.Pattern[str], ...]:
    """The pages jekyll-archives generates on the Jekyll site at ``root`` (module
    docstring), as patterns over a path (no leading or trailing ``/``, lower case);
    none when ``_config.yml`` does not name the plugin. A configuration that names it but
    cannot be read gives the defaults; a permalink that is not a string a pattern
    matching every path (fail closed). Cached by the file's modification time and size;
    never raises."""
    key = _jekyll_config_key(root)
    if key is None:
        return ()
    if key in _archives:
        return _archives[key]
    data, text = _read_jekyll_config(key)
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
        patterns = tuple(_permalink_regex(t, _ARCHIVE_TOKENS, exact=True) for t in templates.values())
        if everything:
            patterns += (re.compile(r".+"),)
    if len(_archives) > 64:
        _archives.clear()
    _archives[key] = patterns
    return patterns


_paginations: dict[tuple[str, int, int], tuple[re.Pattern[str], ...]] = {}
#: jekyll-paginate-v2's autopages and their default permalinks.
_AUTOPAGES = {"tags": "/tag/:tag", "categories": "/category/:cat", "collections": "/collection/:coll"}


def jekyll_pagination_routes(root: Path) -> tuple[re.Pattern[str], ...]:
    """The pagination pages the Jekyll site at ``root`` generates, as patterns over a path
    (no leading or trailing ``/``, letter case as the site writes it: Jekyll's URLs are
    case-sensitive):

    * jekyll-paginate, when ``paginate`` is set: ``paginate_path`` (default
      ``/page:num``) with page numbers from 2, each a folder's ``index.html`` — never
      ``p2.html`` nor ``P2/``;
    * jekyll-paginate-v2, with its ``pagination`` key: its ``permalink`` (default
      ``/page/:num/``) below any page, as the plugin puts it below each paginated page's
      own URL, in the template's form (``/page/:num/`` a folder, ``/page-:num.html`` a
      file), and its ``autopages`` (tag, category and collection pages, their permalinks,
      and their pagination).

    A value that is not a string gives a pattern matching every path (fail closed). A
    page's own front matter ``pagination: permalink:`` is read by
    :func:`jekyll_page_pagination`. Cached by the file's modification time and size;
    never raises."""
    key = _jekyll_config_key(root)
    if key is None:
        return ()
    if key in _paginations:
        return _paginations[key]
    data = _read_jekyll_config(key)[0]
    data = data if isinstance(data, dict) else {}
    patterns: list[re.Pattern[str]] = []
    everything = False
    classic = data.get("paginate_path", "/page:num")
    if data.get("paginate") is not None or "paginate_path" in data:
        if isinstance(classic, str):
            patterns.append(_permalink_regex(classic, _PAGE_TOKENS, exact=True))
        else:
            everything = True
    v2 = data.get("pagination")
    if v2 is not None:
        link = v2.get("permalink", "/page/:num/") if isinstance(v2, dict) else "/page/:num/"
        if isinstance(link, str):
            patterns.append(_below_any_page(link))
        else:
            everything = True
    auto = data.get("autopages")
    if isinstance(auto, dict):
        for kind, default in _AUTOPAGES.items():
            spec = auto.get(kind)
            link = spec.get("permalink", default) if isinstance(spec, dict) else default
            if isinstance(link, str):
                body = _permalink_regex(link, {}).pattern
                patterns.append(re.compile(rf"{body}(?:/.+)?"))
            else:
                everything = True
    elif auto is not None:
        everything = True
    if everything:
        patterns.append(re.compile(r".+"))
    if len(_paginations) > 64:
        _paginations.clear()
    found = _paginations[key] = tuple(patterns)
    return found


#: A page number of a paginator's second and later pages (the first is the page itself).
_PAGE_TOKENS = {"num": r"[2-9]|[1-9]\d+"}


def _below_any_page(link: str) -> re.Pattern[str]:
    """jekyll-paginate-v2's ``permalink`` below any page's URL, in its own form."""
    return re.compile(rf"(?:.+/)?{_permalink_regex(link, _PAGE_TOKENS, exact=True).pattern}")


_page_formats: dict[tuple[str, int, int], frozenset[str]] = {}


def hugo_page_outputs(path: Path, mtime_ns: int, size: int) -> frozenset[str]:
    """The output formats (lower case) a Hugo page's own front matter ``outputs`` names
    (``outputs: [html, amp]``): Hugo renders that page in each, the AMP one at
    ``/amp/<its path>/`` whatever the site's ``outputs`` say. Read from the file's first
    16 KiB; cached by path, modification time and size; never raises."""
    from .frontmatter import parse_front_matter

    key = (str(path), mtime_ns, size)
    found = _page_formats.get(key)
    if found is not None:
        return found
    names: frozenset[str] = frozenset()
    try:
        with path.open("rb") as handle:
            head = handle.read(_PAGE_HEAD).decode("utf-8", errors="replace")
    except OSError:
        head = ""
    if "outputs" in head.lower():
        data = parse_front_matter(head).data
        value = next((v for k, v in data.items() if str(k).lower() == "outputs"), None)
        items = value if isinstance(value, list) else [value] if value is not None else []
        names = frozenset(str(item).strip().lower() for item in items)
    if len(_page_formats) > 100_000:
        _page_formats.clear()
    _page_formats[key] = names
    return names


_PAGE_HEAD = 16384


def jekyll_page_paginations(root: Path, relpaths: Iterable[str]) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """``(relpath, pattern)`` for each page among ``relpaths`` (files below the Jekyll
    site at ``root``) that sets its own jekyll-paginate-v2 ``pagination: permalink:`` in
    its front matter: the pattern, like the site's (:func:`jekyll_pagination_routes`),
    matches that permalink below any page (no leading or trailing ``/``, letter case as
    written). None unless ``_config.yml`` has the ``pagination`` key (the plugin paginates
    nothing without it). A permalink that is not a string gives a pattern matching every
    path (fail closed). Reads each file's first 16 KiB; never raises."""
    from .frontmatter import parse_front_matter

    key = _jekyll_config_key(root)
    if key is None:
        return ()
    data = _read_jekyll_config(key)[0]
    if not isinstance(data, dict) or data.get("pagination") is None:
        return ()
    found: list[tuple[str, re.Pattern[str]]] = []
    for relpath in relpaths:
        try:
            with (root / relpath).open("rb") as handle:
                head = handle.read(_PAGE_HEAD).decode("utf-8", errors="replace")
        except OSError:
            continue
        if "pagination" not in head:
            continue
        own = parse_front_matter(head).data.get("pagination")
        if not isinstance(own, dict) or "permalink" not in own:
            continue
        link = own["permalink"]
        found.append((relpath, _below_any_page(link) if isinstance(link, str) else re.compile(r".+")))
    return tuple(found)


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
        routes = hugo_routes(root)
        if first in _hugo_taxonomies(root) or first in routes.taxonomies:
            return f"the {first} taxonomy's pages"
        for segment in routes.pagination:
            if re.search(rf"(?:^|/){re.escape(segment)}/\d+$", path):
                return f"a list page's pagination, …/{segment}/N/"
        if last == "index.xml":
            return "a list page's RSS feed"
        if path in ("sitemap.xml", "404.html", "robots.txt"):
            return f"Hugo's {path}"
        stem, dot, _ = last.rpartition(".")
        if dot and (last in routes.files or f"{stem}.*" in routes.files):
            return f"an output format's file ({last}: the site's outputs and outputFormats)"
        if first in routes.prefixes and len(segments) > 0:
            return f"an output format's pages below /{first}/ (its path)"
        return None
    if layout == "docusaurus":
        base = route_base.strip("/").lower()
        tags = {"tags", f"{base}/tags".strip("/")}
        # Each docs version has its own tag pages (/docs/1.0/tags, /docs/next/tags).
        from .sites.javascript import docusaurus_versions

        versions, _ = docusaurus_versions(root)
        if versions is not None:
            for name in (n for n in (*versions.released, "current") if versions.built(n) is None):
                tags.add("/".join(p for p in (base, versions.path(name).lower(), "tags") if p))
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
        # jekyll-feed's and jekyll-sitemap's files. Jekyll writes no robots.txt of its own
        # (jekyll-sitemap adds one only where the site has none, and never lists it).
        if path in ("feed.xml", "sitemap.xml"):
            return f"Jekyll's /{path}"
        if first in ("tag", "category") and len(segments) > 1:
            return "jekyll-archives' tag and category pages"
        if path and any(p.fullmatch(path) for p in jekyll_archive_routes(root)):
            return "jekyll-archives' date, tag and category pages (its permalinks)"
        if path and any(p.fullmatch(path) for p in jekyll_pagination_routes(root)):
            return "the paginator's pages (paginate_path, or jekyll-paginate-v2's permalink and autopages)"
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
    clean = path.split("?", 1)[0].split("#", 1)[0].strip("/")
    # Jekyll's URLs are case-sensitive (a static host serves /news/P2/ and /news/p2/ as two
    # pages); the other tools' routes are compared without letter case.
    exact = layout == "jekyll"
    clean = clean if exact else clean.lower()
    clean = re.sub(r"(?:^|/)index\.html?$", "", clean, flags=0 if exact else re.IGNORECASE).strip("/")
    found = _family(layout, clean, root=root, route_base=route_base)
    if found is None:
        first, _, rest = clean.partition("/")
        if first and first.lower() in {locale.lower() for locale in locales}:
            found = _family(layout, rest, root=root, route_base=route_base)
    return found
