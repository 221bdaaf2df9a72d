"""Layout presets: how the docs repositories of common tools are laid out.

``layout:`` in the configuration names one of :data:`LAYOUTS`. A layout decides, for a
repository as its tool leaves it (no file edits):

* where paths name a locale (:mod:`provider.wiki.locale_patterns`), unless the operator
  configures ``locale_patterns`` explicitly, which then *replace* the layout's;
* which file extensions are pages, and which front matter formats are read;
* which text cleaners run on the markdown (:mod:`provider.wiki.dialects`);
* which folders are not content (build output, templates, partials) and are skipped;
* tool conventions: section pages and page bundles (``_index.md``, ``index.md``),
  Hugo ``cascade``, dated post names, Docusaurus folder-relative ``id``.

``plain`` is the behaviour the provider had before layouts existed.

Withholding front matter (``draft``, ``published: false``, ``unlisted``, Hugo ``build``,
``headless``, ``publishDate``/``expiryDate``) is honoured in *every* layout: honouring it
can only serve less (fail closed), never more.
"""

from __future__ import annotations

from dataclasses import dataclass

from .locale_patterns import PLAIN_PATTERNS, LocalePattern, parse_locale_pattern
from .plaintext import PLAIN_TEXT, TextOptions

__all__ = ["DEFAULT_LAYOUT", "LAYOUTS", "Layout", "get_layout"]


@dataclass(frozen=True)
class Layout:
    """A preset (see the module docstring).

    Attributes:
        name: the configuration value.
        locale_patterns: tried in order, first match wins.
        extensions: page file extensions, lower case.
        dialects: names of text cleaners from :mod:`provider.wiki.dialects`, in order.
        index_names: file stems (lower case) that stand for their folder: a page bundle's
            ``index.md`` gets the folder's id and readable name.
        section_names: file stems of section pages whose ``cascade`` front matter applies
            to the section (empty: ``cascade`` is not read).
        ignore: ``(glob, reason)``: paths matching a glob (folders end in ``/**``) are
            skipped and reported with the reason.
        draft_folders: folder names whose files are drafts, never served (Jekyll
            ``_drafts``).
        dated_names: file names ``YYYY-MM-DD-slug`` carry the page's date (Jekyll posts,
            Docusaurus blog); the slug is the readable name.
        posts_folder: a folder whose dated files are posts with a future date withheld
            (Jekyll ``_posts``, whose default is ``future: false``), or ``""``.
        date_is_publish_date: front matter ``date`` stands in for ``publishDate`` when
            that is absent (Hugo's default), so a future ``date`` withholds.
        id_relative_to_folder: front matter ``id`` names the page inside its folder
            (Docusaurus), so the documentId is ``folder/id``.
        number_prefixes: ordering prefixes (``01-intro``) are dropped from readable names.
        params_key: a front matter key whose mapping also holds page keys (Hugo ``params``).
        translations_need_source: path prefixes of translations the tool builds only
            when their source page exists (Docusaurus ``i18n/``): one without a source
            in its translation group is not a page, so it is not served.
        translations_by_file: a translation under ``translations_need_source`` is built
            only for the source file at the same path, extension included (Docusaurus
            looks each ``docs/`` file up in the locale's folder).
        bundle_resources: markdown files inside a leaf bundle (a folder with an
            ``index.md``) other than the index are page resources, not pages (Hugo).
        needs_front_matter: a file without front matter is not rendered as a page (Jekyll
            copies it as a static file).
        url_rules: how the tool makes a page's URL path from its file (``hugo``,
            ``docusaurus``, ``starlight``, ``mkdocs``, ``jekyll``, ``docfx``, or ``""`` for the path as
            it is; :func:`provider.wiki.citations.url_inputs`).
        url_pattern: the citation path pattern matching the tool's default URLs.
        locale_prefix_default: the default locale's pages are under a locale folder in
            URLs too (Starlight without a ``root`` locale).
        site_cascade: the site configuration's ``cascade`` applies (Hugo,
            :mod:`provider.wiki.hugo_site`).
        text: what the tool does to text plain Markdown leaves alone
            (:class:`~provider.wiki.plaintext.TextOptions`: templates inside code, tags that
            are not HTML).
        anchors: how the tool makes heading anchors (:mod:`provider.wiki.anchors`):
            ``github`` or ``python-markdown``.
    """

    name: str
    locale_patterns: tuple[LocalePattern, ...] = PLAIN_PATTERNS
    extensions: tuple[str, ...] = (".md", ".markdown")
    dialects: tuple[str, ...] = ()
    index_names: tuple[str, ...] = ()
    section_names: tuple[str, ...] = ()
    ignore: tuple[tuple[str, str], ...] = ()
    draft_folders: tuple[str, ...] = ()
    dated_names: bool = False
    posts_folder: str = ""
    date_is_publish_date: bool = False
    id_relative_to_folder: bool = False
    number_prefixes: bool = False
    params_key: str = ""
    translations_need_source: tuple[str, ...] = ()
    translations_by_file: bool = False
    bundle_resources: bool = False
    needs_front_matter: bool = False
    url_rules: str = ""
    url_pattern: str = "/{path}"
    locale_prefix_default: bool = False
    site_cascade: bool = False
    text: TextOptions = PLAIN_TEXT
    anchors: str = "github"

    def dialects_for(self, relpath: str) -> tuple[str, ...]:
        """The text cleaners for the file at ``relpath`` (POSIX, any case): the layout's,
        after the ``mdx`` cleaner for an ``.mdx`` file when none of them reads MDX (the
        plain layout), so its expressions and comments are blanked as the tools that
        read MDX blank them."""
        if relpath.lower().endswith(".mdx") and "docusaurus" not in self.dialects:
            return ("mdx", *self.dialects)
        return self.dialects


