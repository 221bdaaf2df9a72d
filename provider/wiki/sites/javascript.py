"""Docusaurus and Starlight: configuration written in JavaScript, never evaluated.

``docusaurus.config.js`` and ``astro.config.mjs`` are programs; running them to learn
what they publish would run a repository's code. They are read as text only, for the
options that change which files become pages:

* Docusaurus (``docusaurus.config.{js,cjs,mjs,ts,mts}`` at the content root): the docs,
  blog and pages plugins' ``include`` / ``exclude``, and the docs plugin's
  ``onlyIncludeVersions`` / ``includeCurrentVersion``;
* Starlight (``src/content.config.*`` or ``src/content/config.*`` of the site — the
  content root, or three folders above it when it is ``src/content/docs``): a collection
  loader with its own ``pattern`` (``glob({pattern})``), ``exclude`` or ``ignore``.

When one is set, the provider cannot know which files the tool leaves out, so it does not
guess: a :class:`~.policy.Finding` over the whole site makes every page internal and tells
the operator to give the site's sitemap (``sitemap:``), which proves publication.

What needs no configuration is a layout ignore rule (:mod:`provider.wiki.layouts`):
Docusaurus' default ``exclude`` (``**/_*.{md,mdx}``, ``**/_*/**``, ``**/__tests__/**``) and
Starlight's docs loader pattern ``**/[^_]*.{md,mdx,…}`` (a file whose name starts with
``_`` is not a page).
"""

from __future__ import annotations

import re
from pathlib import Path

from .config_files import MAX_CONFIG_BYTES, ConfigError, read_bytes
from .policy import Finding

__all__ = ["read_javascript"]

_DOCUSAURUS = tuple(f"docusaurus.config.{ext}" for ext in ("js", "cjs", "mjs", "ts", "mts"))
_ASTRO_CONTENT = tuple(f"src/{stem}.{ext}" for stem in ("content.config", "content/config")
                       for ext in ("ts", "mts", "js", "mjs"))
_DOCUSAURUS_KEYS = ("exclude", "include", "onlyIncludeVersions", "includeCurrentVersion")
_ASTRO_KEYS = ("pattern", "exclude", "ignore")
_COMMENTS = re.compile(r"/\*.*?\*/|(?<![:\\])//[^\n]*", re.S)


def _keys(text: str, keys: tuple[str, ...]) -> list[str]:
    code = _COMMENTS.sub("", text)
    return [key for key in keys if re.search(rf"""(?:^|[\s{{,(])['"]?{key}['"]?\s*:""", code)]


def _scan(path: Path, name: str, keys: tuple[str, ...], what: str) -> Finding | None:
    try:
        data = read_bytes(path)
    except (OSError, ConfigError) as exc:
        return Finding(name, f"{name} cannot be read ({exc}): every page is internal until it can be read")
    found = _keys(data.decode("utf-8", errors="replace"), keys)
    if len(data) > MAX_CONFIG_BYTES:
        found = found or ["(too large to scan)"]
    if not found:
        return None
    return Finding(name, f"{name} sets {', '.join(found)} ({what}); it is JavaScript, which the provider does not "
                         "evaluate, so which files the site leaves out is unknown: every page is internal until the "
                         "site's sitemap is given (sitemap:)", sitemap_settles=True)


def read_javascript(root: Path, tool: str) -> tuple[list[str], list[Finding]] | None:
    """``(sources, findings)`` for a Docusaurus (``tool="docusaurus"``) or Starlight
    (``"starlight"``) site around ``root``, or ``None`` when no configuration file is found."""
    candidates: tuple[str, ...]
    keys: tuple[str, ...]
    if tool == "docusaurus":
        site, candidates, keys, what = root, _DOCUSAURUS, _DOCUSAURUS_KEYS, "options of the docs/blog/pages plugins"
    else:
        parts = root.resolve().parts
        site = root.parents[2] if parts[-3:] == ("src", "content", "docs") else root
        candidates, keys, what = _ASTRO_CONTENT, _ASTRO_KEYS, "a content collection loader's files"
    found = [(site / c, c if site == root else f"{c} (site root)") for c in candidates if (site / c).exists()]
    if not found:
        return None
    findings = [f for path, name in found if (f := _scan(path, name, keys, what)) is not None]
    return [name for _, name in found], findings
