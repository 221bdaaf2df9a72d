"""MkDocs: what ``mkdocs.yml`` keeps off the site (MkDocs 1.5+ semantics).

* ``docs_dir`` (default ``docs``): MkDocs builds only the files under it. The
  configuration is ``mkdocs.yml`` (else ``mkdocs.yaml``) at the content root — then a
  file outside ``docs_dir`` is not a page — or in the content root's parent when the
  content root *is* its ``docs_dir``. ``INHERIT:`` is followed as MkDocs does
  (:func:`~.config_files.load_inherited`: the whole chain, deep-merged; a missing parent
  or a cycle is a finding, every page internal).
* ``exclude_docs`` and ``draft_docs``: gitignore patterns (``pathspec.GitIgnoreSpec``,
  Git's own rules) over the path below ``docs_dir``. MkDocs prepends its default
  exclusions, ``.*`` (dot files and folders) and ``/templates/``, to ``exclude_docs`` —
  a ``!`` line may re-include them, exactly as in MkDocs. ``draft_docs`` pages are built
  by ``mkdocs serve`` only: not published.
* the ``i18n`` plugin (mkdocs-static-i18n): a non-default language with ``build: false``
  is not built (its ``docs/<locale>/`` folder, or its ``page.<locale>.md`` files);
  ``languages`` as the v1 list or the older mapping of locales; any other shape is a
  finding (every page internal).
* ``.meta.yml`` per folder (the ``meta`` plugin of Material for MkDocs, when ``plugins:``
  lists ``meta`` or ``material/meta``): its keys apply to every page in the folder and
  below, nearer folders first, the page's front matter over all.
* other plugins: :mod:`.mkdocs_plugins` (``exclude`` read; one that may drop pages and
  is not read is a finding).

YAML custom tags (``!ENV``, ``!!python/name:…``) are read without evaluating anything; a
publication setting given through one (``exclude_docs: !ENV X``) cannot be known, which is
a :class:`~.policy.Finding` (every page internal) like an unreadable file.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .config_files import ConfigError, Unresolved, load_inherited, read_config
from .mkdocs_plugins import plugin_rules
from .policy import Finding, PathRule

__all__ = ["CONFIG_NAMES", "DEFAULT_EXCLUDE", "MkDocsSite", "read_mkdocs"]

CONFIG_NAMES = ("mkdocs.yml", "mkdocs.yaml")
#: ``mkdocs.structure.files._default_exclude``.
DEFAULT_EXCLUDE = (".*", "/templates/")
_META_PLUGINS = frozenset({"meta", "material/meta"})


class MkDocsSite:
    """What :func:`read_mkdocs` found (plain attributes, see there)."""

    def __init__(self, sources: list[str], excluded: list[PathRule], findings: list[Finding],
                 folder_meta: str, folder_meta_base: str) -> None:
        self.sources = sources
        self.excluded = excluded
        self.findings = findings
        self.folder_meta = folder_meta
        self.folder_meta_base = folder_meta_base


def _locate(root: Path) -> tuple[Path, str] | None:
    """``(config file, content root's path relative to the site root)``."""
    for name in CONFIG_NAMES:
        if (root / name).exists():
            return root / name, ""
    for name in CONFIG_NAMES:
        if (root.parent / name).exists():
            return root.parent / name, root.name
    return None


def _load(path: Path, parents: list[Path]) -> Any:
    return load_inherited(path, read_config, parents=parents)


def _names(root: Path, parents: list[Path]) -> list[str]:
    """The ``INHERIT`` parents as paths from the content root (``cfg/base.yml``,
    ``../base.yml`` for one beside the parent's ``mkdocs.yml``): listed as sources, and
    watched, since a change to one changes the settings."""
    return [os.path.relpath(parent, root).replace(os.sep, "/") for parent in parents]


def _lines(value: Any, key: str, name: str) -> tuple[tuple[str, ...], str | None]:
    if value is None:
        return (), None
    if isinstance(value, Unresolved):
        return (), f"{name} {key}: is given through the YAML tag {value.tag} (not evaluated)"
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        value = "\n".join(value)
    if not isinstance(value, str):
        return (), f"{name} {key}: is not gitignore lines (a string)"
    return tuple(line for line in value.splitlines() if line.strip() and not line.lstrip().startswith("#")), None


def _meta_plugin(plugins: Any) -> bool:
    items = plugins if isinstance(plugins, list) else list(plugins) if isinstance(plugins, Mapping) else []
    for item in items:
        names = [item] if isinstance(item, str) else list(item) if isinstance(item, Mapping) else []
        if any(isinstance(n, str) and n in _META_PLUGINS for n in names):
            return True
    return False


#: The meta plugin's ``meta_file`` option: a file name, optionally behind ``**/``.
_META_FILE = re.compile(r"(?:\*\*/)?([^*?\[\]/{}!]+)")


def _meta_file(plugins: Any, name: str) -> tuple[str, str | None]:
    """The file name the meta plugin reads in each folder (``.meta.yml`` unless its
    ``meta_file`` option names another), or ``""`` without the plugin; and a problem when
    an option that decides which files hold metadata cannot be read (fail closed: a folder
    file we do not read could make its pages internal)."""
    if not _meta_plugin(plugins):
        return "", None
    options = _plugin(plugins, _META_PLUGINS) or {}
    if options.get("enabled", True) is False:
        return "", None
    meta_file = options.get("meta_file", "**/.meta.yml")
    match = _META_FILE.fullmatch(meta_file) if isinstance(meta_file, str) else None
    if match is None:
        return "", f"{name} meta plugin: meta_file {meta_file!r} is not a plain file name the provider can follow"
    unknown = sorted(str(k) for k in options if k not in ("enabled", "meta_file"))
    if unknown:
        return "", f"{name} meta plugin: option(s) {', '.join(unknown)} are not read by the provider"
    return match.group(1), None


def read_mkdocs(root: Path) -> MkDocsSite | None:
    """The publication settings of an MkDocs site around ``root`` (module docstring), or
    ``None`` when there is no ``mkdocs.yml``."""
    found = _locate(root)
    if found is None:
        return None
    path, inside = found
    name = path.name if not inside else f"../{path.name}"
    parents: list[Path] = []
    try:
        data = _load(path, parents)
    except (ConfigError, FileNotFoundError) as exc:
        finding = Finding(name, f"{name} {exc}: every page is internal until it is fixed")
        return MkDocsSite([name, *_names(root, parents)], [], [finding], "", "")
    name_list = [name, *_names(root, parents)]
    if data is None:
        data = {}
    if not isinstance(data, Mapping):
        return MkDocsSite(name_list, [], [Finding(name, f"{name} is not a mapping: every page is internal")], "", "")
    problems: list[str] = []
    docs_dir = data.get("docs_dir", "docs")
    if not isinstance(docs_dir, str) or not docs_dir.strip():
        problems.append(f"{name} docs_dir: is not a folder name" +
                        (f" (YAML tag {docs_dir.tag}, not evaluated)" if isinstance(docs_dir, Unresolved) else ""))
        docs_dir = "docs"
    exclude, problem = _lines(data.get("exclude_docs"), "exclude_docs", name)
    problems += [problem] if problem else []
    drafts, problem = _lines(data.get("draft_docs"), "draft_docs", name)
    problems += [problem] if problem else []
    if problems:
        return MkDocsSite(name_list, [], [Finding(name, f"{p}; every page is internal until it is fixed (or give the "
                                                     "site's sitemap: sitemap:)") for p in problems], "", "")
    rules: list[PathRule] = []
    docs = os.path.normpath(docs_dir).replace(os.sep, "/").strip("/")
    if inside:
        if os.path.normpath(os.path.join(path.parent, docs)) != os.path.normpath(root):
            # The content root is beside docs_dir, not in it: MkDocs builds none of it.
            rules.append(PathRule("glob", ("**",), f"outside docs_dir ({docs}/ in {name}): MkDocs does not build it"))
        base = ""
    else:
        rules.append(PathRule("glob", (docs,), f"outside docs_dir ({docs}/ in {name}): MkDocs does not build it",
                              invert=True))
        base = docs + "/"
    labels = (*(f"excluded by MkDocs' default exclusion {p!r} (dot files, the top templates/ folder)"
                for p in DEFAULT_EXCLUDE),
              *(f"excluded by {name} exclude_docs: {p!r}" for p in exclude))
    rules.append(PathRule("gitignore", (*DEFAULT_EXCLUDE, *exclude), "excluded by MkDocs", base=base, labels=labels))
    if drafts:
        rules.append(PathRule("gitignore", drafts, "a draft by mkdocs.yml draft_docs (not published)", base=base,
                              labels=tuple(f"a draft by {name} draft_docs: {p!r} (built by mkdocs serve only, "
                                           "not published)" for p in drafts)))
    languages, language_problem = _unbuilt_languages(data.get("plugins"), name, base)
    rules += languages
    folder_meta, problem = _meta_file(data.get("plugins"), name)
    problem = language_problem or problem
    if problem:
        return MkDocsSite(name_list, rules, [Finding(name, f"{problem}; every page is internal until it is fixed (or "
                                                       "give the site's sitemap: sitemap:)")], "", "")
    plugin_excluded, plugin_findings = plugin_rules(data.get("plugins"), name, base)
    return MkDocsSite(name_list, rules + plugin_excluded, plugin_findings, folder_meta, base)


def _plugin(plugins: Any, names: frozenset[str]) -> Mapping[str, Any] | None:
    items = plugins if isinstance(plugins, list) else [plugins] if isinstance(plugins, Mapping) else []
    for item in items:
        if isinstance(item, Mapping):
            for key, options in item.items():
                if key in names and isinstance(options, Mapping):
                    return options
    return None


def _i18n_languages(options: Mapping[str, Any]) -> list[Mapping[str, Any]] | None:
    """The plugin's languages as v1 list items (``{locale:, build:, default:}``), or
    ``None`` when ``languages`` has a shape the provider does not know. Accepts the v1
    list and the older (0.x) mapping ``{en: english, fr: {name: …, build: false}}``,
    whose default is the ``default_language`` option."""
    languages = options.get("languages")
    if languages is None:
        return []
    if isinstance(languages, list):
        return languages if all(isinstance(item, Mapping) for item in languages) else None
    if not isinstance(languages, Mapping):
        return None
    default = options.get("default_language")
    items: list[Mapping[str, Any]] = []
    for locale, value in languages.items():
        if isinstance(value, str) or value is None:
            value = {}
        if not isinstance(value, Mapping):
            return None
        items.append({**value, "locale": locale, "default": value.get("default", locale == default)})
    return items


def _unbuilt_languages(plugins: Any, name: str, base: str) -> tuple[list[PathRule], str | None]:
    """mkdocs-static-i18n: a language with ``build: false`` is not built: its folder
    (``docs_structure: folder``) or its ``page.<locale>.md`` files (``suffix``). Returns the
    rules and a problem when the plugin's ``languages`` (or a language's ``build``/``locale``)
    has a shape the provider does not read (fail closed: a language it cannot read might
    be one left unbuilt)."""
    options = _plugin(plugins, frozenset({"i18n"}))
    if options is None or options.get("enabled", True) is False:
        return [], None
    languages = _i18n_languages(options)
    if languages is None:
        return [], (f"{name} i18n plugin: languages is neither a list of languages nor a mapping of locales "
                    "(not read by the provider)")
    folder = options.get("docs_structure", "suffix") == "folder"
    rules = []
    for language in languages:
        build, locale = language.get("build", True), language.get("locale")
        if not isinstance(build, bool) or not isinstance(locale, str) or not locale:
            return [], f"{name} i18n plugin: language {locale!r} has a locale or build the provider does not read"
        if build or language.get("default") is True:
            continue
        reason = f"{name} i18n plugin: language {locale!r} has build: false (not built)"
        pattern = f"/{locale}/" if folder else f"*.{locale}.md"
        rules.append(PathRule("gitignore", (pattern,), reason, base=base))
    return rules, None