def _patterns(*items: str | tuple[str, str]) -> tuple[LocalePattern, ...]:
    return tuple(
        parse_locale_pattern(item) if isinstance(item, str) else parse_locale_pattern(item[0], item[1])
        for item in items
    )


# No docs tool: an .mdx file is read as MDX (Layout.dialects_for), so that no page the
# folder holds goes unseen.
PLAIN = Layout(name="plain", extensions=(".md", ".mdx", ".markdown"))

HUGO = Layout(
    name="hugo",
    # The content folder may be the site root (content/de/…) or the content dir (de/…).
    locale_patterns=_patterns("**.{locale}", "content/{locale}/**", "{locale}/**"),
    dialects=("hugo", "heading_attributes"),
    index_names=("index", "_index"),
    section_names=("_index",),
    ignore=tuple(
        (f"{folder}/**", f"not content in a Hugo site ({folder}/)")
        for folder in ("archetypes", "layouts", "themes", "public", "resources", "assets", "static", "data", "i18n")
    ),
    date_is_publish_date=True,
    params_key="params",
    bundle_resources=True,
    url_rules="hugo",
    url_pattern="/{locale_prefix}{path}/",
    site_cascade=True,
    text=TextOptions(code_templates="hugo"),
)

DOCUSAURUS = Layout(
    name="docusaurus",
    locale_patterns=_patterns(
        ("i18n/{locale}/docusaurus-plugin-content-docs/current/**", "docs/**"),
        # A released version's translations (version-1.0/…) mirror versioned_docs/version-1.0/;
        # the site policy skips the folders of versions Docusaurus does not build.
        ("i18n/{locale}/docusaurus-plugin-content-docs/**", "versioned_docs/**"),
        ("i18n/{locale}/docusaurus-plugin-content-blog/**", "blog/**"),
        ("i18n/{locale}/docusaurus-plugin-content-pages/**", "src/pages/**"),
    ),
    extensions=(".md", ".mdx", ".markdown"),
    dialects=("docusaurus", "heading_attributes"),
    translations_need_source=("i18n/",),
    translations_by_file=True,
    index_names=("index", "readme"),
    ignore=(
        ("build/**", "Docusaurus build output (build/)"),
        ("static/**", "static files, not pages (static/)"),
        ("**/_*/**", "Docusaurus ignores folders starting with _ (partials)"),
        ("**/_*", "Docusaurus ignores files starting with _ (partials)"),
    ),
    dated_names=True,
    id_relative_to_folder=True,
    number_prefixes=True,
    url_rules="docusaurus",
    url_pattern="/{locale_prefix}{path}",
)

