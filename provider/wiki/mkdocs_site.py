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
  sites do), read first and overridden key by key (a parent that does not exist is
  left out); ``markdown_extensions`` as a list or as a mapping.

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

import os
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

from .sites.config_files import steady

__all__ = ["CONFIG_NAMES", "MkDocsProject", "project_for"]

CONFIG_NAMES = ("mkdocs.yml", "mkdocs.yaml")
_MAX_CONFIG_BYTES = 1 << 20
_MAX_INHERIT = 5
_UNICODE_SLUGS = ("slugify_unicode", "uslugify", "uslugify_cased")


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
    """

    config: str
    docs_dir: str | None = "docs"
    use_directory_urls: bool = True
    slug_unicode: bool = False
    slug_separator: str = "-"
    notes: tuple[str, ...] = ()
    error: str | None = None

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


def _load(path: Path, depth: int = 0) -> dict[str, Any]:
    data = path.read_bytes()
    if len(data) > _MAX_CONFIG_BYTES:
        raise ValueError(f"larger than {_MAX_CONFIG_BYTES} bytes")
    loaded = steady(path, yaml.load(data.decode("utf-8"), Loader=_ConfigLoader))  # noqa: S506
    if loaded is None:
        loaded = {}
    if not isinstance(loaded, dict):
        raise ValueError("not a mapping")
    parent = loaded.get("INHERIT")
    if isinstance(parent, str) and depth < _MAX_INHERIT:
        try:
            base = _load((path.parent / parent).resolve(), depth + 1)
        except FileNotFoundError:  # a generated parent not in the checkout: this file still counts
            base = {}
        base.pop("docs_dir", None)  # relative to the inheriting file, where it defaults anew
        return {**base, **{k: v for k, v in loaded.items() if k != "INHERIT"}}
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
    )


_cache: dict[tuple[str, int, int], MkDocsProject] = {}


def _config_in(folder: Path) -> Path | None:
    for name in CONFIG_NAMES:
        candidate = folder / name
        if candidate.is_file():
            return candidate
    return None


def project_for(content: Path, relpath: str) -> MkDocsProject | None:
    """The MkDocs project whose docs folder holds the page ``relpath`` (POSIX, relative
    to the content folder ``content``), or ``None`` when no configuration is found or
    none holds it. Never raises."""
    parts = PurePosixPath(relpath).parts[:-1]
    folders = [content.joinpath(*parts[:n]) for n in range(len(parts), -1, -1)] + [content.parent]
    for folder in folders:
        try:
            config = _config_in(folder)
            if config is None:
                continue
            stat = config.stat()
        except OSError:
            continue
        key = (str(config), stat.st_mtime_ns, stat.st_size)
        project = _cache.get(key)
        if project is None:
            project = _cache[key] = _project(content, config)
        if project.error is not None or project.page_path(relpath) is not None:
            return project
    return None
