"""MkDocs plugins that change which pages a site publishes.

MkDocs builds every file under ``docs_dir``; a plugin may still drop or hide pages
(``on_files``, a hook). What each listed plugin means for publication:

* known to leave every page built (``search``, ``mkdocstrings``, ``tags``…, see
  :data:`HARMLESS`): nothing;
* read by the provider: ``i18n`` and ``meta`` (:mod:`.mkdocs`), and ``exclude``
  (mkdocs-exclude): its ``glob`` patterns (Python ``fnmatch`` over the path below
  ``docs_dir``, ``*`` crossing ``/``) and ``regex`` patterns (``re.match`` from the start)
  are pages MkDocs does not build; ``blog`` with its default ``draft`` handling (a post
  with ``draft: true`` is withheld as a draft by :mod:`provider.wiki.publication`);
* anything else — ``exclude-search``, ``awesome-pages`` (``.pages`` ``hide``),
  ``mkdocs-simple-hooks``, ``blog`` with ``draft_if_future_date``, any plugin the provider
  does not know, options of a read plugin it cannot read — is a
  :class:`~.policy.Finding` naming the plugin: which pages it drops or hides is not known,
  so every page is internal until the site's sitemap (which proves publication) is given.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Mapping
from typing import Any

from .policy import Finding, PathRule

__all__ = ["HARMLESS", "plugin_rules"]

#: Plugins that never drop or hide a built page (``material/`` names too).
HARMLESS = frozenset({
    "search", "mkdocstrings", "autorefs", "tags", "social", "offline", "privacy", "optimize", "minify",
    "redirects", "git-revision-date-localized", "git-revision-date", "git-committers", "git-authors",
    "glightbox", "section-index", "gen-files", "include-markdown", "mermaid2", "swagger-ui-tag", "rss",
    "typeset", "info", "termynal", "codeinclude", "table-reader", "markdown-exec", "literate-nav", "macros",
})
#: Read elsewhere (:mod:`.mkdocs`).
_READ_ELSEWHERE = frozenset({"i18n", "meta"})
_BLOG_HIDING = ("draft_if_future_date", "draft_on_serve")


def _entries(plugins: Any) -> list[tuple[str, Any]]:
    """``(name, options)`` for each plugin, in either form MkDocs accepts (a list of names
    or one-key mappings, or a mapping)."""
    if isinstance(plugins, Mapping):
        return [(str(key), value) for key, value in plugins.items()]
    out: list[tuple[str, Any]] = []
    for item in plugins if isinstance(plugins, list) else []:
        if isinstance(item, str):
            out.append((item, None))
        elif isinstance(item, Mapping):
            out += [(str(key), value) for key, value in item.items()]
        else:
            out.append((repr(item), None))
    return out


def _patterns(options: Mapping[str, Any], key: str) -> tuple[str, ...] | None:
    value = options.get(key)
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return tuple(value)
    return None


def _compiles(pattern: str) -> bool:
    try:
        re.compile(pattern)
    except re.error:
        return False
    return True


def plugin_rules(plugins: Any, name: str, base: str) -> tuple[list[PathRule], list[Finding]]:
    """``(rules, findings)`` for the ``plugins:`` value of ``name`` (the configuration
    file), pages relative to ``base`` (``docs_dir/``)."""
    rules: list[PathRule] = []
    findings: list[Finding] = []
    if plugins is not None and not isinstance(plugins, list | Mapping):
        plugins = [plugins]
    for plugin, options in _entries(plugins):
        short = plugin.removeprefix("material/")
        if isinstance(options, Mapping) and options.get("enabled", True) is False:
            continue
        if short in HARMLESS or short in _READ_ELSEWHERE:
            continue
        if short == "exclude" and (options is None or isinstance(options, Mapping)):
            opts = options or {}
            globs, regexes = _patterns(opts, "glob"), _patterns(opts, "regex")
            unknown = sorted(set(opts) - {"glob", "regex", "enabled"})
            if globs is not None and regexes is not None and not unknown and all(map(_compiles, regexes)):
                patterns = (*(rf"\A(?:{fnmatch.translate(g)})" for g in globs), *(rf"\A(?:{r})" for r in regexes))
                if patterns:
                    rules.append(PathRule("regex", patterns, f"excluded by {name} plugin exclude", base=base))
                continue
        if short == "blog" and (options is None or (isinstance(options, Mapping)
                                                    and not any(options.get(k) for k in _BLOG_HIDING)
                                                    and options.get("draft", False) in (False, True))):
            continue
        findings.append(Finding(name, f"{name} plugin {plugin!r} may drop or hide pages, which the provider does "
                                      "not read: every page is internal until the site's sitemap is given "
                                      "(sitemap:), which proves what was published", sitemap_settles=True))
    return rules, findings