JEKYLL = Layout(
    name="jekyll",
    locale_patterns=_patterns("{locale}/**"),
    dialects=("kramdown", "heading_attributes"),
    index_names=("index",),
    ignore=tuple(
        (f"{folder}/**", f"not content in a Jekyll site ({folder}/)")
        for folder in ("_site", "_includes", "_layouts", "_sass", "_data", "_plugins", "vendor")
    ),
    draft_folders=("_drafts",),
    dated_names=True,
    posts_folder="_posts",
    needs_front_matter=True,
    url_rules="jekyll",
    text=TextOptions(code_templates="liquid"),
)

MKDOCS = Layout(
    name="mkdocs",
    # mkdocs-static-i18n: suffix structure (page.de.md) or folder structure (docs/de/…).
    locale_patterns=_patterns("**.{locale}", "docs/{locale}/**", "{locale}/**"),
    dialects=("mkdocs", "heading_attributes"),
    index_names=("index", "readme"),
    ignore=(
        ("site/**", "MkDocs build output (site/)"),
        ("overrides/**", "theme overrides, not pages (overrides/)"),
    ),
    number_prefixes=True,
    url_rules="mkdocs",
    # mkdocs-static-i18n serves the default language at the root, the others under /<lang>/.
    url_pattern="/{locale_prefix}{path}/",
    anchors="python-markdown",
)

DOCFX = Layout(
    name="docfx",
    dialects=("docfx", "heading_attributes"),
    index_names=("index",),
    ignore=(
        ("_site/**", "DocFX build output (_site/)"),
        ("_themes/**", "DocFX themes, not pages (_themes/)"),
        ("obj/**", "DocFX intermediate files (obj/)"),
        ("**/includes/**", "include fragments ([!INCLUDE]), not pages; their text is not inlined into the "
                            "pages that include them (each such page is warned: not-inlined)"),
    ),
    url_rules="docfx",
    text=TextOptions(unknown_tags_as_text=True),
)

STARLIGHT = Layout(
    name="starlight",
    # Point content at the site root (src/content/docs/<locale>/…) or at src/content/docs.
    locale_patterns=_patterns("src/content/docs/{locale}/**", "{locale}/**"),
    extensions=(".md", ".mdx", ".markdown"),
    # Starlight asides (:::tip[Title]) are Docusaurus admonitions; MDX throughout. No
    # heading attributes: Astro makes every heading id from its text.
    dialects=("docusaurus",),
    index_names=("index",),
    ignore=(
        ("dist/**", "Astro build output (dist/)"),
        ("public/**", "static files, not pages (public/)"),
        ("src/components/**", "Astro components, not pages (src/components/)"),
        ("src/content/i18n/**", "UI strings, not pages (src/content/i18n/)"),
        ("**/_*", "Starlight's docs loader skips files whose names start with _ (pattern **/[^_]*.md…)"),
    ),
    url_rules="starlight",
    url_pattern="/{locale_prefix}{path}/",
    locale_prefix_default=True,
)

LAYOUTS: dict[str, Layout] = {
    layout.name: layout for layout in (PLAIN, HUGO, DOCUSAURUS, JEKYLL, MKDOCS, DOCFX, STARLIGHT)
}
DEFAULT_LAYOUT = "plain"


def get_layout(name: str) -> Layout:
    """The layout called ``name``.

    Raises:
        KeyError: no such layout.
    """
    return LAYOUTS[name]
