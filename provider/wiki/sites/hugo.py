"""Hugo: what it builds content from, ``ignoreFiles`` and ``module.mounts`` (the site configuration's ``cascade`` is
read by :mod:`provider.wiki.hugo_site`, page ``build``/``_build`` by
:mod:`provider.wiki.publication`).

The site root is the content root, or its parent when the content root is the
``content`` folder. Configuration read: ``hugo.toml|yaml|json`` (else
``config.toml|yaml|json``) at the site root, and in ``config/_default/`` and
``config/production/`` the files ``hugo.*``, ``config.*``, ``module.*`` (whose
``mounts`` is the module's) and ``languages.*`` (whose keys are the languages).

* What is built: Hugo reads pages only from ``contentDir`` (default ``content``), per
  language from ``languages.<lang>.contentDir`` when set, or, when a mount targets
  ``content``, from the mounts' sources; any other file (a root ``README.md``, ``notes/``,
  ``archetypes/``) is "not in Hugo's contentDir". A language in ``disableLanguages`` or
  with ``languages.<lang>.disabled`` is not built: its own content folder (or mount with
  ``lang``) and its translations by file name (``page.de.md``) anywhere are withheld
  ("language de is disabled"). A ``contentDir``, ``languages`` or ``disableLanguages`` of
  another shape is a finding (fail closed).

* ``ignoreFiles``: regular expressions (Go RE2, compiled by RE2: :mod:`.go_regex`) searched in each file's
  absolute path; every list found is applied (a union: it can only exclude more).
* ``module.mounts``: when a mount targets ``content``, Hugo drops its default content
  mount, so a file under ``content/`` that no content mount's ``source`` holds is not
  built; below a mount's source, ``includeFiles`` (when given) must match the path
  relative to the source and ``excludeFiles`` must not (globs; a pattern matching a
  folder covers what is below; letters compared whatever their case, as Hugo's
  mount filters lower-case both sides). The last ``mounts`` list read wins, as in Hugo's
  environment overrides.

A file that cannot be read, a regular expression RE2 does not accept, or mounts of
another shape are a :class:`~.policy.Finding` over the whole content root.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from .config_files import ConfigError, read_config
from .go_regex import GoRegexError, compile_go
from .policy import Finding, PathRule

__all__ = ["goldmark_shows_raw_html", "read_hugo"]

_FORMATS = ("toml", "yaml", "yml", "json")
ENVIRONMENT = "production"


def _site(root: Path) -> tuple[Path, str]:
    """``(site root, the content root's path below it with a trailing / or "")``."""
    if root.name == "content":
        return root.parent, "content/"
    return root, ""


def _files(site: Path) -> list[tuple[Path, str]]:
    """``(file, what it holds: "site", "module" or "languages")`` in the order Hugo reads them."""
    found: list[tuple[Path, str]] = []
    top = next((site / f"{n}.{f}" for n in ("hugo", "config") for f in _FORMATS if (site / f"{n}.{f}").exists()), None)
    if top is not None:
        found.append((top, "site"))
    for folder in ("_default", ENVIRONMENT):
        base = site / "config" / folder
        for stem, kind in (("hugo", "site"), ("config", "site"), ("module", "module"), ("languages", "languages")):
            found += [(base / f"{stem}.{f}", kind) for f in _FORMATS if (base / f"{stem}.{f}").exists()]
    return found


def _get(data: Mapping[str, Any], key: str) -> Any:
    return next((v for k, v in data.items() if isinstance(k, str) and k.lower() == key.lower()), None)


def _strings(value: Any) -> list[str] | None:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    return None


def read_hugo(root: Path) -> tuple[list[str], list[PathRule], list[Finding]] | None:
    """``(sources, excluded, findings)`` for a Hugo site around ``root``, or ``None`` when
    no configuration file is found."""
    site, content_prefix = _site(root)
    files = _files(site)
    if not files:
        return None
    names = [str(path.relative_to(site)) for path, _ in files]
    ignore: list[tuple[str, str]] = []
    mounts: tuple[str, Any] | None = None
    built = _Built()
    for (path, kind), name in zip(files, names, strict=True):
        try:
            data = read_config(path)
        except (ConfigError, FileNotFoundError) as exc:
            return names, [], [Finding(name, f"{name} {exc}: every page is internal until it is fixed")]
        if data is None:
            continue
        if not isinstance(data, Mapping):
            return names, [], [Finding(name, f"{name} is not a mapping: every page is internal until it is fixed")]
        error = built.read(data, name, languages_file=kind == "languages")
        if error is not None:
            return names, [], [Finding(name, f"{error}; every page is internal until it is fixed")]
        if kind == "languages":
            continue
        patterns = _strings(_get(data, "ignoreFiles"))
        if patterns is None:
            return names, [], [Finding(name, f"{name} ignoreFiles is not a list of regular expressions; every page "
                                             "is internal until it is fixed")]
        ignore += [(p, name) for p in patterns]
        module = data if kind == "module" else _get(data, "module")
        if isinstance(module, Mapping) and _get(module, "mounts") is not None:
            mounts = (name, _get(module, "mounts"))
    rules: list[PathRule] = []
    findings: list[Finding] = []
    prefix = str(root.resolve()) + "/"
    for pattern, name in ignore:
        try:
            compile_go(pattern)
        except GoRegexError as exc:
            findings.append(Finding(name, f"{name} ignoreFiles {pattern!r} is not a Go (RE2) regular expression "
                                          f"({exc}); every page is internal until it is fixed"))
            continue
        rules.append(PathRule("goregex", (pattern,), f"ignored by {name} ignoreFiles: {pattern}", prefix=prefix))
    content_mounts: list[tuple[str, str]] | None = None
    if mounts is not None:
        more_rules, more_findings = _mount_rules(mounts[0], mounts[1], content_prefix)
        rules += more_rules
        findings += more_findings
        content_mounts = _content_sources(mounts[1])
    rules += built.rules(content_prefix, content_mounts)
    return names, rules, findings


class _Built:
    """What Hugo builds content from: ``contentDir``, ``languages.<lang>.contentDir``,
    and the languages it does not build (``disableLanguages``,
    ``languages.<lang>.disabled``). Later files override earlier ones, key by key, as
    Hugo merges its configuration."""

    def __init__(self) -> None:
        self.content_dir = "content"
        self.languages: dict[str, dict[str, Any]] = {}
        self.disabled: set[str] = set()

    def read(self, data: Mapping[str, Any], name: str, *, languages_file: bool) -> str | None:
        """Merge one configuration file; an error message when a key has a shape Hugo
        would not accept (the caller fails closed)."""
        if not languages_file:
            content_dir = _get(data, "contentDir")
            if content_dir is not None:
                if not isinstance(content_dir, str) or not content_dir.strip("/ "):
                    return f"{name} contentDir is not a folder name"
                self.content_dir = content_dir
            disable = _strings(_get(data, "disableLanguages"))
            if disable is None:
                return f"{name} disableLanguages is not a list of language names"
            self.disabled |= {lang.lower() for lang in disable}
        languages = data if languages_file else _get(data, "languages")
        if languages is None:
            return None
        if not isinstance(languages, Mapping):
            return f"{name} languages is not a mapping"
        for lang, settings in languages.items():
            if not isinstance(settings, Mapping):
                return f"{name} languages.{lang} is not a mapping"
            merged = self.languages.setdefault(str(lang).lower(), {})
            content_dir = _get(settings, "contentDir")
            if content_dir is not None:
                if not isinstance(content_dir, str) or not content_dir.strip("/ "):
                    return f"{name} languages.{lang}.contentDir is not a folder name"
                merged["contentDir"] = content_dir
            disabled = _get(settings, "disabled")
            if disabled is not None:
                if not isinstance(disabled, bool):
                    return f"{name} languages.{lang}.disabled is not true or false"
                merged["disabled"] = disabled
        return None

    def rules(self, content_prefix: str, content_mounts: list[tuple[str, str]] | None) -> list[PathRule]:
        """Rules over paths relative to the content root (``content_prefix`` turns them
        into paths relative to the site root): a file outside every folder Hugo builds
        content from is not built; a file of a disabled language is not built."""
        off = {lang for lang, settings in self.languages.items() if settings.get("disabled")} | self.disabled
        folders: dict[str, set[str]] = {}  # site-relative folder -> the languages built from it
        if content_mounts is not None:
            for source, lang in content_mounts:
                folders.setdefault(source, set()).add(lang.lower() or "*")
        elif self.languages:
            for lang, settings in self.languages.items():
                folder = _folder(settings.get("contentDir", self.content_dir))
                folders.setdefault(folder, set()).add(lang)
        else:
            folders[_folder(self.content_dir)] = {"*"}
        rules: list[PathRule] = []
        shown = ", ".join(f"{folder}/" for folder in sorted(folders))
        if content_mounts is None and "" not in folders:
            # With mounts, _mount_rules already withholds content/ outside them; this rule
            # covers the rest of the site root (README.md, notes/, archetypes/).
            rules.append(PathRule("glob", tuple(sorted(folders)), f"not in Hugo's contentDir ({shown}): Hugo does not "
                                  "build it", prefix=content_prefix, invert=True))
        elif content_mounts is not None and "" not in folders:
            rules.append(PathRule("glob", (*sorted(folders), "content"), f"not in Hugo's contentDir or a "
                                  f"content mount ({shown}): Hugo does not build it", prefix=content_prefix,
                                  invert=True))
        for folder, langs in sorted(folders.items()):
            gone = sorted(langs & off)
            if gone and not langs - off and folder:
                rules.append(PathRule("glob", (folder,), f"language {', '.join(gone)} is disabled "
                                      f"({folder}/ is its contentDir): Hugo does not build it", prefix=content_prefix))
        for lang in sorted(off):
            # A translation by file name (page.de.md) in any content folder.
            rules.append(PathRule("regex", (rf"(?i)\.{re.escape(lang)}\.[^/.]+$",), f"language {lang} is disabled "
                                  f"(a {lang} translation by file name): Hugo does not build it",
                                  prefix=content_prefix))
        return rules


def _folder(value: str) -> str:
    return value.strip().strip("/").removeprefix("./").rstrip("/")


def _content_sources(raw: Any) -> list[tuple[str, str]] | None:
    """``(source folder, lang)`` of each mount whose target is ``content``; ``None`` when
    there is none (Hugo keeps its default content mounts) or the list has another shape
    (reported by :func:`_mount_rules`)."""
    if not isinstance(raw, list) or not all(isinstance(m, Mapping) for m in raw):
        return None
    out = []
    for mount in raw:
        source, target, lang = _get(mount, "source"), _get(mount, "target"), _get(mount, "lang")
        if not isinstance(source, str) or not isinstance(target, str):
            return None
        target = target.strip("/")
        if target == "content" or target.startswith("content/"):
            out.append((_folder(source), lang if isinstance(lang, str) else ""))
    return out or None


def _mount_rules(name: str, raw: Any, content_prefix: str) -> tuple[list[PathRule], list[Finding]]:
    if not isinstance(raw, list) or not all(isinstance(m, Mapping) for m in raw):
        return [], [Finding(name, f"{name} module.mounts is not a list of mappings; every page is internal until it "
                                  "is fixed")]
    content = []
    for mount in raw:
        source, target = _get(mount, "source"), _get(mount, "target")
        include, exclude = _strings(_get(mount, "includeFiles")), _strings(_get(mount, "excludeFiles"))
        if not isinstance(source, str) or not isinstance(target, str) or include is None or exclude is None:
            return [], [Finding(name, f"{name} module.mounts has a mount without source/target strings or with "
                                      "includeFiles/excludeFiles that are not globs; every page is internal")]
        target = target.strip("/")
        if target == "content" or target.startswith("content/"):
            content.append((source.strip("/").removeprefix("./"), include, exclude))
    if not content:
        return [], []  # Hugo keeps its default content mount
    # Paths of our files are relative to the content root: ``content/`` itself (prefix
    # "content/"), or the site root, where the content folder is ``content/``.
    content_base = "" if content_prefix else "content/"
    rules: list[PathRule] = []
    inside: list[str] = []
    for source, include, exclude in content:
        if source == "content":
            below = ""
        elif source.startswith("content/"):
            below = source.removeprefix("content/") + "/"
        else:
            continue  # a source outside content/ holds none of the files read here
        inside.append(below.rstrip("/"))
        base = content_base + below
        if include:
            rules.append(PathRule("glob", tuple(p.lstrip("/") for p in include),
                                  f"not in {name} module.mounts includeFiles of {source}", base=base, invert=True,
                                  casefold=True))
        for pattern in exclude:
            rules.append(PathRule("glob", (pattern.lstrip("/"),),
                                  f"excluded by {name} module.mounts excludeFiles of {source}: {pattern}", base=base,
                                  casefold=True))
    if "" not in inside:
        rules.insert(0, PathRule("glob", ("**",), f"not mounted as content ({name} module.mounts)", base=content_base,
                                 unless=tuple(inside)))
    return rules, []


def goldmark_shows_raw_html(root: Path) -> bool:
    """Whether the Hugo site of content root ``root`` renders raw HTML written in its
    Markdown: only with ``markup.goldmark.renderer.unsafe = true`` (in the site's
    configuration files, or ``config/<env>/markup.*``); by default Goldmark puts
    ``<!-- raw HTML omitted -->`` in its place, so its text is shown to no reader. The
    last value read wins (environment overrides); a file that cannot be read counts as
    not shown (fail closed: the text is not proof of publication). With no configuration
    file found the HTML counts as shown."""
    site = _site(root)[0]
    files: list[tuple[Path, bool]] = [(path, False) for path, kind in _files(site) if kind == "site"]
    for folder in ("_default", ENVIRONMENT):
        base = site / "config" / folder
        files += [(base / f"markup.{f}", True) for f in _FORMATS if (base / f"markup.{f}").exists()]
    # Hugo reads the top-level file, then config/_default, then the environment's folder.
    order = {"_default": 1, ENVIRONMENT: 2}
    files.sort(key=lambda item: order.get(item[0].parent.name, 0) if item[0].parent.parent.name == "config" else 0)
    if not files:
        # No configuration beside the content (a folder read without its site): nothing
        # says the site is Hugo's default, and the HTML's text is read as before.
        return True
    try:
        stamps = tuple((str(path), markup_file, path.stat().st_mtime_ns) for path, markup_file in files)
    except OSError:
        return False
    return _raw_html_in(stamps)


@lru_cache(maxsize=32)
def _raw_html_in(files: tuple[tuple[str, bool, int], ...]) -> bool:
    shown = False
    for name, markup_file, _ in files:
        path = Path(name)
        try:
            data = read_config(path)
        except (ConfigError, OSError):
            return False
        node: Any = data if markup_file else (_get(data, "markup") if isinstance(data, Mapping) else None)
        for key in ("goldmark", "renderer", "unsafe"):
            node = _get(node, key) if isinstance(node, Mapping) else None
        if isinstance(node, bool):
            shown = node
        elif isinstance(node, str) and node.strip() in _GO_BOOLS:
            # Hugo decodes its configuration weakly typed: unsafe = "true" is true (Go's
            # strconv.ParseBool spellings).
            shown = _GO_BOOLS[node.strip()]
    return shown


_GO_BOOLS = {**dict.fromkeys(("1", "t", "T", "TRUE", "true", "True"), True),
             **dict.fromkeys(("0", "f", "F", "FALSE", "false", "False"), False)}
