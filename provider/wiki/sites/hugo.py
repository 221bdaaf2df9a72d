"""Hugo: ``ignoreFiles`` and ``module.mounts`` (the site configuration's ``cascade`` is
read by :mod:`provider.wiki.hugo_site`, page ``build``/``_build`` by
:mod:`provider.wiki.publication`).

The site root is the content root, or its parent when the content root is the
``content`` folder. Configuration read: ``hugo.toml|yaml|json`` (else
``config.toml|yaml|json``) at the site root, and in ``config/_default/`` and
``config/production/`` the files ``hugo.*``, ``config.*`` and ``module.*`` (whose
``mounts`` is the module's).

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

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .config_files import ConfigError, read_config
from .go_regex import GoRegexError, compile_go
from .policy import Finding, PathRule

__all__ = ["read_hugo"]

_FORMATS = ("toml", "yaml", "yml", "json")
ENVIRONMENT = "production"


def _site(root: Path) -> tuple[Path, str]:
    """``(site root, the content root's path below it with a trailing / or "")``."""
    if root.name == "content":
        return root.parent, "content/"
    return root, ""


def _files(site: Path) -> list[tuple[Path, bool]]:
    """``(file, is a module.* file)`` in the order Hugo reads them."""
    found: list[tuple[Path, bool]] = []
    top = next((site / f"{n}.{f}" for n in ("hugo", "config") for f in _FORMATS if (site / f"{n}.{f}").exists()), None)
    if top is not None:
        found.append((top, False))
    for folder in ("_default", ENVIRONMENT):
        base = site / "config" / folder
        for stem, is_module in (("hugo", False), ("config", False), ("module", True)):
            found += [(base / f"{stem}.{f}", is_module) for f in _FORMATS if (base / f"{stem}.{f}").exists()]
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
    for (path, is_module), name in zip(files, names, strict=True):
        try:
            data = read_config(path)
        except (ConfigError, FileNotFoundError) as exc:
            return names, [], [Finding(name, f"{name} {exc}: every page is internal until it is fixed")]
        if data is None:
            continue
        if not isinstance(data, Mapping):
            return names, [], [Finding(name, f"{name} is not a mapping: every page is internal until it is fixed")]
        patterns = _strings(_get(data, "ignoreFiles"))
        if patterns is None:
            return names, [], [Finding(name, f"{name} ignoreFiles is not a list of regular expressions; every page "
                                             "is internal until it is fixed")]
        ignore += [(p, name) for p in patterns]
        module = data if is_module else _get(data, "module")
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
    if mounts is not None:
        more_rules, more_findings = _mount_rules(mounts[0], mounts[1], content_prefix)
        rules += more_rules
        findings += more_findings
    return names, rules, findings


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
