"""Docusaurus and Starlight: configuration written in JavaScript, never evaluated.

``docusaurus.config.js`` and ``astro.config.mjs`` are programs; running them to learn
what they publish would run a repository's code. They are read as text only, for the
options that change which files become pages:

* Docusaurus (``docusaurus.config.{ts,mts,cts,js,mjs,cjs}`` at the content root): the docs,
  blog and pages plugins' ``include`` / ``exclude``, and the docs plugin's
  ``onlyIncludeVersions`` / ``includeCurrentVersion``;
* Starlight (``src/content.config.*`` or ``src/content/config.*`` of the site — the
  content root, or three folders above it when it is ``src/content/docs``): a collection
  loader with its own ``pattern`` (``glob({pattern})``), ``exclude`` or ``ignore``.

Escapes in names are read (``"ex\\u0063lude"`` is ``exclude``). Options the provider
cannot read as a literal object — ``docs: opts``, ``["classic", require("./o")]``, a
spread (``...opts``), a computed key (``[key]: …``), a shorthand property — are a finding
of the same kind: what they hold cannot be known without running the file.

When one is set, the provider cannot know which files the tool leaves out, so it does not
guess: a :class:`~.policy.Finding` over the whole site makes every page internal and tells
the operator to give the site's sitemap (``sitemap:``), which proves publication.

What needs no configuration is a layout ignore rule (:mod:`provider.wiki.layouts`):
Docusaurus' default ``exclude`` (``**/_*.{md,mdx}``, ``**/_*/**``, ``**/__tests__/**``) and
Starlight's docs loader pattern ``**/[^_]*.{md,mdx,…}`` (a file whose name starts with
``_`` is not a page).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from .config_files import MAX_CONFIG_BYTES, ConfigError, read_bytes
from .policy import Finding

__all__ = [
    "ASTRO_CONTENT_CONFIGS",
    "DOCUSAURUS_CONFIGS",
    "DocusaurusVersions",
    "docusaurus_current_docs",
    "docusaurus_route_base_path",
    "docusaurus_trailing_slash",
    "docusaurus_version_path",
    "docusaurus_versions",
    "read_javascript",
]

#: The names Docusaurus looks for, in its order (``server/config.ts`` ``findConfig``: the
#: first that exists is the site's configuration).
DOCUSAURUS_CONFIGS = tuple(f"docusaurus.config.{ext}" for ext in ("ts", "mts", "cts", "js", "mjs", "cjs"))
_DOCUSAURUS = DOCUSAURUS_CONFIGS
#: Astro's content configuration names (``content/utils.ts``), also the legacy
#: ``src/content/config.*``.
ASTRO_CONTENT_CONFIGS = tuple(f"src/{stem}.{ext}" for stem in ("content.config", "content/config")
                       for ext in ("ts", "mts", "js", "mjs"))
_ASTRO_CONTENT = ASTRO_CONTENT_CONFIGS
_DOCUSAURUS_KEYS = ("exclude", "include", "onlyIncludeVersions", "includeCurrentVersion")
_ASTRO_KEYS = ("pattern", "exclude", "ignore")
_COMMENTS = re.compile(r"/\*.*?\*/|(?<![:\\])//[^\n]*", re.S)


_TOKEN = re.compile(r"""(?P<skip>\s+|//[^\n]*|/\*.*?\*/)
    |(?P<string>'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`)
    |(?P<spread>\.\.\.)
    |(?P<word>(?:[\w$]|\\u\{[0-9a-fA-F]+\}|\\u[0-9a-fA-F]{4})+)
    |(?P<punct>.)""", re.S | re.X)
_ESCAPE = re.compile(r"\\(?:u\{([0-9a-fA-F]+)\}|u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|(.))", re.S)
#: Packages whose options choose the files that become pages (a preset, or a content
#: plugin by its full or short name).
_OPTION_OWNERS = re.compile(r"(?:\A|/|-)(?:classic|preset-classic|content-docs|content-blog|content-pages)\Z")
_PRESET_PLUGINS = ("docs", "blog", "pages")


def _unescape(text: str) -> str:
    """A JavaScript name or string with its escapes read (``ex\\u0063lude`` is ``exclude``)."""
    def one(match: re.Match[str]) -> str:
        code = match.group(1) or match.group(2) or match.group(3)
        if code:
            return chr(int(code, 16)) if int(code, 16) <= 0x10FFFF else "\ufffd"
        return match.group(4)
    return _ESCAPE.sub(one, text)


def _tokens(code: str) -> list[tuple[str, str]]:
    """``(kind, text)`` pairs (``word``, ``string``, ``spread``, ``punct``); a string's text
    is its unescaped value, a word's its unescaped name."""
    out: list[tuple[str, str]] = []
    for match in _TOKEN.finditer(code):
        kind = match.lastgroup or "punct"
        if kind == "skip":
            continue
        text = match.group()
        out.append((kind, _unescape(text[1:-1]) if kind == "string" else _unescape(text) if kind == "word" else text))
    return out


def _keys(text: str, keys: tuple[str, ...]) -> list[str]:
    code = _COMMENTS.sub("", text)
    tokens = _tokens(text)
    named = {value for (kind, value), after in itertools.pairwise(tokens)
             if kind in ("word", "string") and after == ("punct", ":")}
    # Both readings: the tokens read escapes, the plain scan survives a tokenizer upset
    # (a regular expression literal holding a quote).
    return [key for key in keys
            if key in named or re.search(rf"""(?:^|[\s{{,(])['"]?{key}['"]?\s*:""", _unescape(code))]


def _closing(tokens: list[tuple[str, str]], start: int) -> int | None:
    """The index of the bracket closing the one at ``start``, or ``None`` when unbalanced."""
    depth = 0
    for index in range(start, len(tokens)):
        kind, text = tokens[index]
        if kind == "punct" and text in "{[(":
            depth += 1
        elif kind == "punct" and text in "}])":
            depth -= 1
            if depth == 0:
                return index
    return None


def _unfollowed(tokens: list[tuple[str, str]], start: int, end: int) -> str | None:
    """Why the object literal ``tokens[start:end + 1]`` cannot be read as plain data: a
    spread, a computed or shorthand key among its own keys — values the provider would
    have to evaluate. Deeper values (a remark plugin's options) name no option of it."""
    depth = 0
    for index in range(start, end + 1):
        kind, text = tokens[index]
        key_position = depth == 1 and tokens[index - 1] in (("punct", "{"), ("punct", ","))
        if key_position and kind == "spread":
            return "a spread (...)"
        if key_position and (kind, text) == ("punct", "["):
            return "a computed key ([…]:)"
        if kind == "punct" and text in "{[(":
            depth += 1
        elif kind == "punct" and text in "}])":
            depth -= 1
        elif key_position and kind == "word" and tokens[index + 1] in (("punct", ","), ("punct", "}")):
            return f"a shorthand property ({text})"
    return None


def _option_value(tokens: list[tuple[str, str]], index: int) -> tuple[int, int] | str:
    """The object literal starting at ``tokens[index]`` (after any ``(``) as ``(start,
    end)``, or what stands there instead."""
    while index < len(tokens) and tokens[index] == ("punct", "("):
        index += 1
    if index >= len(tokens):
        return "nothing"
    if tokens[index] != ("punct", "{"):
        return tokens[index][1]
    end = _closing(tokens, index)
    return (index, end) if end is not None else "an unbalanced object"


def _option_entries(tokens: list[tuple[str, str]]) -> Iterator[tuple[str, tuple[int, int] | str]]:
    """``(owner, options)`` of each preset or plugin entry (``["classic", {…}]`` or
    ``[require.resolve("…"), {…}]``): the owner's string and :func:`_option_value` of
    what follows its comma (a token region, or why it is not a literal object)."""
    for index, (kind, value) in enumerate(tokens):
        if kind != "string" or not _OPTION_OWNERS.search(value) or tokens[index - 1] not in (("punct", "["),
                                                                                               ("punct", "(")):
            continue
        after = index + 1
        while after < len(tokens) and tokens[after] == ("punct", ")"):
            after += 1
        if after >= len(tokens) or tokens[after] != ("punct", ","):
            continue
        yield value, _option_value(tokens, after + 1)


def _unreadable_options(text: str) -> list[str]:
    """What keeps a Docusaurus preset's ``docs``/``blog``/``pages`` options, or a content
    plugin's options, from being a literal object read in full (``docs: opts``, ``["classic",
    require("./o")]``, a spread, a computed key): each one a short description."""
    tokens = _tokens(text)
    problems: list[str] = []
    for index, (kind, value) in enumerate(tokens[:-2]):
        # ``presets: require("./presets")`` or ``presets: [classic]``: the preset entries
        # (and so their options) are elsewhere.
        if kind in ("word", "string") and value == "presets" and tokens[index + 1] == ("punct", ":"):
            entries = _closing(tokens, index + 2) if tokens[index + 2] == ("punct", "[") else None
            if entries is None:
                problems.append(f"presets is {tokens[index + 2][1]!r}, not a literal list")
                continue
            depth = 0
            for at in range(index + 2, entries):
                kind_, text_ = tokens[at]
                if depth == 1 and tokens[at - 1] in (("punct", "["), ("punct", ",")) and (
                        kind_ == "spread" or (kind_ == "word" and text_ != "require")):
                    problems.append(f"a preset is {text_!r}, not a literal entry")
                if kind_ == "punct" and text_ in "{[(":
                    depth += 1
                elif kind_ == "punct" and text_ in "}])":
                    depth -= 1
    for value, region in _option_entries(tokens):
        if isinstance(region, str):
            problems.append(f"the options of {value!r} are {region!r}, not a literal object")
            continue
        start, end = region
        why = _unfollowed(tokens, start, end)
        if why:
            problems.append(f"the options of {value!r} hold {why}")
            continue
        if not value.endswith("classic"):
            continue
        depth = 0
        for at in range(start, end):
            kind, text_ = tokens[at]
            if kind == "punct" and text_ in "{[(":
                depth += 1
            elif kind == "punct" and text_ in "}])":
                depth -= 1
            elif (depth == 1 and kind in ("word", "string") and text_ in _PRESET_PLUGINS
                  and tokens[at + 1] == ("punct", ":")):
                shown = tokens[at + 2]
                if shown[0] == "word" and shown[1] in ("false", "true", "undefined"):
                    continue
                inner = _option_value(tokens, at + 2)
                if isinstance(inner, str):
                    problems.append(f"the {text_} options of {value!r} are {inner!r}, not a literal object")
                elif why := _unfollowed(tokens, *inner):
                    problems.append(f"the {text_} options of {value!r} hold {why}")
    return problems


def _scan(path: Path, name: str, keys: tuple[str, ...], what: str) -> Finding | None:
    try:
        data = read_bytes(path)
    except (OSError, ConfigError) as exc:
        return Finding(name, f"{name} cannot be read ({exc}): every page is internal until it can be read")
    text = data.decode("utf-8", errors="replace")
    found = _keys(text, keys)
    if len(data) > MAX_CONFIG_BYTES:
        found = found or ["(too large to scan)"]
    unreadable = _unreadable_options(text) if name.startswith("docusaurus.config") else []
    if unreadable:
        return Finding(name, f"{name} cannot be read: {'; '.join(unreadable)}. It is JavaScript, which the provider "
                             "does not evaluate, so which files the site leaves out is unknown: every page is "
                             "internal until the site's sitemap is given (sitemap:)", sitemap_settles=True)
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


_token_cache: dict[str, tuple[tuple[int, int], list[tuple[str, str]]]] = {}


def _docusaurus_tokens(root: Path) -> tuple[str, list[tuple[str, str]] | None] | None:
    """``(file name, tokens)`` of the first ``docusaurus.config.*`` in ``root``, tokens
    ``None`` when it cannot be read; ``None`` when there is none. The tokens are kept per
    path while its modification time and size (nanoseconds, bytes) stay the same, since
    each page's URL asks again."""
    for name in _DOCUSAURUS:
        path = root / name
        try:
            st = path.stat()
        except OSError:
            continue
        key = (st.st_mtime_ns, st.st_size)
        cached = _token_cache.get(str(path))
        if cached is not None and cached[0] == key:
            return name, cached[1]
        try:
            tokens = _tokens(read_bytes(path).decode("utf-8", errors="replace"))
        except (OSError, ConfigError):
            return name, None
        if len(_token_cache) > 64:
            _token_cache.clear()
        _token_cache[str(path)] = (key, tokens)
        return name, tokens
    return None


def docusaurus_trailing_slash(root: Path) -> bool | str | None:
    """``trailingSlash`` of the ``docusaurus.config.*`` in ``root``: ``True``/``False`` when
    written as that literal, ``None`` when unset (or no configuration file), else what
    stands there instead (a string: not evaluated). Never raises."""
    read = _docusaurus_tokens(root)
    if read is None:
        return None
    tokens = read[1]
    if tokens is None:
        return "an unreadable configuration file"
    value: bool | str | None = None
    for index, (kind, text) in enumerate(tokens[:-2]):
        if kind in ("word", "string") and text == "trailingSlash" and tokens[index + 1] == ("punct", ":"):
            shown = tokens[index + 2]
            value = {"true": True, "false": False}.get(shown[1]) if shown[0] == "word" else None
            if value is None:
                value = shown[1] if shown[1] != "undefined" else None
    return value


def _object_key(tokens: list[tuple[str, str]], start: int, end: int, key: str) -> int | None:
    """The index of the value of ``key`` among the own keys of the object literal
    ``tokens[start:end + 1]``, or ``None``."""
    depth = 0
    for at in range(start, end):
        kind, text = tokens[at]
        if kind == "punct" and text in "{[(":
            depth += 1
        elif kind == "punct" and text in "}])":
            depth -= 1
        elif (depth == 1 and kind in ("word", "string") and text == key and tokens[at + 1] == ("punct", ":")
              and tokens[at - 1] in (("punct", "{"), ("punct", ","))):
            return at + 2
    return None


def _docs_options(tokens: list[tuple[str, str]]) -> list[tuple[int, int]]:
    """The object literals holding the default docs plugin's options: the classic
    preset's ``docs: {…}`` and a ``plugin-content-docs`` entry's options without an ``id``
    (or with ``id: 'default'``)."""
    found: list[tuple[int, int]] = []
    for value, region in _option_entries(tokens):
        if isinstance(region, str):
            continue
        if value.endswith("classic"):
            at = _object_key(tokens, *region, "docs")
            inner = _option_value(tokens, at) if at is not None else "nothing"
            if not isinstance(inner, str):
                found.append(inner)
        elif value.endswith("content-docs"):
            at = _object_key(tokens, *region, "id")
            if at is None or tokens[at] == ("string", "default"):
                found.append(region)
    return found


def docusaurus_route_base_path(root: Path) -> tuple[str | None, str | None]:
    """``(routeBasePath, problem)`` of the default docs plugin in the
    ``docusaurus.config.*`` at ``root``, read as text (never run): the value without
    leading or trailing ``/`` (``""`` for ``'/'``) when written as a string literal in the
    classic preset's ``docs`` options or a ``plugin-content-docs`` entry's;
    ``(None, None)`` when unset (Docusaurus' default, ``docs``) or when there is no
    configuration file; ``(None, why)`` when it is set to something other than a literal
    string (the URL is then unknown). Never raises."""
    read = _docusaurus_tokens(root)
    if read is None:
        return None, None
    name, tokens = read
    if tokens is None:
        return None, f"{name} cannot be read"
    value: str | None = None
    problem: str | None = None
    for start, end in _docs_options(tokens):
        at = _object_key(tokens, start, end, "routeBasePath")
        if at is None:
            continue
        kind, text = tokens[at]
        following = tokens[at + 1] if at + 1 < len(tokens) else ("punct", "}")
        # A template literal with ${…}, or a string followed by an operator, is code.
        if kind == "string" and following in (("punct", ","), ("punct", "}")) and "${" not in text:
            value = text.strip().strip("/")
        else:
            value, problem = None, f"{name}: routeBasePath is {text!r}, not a literal string"
            break
    return value, problem


def _literal(tokens: list[tuple[str, str]], at: int) -> str | bool | list[str] | None:
    """The literal at ``tokens[at]`` when it is plain data the provider can read without
    running anything — a string, ``true``/``false``, an array of strings — else ``None``."""
    kind, text = tokens[at]
    following = tokens[at + 1] if at + 1 < len(tokens) else ("punct", "}")
    ends = (("punct", ","), ("punct", "}"))
    if kind == "string" and "${" not in text and following in ends:
        return text
    if kind == "word" and text in ("true", "false") and following in ends:
        return text == "true"
    if (kind, text) == ("punct", "["):
        end = _closing(tokens, at)
        if end is None or (tokens[end + 1] if end + 1 < len(tokens) else ("punct", "}")) not in ends:
            return None
        items = tokens[at + 1:end]
        strings = [t for k, t in items if k == "string"]
        if all(k == "string" or (k, t) == ("punct", ",") for k, t in items) and all("${" not in s for s in strings):
            return strings
    return None


def _read_versions(root: Path) -> tuple[list[str] | None, str | None]:
    """The released versions in ``versions.json`` (newest first), ``[]`` without one;
    ``(None, why)`` when it cannot be read."""
    path = root / "versions.json"
    if not path.exists():
        return [], None
    try:
        import json

        data = json.loads(read_bytes(path).decode("utf-8"))
    except (OSError, ConfigError, ValueError) as exc:
        return None, f"versions.json cannot be read ({exc})"
    if not isinstance(data, list) or not all(isinstance(v, str) for v in data):
        return None, "versions.json is not a list of version names"
    return data, None


@dataclass(frozen=True)
class DocusaurusVersions:
    """The default docs plugin's versions as the site configuration and ``versions.json``
    give them (issue 24).

    Attributes:
        released: the released versions (``versions.json``, newest first).
        last: ``lastVersion`` (default: the newest released one, else ``"current"``).
        only: ``onlyIncludeVersions``, or ``None`` when unset.
        include_current: ``includeCurrentVersion`` (default ``True``).
        paths: each version's ``versions.<name>.path`` where set (``current`` among them).
        disabled: ``disableVersioning: true``: only the current docs are built (the
            released versions in ``versions.json`` are not), as the last version.
    """

    released: tuple[str, ...]
    last: str
    only: tuple[str, ...] | None = None
    include_current: bool = True
    paths: Mapping[str, str] = field(default_factory=dict)
    disabled: bool = False

    def built(self, version: str) -> str | None:
        """Why ``version`` (a released name, or ``"current"``) is not built, or ``None``."""
        if version == "current":
            if not self.include_current:
                return "includeCurrentVersion: false: the docs/ folder is not built"
        elif self.disabled:
            return f"disableVersioning: true: only the current docs are built, not version {version!r}"
        elif version not in self.released:
            return (f"version {version!r} is not in versions.json: Docusaurus does not build "
                    f"versioned_docs/version-{version}/")
        if self.only is not None and version not in self.only:
            return f"onlyIncludeVersions leaves the version {version!r} out: it is not built"
        return None

    def path(self, version: str) -> str:
        """The URL segment of ``version`` below ``routeBasePath``: its ``path`` option,
        else ``""`` for ``lastVersion``, ``next`` for the current version, its name for
        another released one (Docusaurus' ``getVersionPathPart``)."""
        if version in self.paths:
            return self.paths[version].strip("/")
        if version == self.last:
            return ""
        return "next" if version == "current" else version


def _own_keys(tokens: list[tuple[str, str]], start: int, end: int) -> list[tuple[str, int]] | None:
    """``(key, index of its value)`` of each own key of the object literal
    ``tokens[start:end + 1]``, or ``None`` when a key is not a plain name or string."""
    out: list[tuple[str, int]] = []
    depth = 0
    for at in range(start, end):
        kind, text = tokens[at]
        if kind == "punct" and text in "{[(":
            depth += 1
            if depth == 1:
                continue
        elif kind == "punct" and text in "}])":
            depth -= 1
        if depth == 1 and tokens[at - 1] in (("punct", "{"), ("punct", ",")) and (kind, text) != ("punct", "}"):
            if kind not in ("word", "string") or tokens[at + 1] != ("punct", ":"):
                return None
            out.append((text, at + 2))
    return out


def docusaurus_versions(root: Path) -> tuple[DocusaurusVersions | None, str | None]:
    """The :class:`DocusaurusVersions` of the site at ``root`` (its configuration read as
    text, never run), or ``(None, why)`` when what decides them cannot be read: an
    unreadable ``versions.json``, a version option that is not a literal. Never raises."""
    versions, problem = _read_versions(root)
    if versions is None:
        return None, problem
    default_last = versions[0] if versions else "current"
    read = _docusaurus_tokens(root)
    if read is None:
        return DocusaurusVersions(tuple(versions), default_last), None
    name, tokens = read
    if tokens is None:
        return None, f"{name} cannot be read"
    include: str | bool | list[str] | None = True
    only: str | bool | list[str] | None = None
    last: str | bool | list[str] | None = default_last
    paths: dict[str, str] = {}
    disabled: str | bool | list[str] | None = False
    last_set = False
    for start, end in _docs_options(tokens):
        if _unfollowed(tokens, start, end):
            return None, f"{name}: the docs options cannot be read as plain data"
        at = _object_key(tokens, start, end, "disableVersioning")
        if at is not None:
            disabled = _literal(tokens, at)
            if not isinstance(disabled, bool):
                return None, f"{name}: disableVersioning is not true or false"
        last_set = last_set or _object_key(tokens, start, end, "lastVersion") is not None
        for key in ("includeCurrentVersion", "onlyIncludeVersions", "lastVersion", "versions"):
            at = _object_key(tokens, start, end, key)
            if at is None:
                continue
            if key == "versions":
                region = _option_value(tokens, at)
                if isinstance(region, str) or _unfollowed(tokens, *region):
                    return None, f"{name}: versions is not a literal object"
                entries = _own_keys(tokens, *region)
                if entries is None:
                    return None, f"{name}: versions is not a literal object"
                for version, value_at in entries:
                    options = _option_value(tokens, value_at)
                    if isinstance(options, str) or _unfollowed(tokens, *options):
                        return None, f"{name}: versions.{version} is not a literal object"
                    path_at = _object_key(tokens, *options, "path")
                    if path_at is not None:
                        path = _literal(tokens, path_at)
                        if not isinstance(path, str):
                            return None, f"{name}: versions.{version}.path is not a literal string"
                        paths[version] = path
                continue
            value = _literal(tokens, at)
            if value is None:
                return None, f"{name}: {key} is {tokens[at][1]!r}, not a literal"
            include, only, last = ((value, only, last) if key == "includeCurrentVersion" else
                                   (include, value, last) if key == "onlyIncludeVersions" else (include, only, value))
    if not isinstance(include, bool):
        return None, f"{name}: includeCurrentVersion is not true or false"
    if only is not None and not isinstance(only, list):
        return None, f"{name}: onlyIncludeVersions is not a list of version names"
    if not isinstance(last, str):
        return None, f"{name}: lastVersion is not a literal string"
    if disabled:
        # Docusaurus' readVersionNames: the versions are the current one alone (it refuses
        # the option without a versions.json, or without the current version), and the
        # last version is it (a lastVersion naming another is refused too).
        if not (root / "versions.json").exists():
            return None, f"{name}: disableVersioning: true without a versions.json: Docusaurus refuses to build"
        if not include:
            return None, f"{name}: disableVersioning with includeCurrentVersion: false: no version to build"
        if last_set and last != "current":
            return None, f"{name}: disableVersioning with lastVersion {last!r}: Docusaurus refuses to build"
        last = "current"
    elif not last_set:
        # Docusaurus' getDefaultLastVersionName, over the versions onlyIncludeVersions keeps.
        names = [n for n in (*(["current"] if include else []), *versions) if only is None or n in only]
        last = names[0] if len(names) == 1 else next((n for n in names if n != "current"), default_last)
    return DocusaurusVersions(tuple(versions), last, tuple(only) if only is not None else None, include, paths,
                              disabled=bool(disabled)), None


def docusaurus_version_path(root: Path, version: str) -> tuple[str | None, str | None]:
    """Where the default docs plugin publishes ``version`` (``"current"``: the ``docs/``
    folder; else a released version's name, its ``versioned_docs/version-<name>/``
    folder) below ``routeBasePath``: ``(path, None)`` (``""``: at ``/docs/`` itself,
    ``"1.0"``, ``"next"``), or ``(None, why)`` when it is not built or where it lives
    cannot be told (:func:`docusaurus_versions`). Never raises."""
    versions, problem = docusaurus_versions(root)
    if versions is None:
        return None, problem
    why = versions.built(version)
    if why is not None:
        return None, why
    return versions.path(version), None


def docusaurus_current_docs(root: Path) -> tuple[str | None, str | None]:
    """Where the default docs plugin publishes the *current* version (the ``docs/``
    folder) of the site at ``root``, read as text (never run; issue 24):
    ``(path, None)`` with ``path`` the URL segment below ``routeBasePath`` (``""``: at
    ``/docs/`` itself, ``"next"``: at ``/docs/next/``), or ``(None, why)`` when the current
    version is not built (``includeCurrentVersion: false``, ``onlyIncludeVersions``
    without ``"current"``) or where it lives cannot be told (a version option that is not
    a literal, an unreadable ``versions.json``).

    Docusaurus' rules: without released versions (``versions.json``) the current docs
    are the only version, at ``routeBasePath``. With them, ``lastVersion`` (by default the
    newest released one) is served at ``routeBasePath`` and the current version at
    ``next/`` — or at ``versions.current.path`` when that is set. Never raises."""
    return docusaurus_version_path(root, "current")
