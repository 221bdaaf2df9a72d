"""Reading the site policy of a content root, once per change, and each page's view of it.

:func:`load_site_policy` dispatches on the layout (``jekyll``, ``mkdocs``, ``docfx``,
``hugo``, ``docusaurus``, ``starlight``; other layouts have no policy) and caches the
result per process, validated against the configuration files' bytes. :func:`site_view`
is what one page gets: whether the tool builds it, the metadata merged under its front
matter, the findings that make it internal, and a digest that changes whenever any of
that may have (stored with the page, so a sync re-reads pages whose site configuration
changed — :func:`site_digest`).

**A change that loosens waits** (issue 24): a configuration file an editor is writing
may parse while half-written (``title: t`` before its ``exclude:`` list). A reading of
the files made while the newest of them changed less than the hold time ago
(:func:`hold_s`: ``KNOWLEDGE_PROVIDER_CONFIG_HOLD_S``, 30 s by default, read once into the
wiki settings and handed to every reader process, so the same in every process) applies together with the last *settled*
reading (one made when the files were older than that): a page is excluded when either
excludes it, internal when either has a finding over it, and its metadata is kept key by
key the stricter way (:meth:`~.policy.SitePolicy.defaults_for`). So a change that makes
a page less public applies at once, one that makes it more public once the files have
been unchanged for the hold time. A process with no settled reading (the first reading,
made while the files are young) holds every page the files govern internal until then.
A file's age counts from when it last changed in a way its author cannot backdate
(:func:`changed_ns`: the later of its modification time and its inode change time, which
the kernel sets at every write, rename, copy and ``touch``): ``touch -d '2 hours ago'``
before moving a file into place, or ``cp -p``, no longer skips the hold, and a
modification time in the future holds until it is that old (fail closed).
:func:`hold_deadline` says when the next held change is due to apply; the live indexer
scans again then (a timer, not the next file event).
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from wcmatch import glob

from .config_files import BEING_WRITTEN, ConfigError, Unresolved, hold_from_env, read_bytes, read_config, young_blank
from .docfx import CONFIG_NAME as DOCFX_CONFIG
from .docfx import PUBLISH_CONFIG, find_docsets, read_docfx, redirection_files
from .hugo import read_hugo
from .javascript import ASTRO_CONTENT_CONFIGS, DOCUSAURUS_CONFIGS, docusaurus_versions, read_javascript
from .jekyll import CONFIG_NAMES as JEKYLL_CONFIGS
from .jekyll import read_jekyll
from .mkdocs import CONFIG_NAMES as MKDOCS_CONFIGS
from .mkdocs import read_mkdocs
from .policy import Finding, PathRule, SitePolicy, _stricter

__all__ = ["SettledReadings", "SiteView", "adopt_settled", "changed_ns", "hold_deadline", "hold_s", "is_site_config",
           "load_site_policy", "no_hold", "set_hold_s", "settled_readings", "site_digest", "site_view"]

log = logging.getLogger(__name__)

TOOLS = ("jekyll", "mkdocs", "docfx", "hugo", "docusaurus", "starlight")
#: How long a walk for ``docfx.json`` files is trusted before walking again.
DOCSET_WALK_TTL_S = 30.0
_CONFIG_NAMES = frozenset({*JEKYLL_CONFIGS, *MKDOCS_CONFIGS, DOCFX_CONFIG, PUBLISH_CONFIG, ".meta.yml"})
_CONFIG_STEMS = frozenset({"hugo", "config", "module", "cascade", "languages", "docusaurus.config", "astro.config",
                           "content.config"})


#: The held digest suffix: a page read under a held reading is read again once it applies.
_HELD = "h"
_hold_set: float | None = None


def set_hold_s(seconds: float | None) -> None:
    """Make :func:`hold_s` ``seconds`` in this process (``None``: back to the environment).
    The indexer and each reader process set it from
    :attr:`~provider.wiki.model.WikiSettings.config_hold_s`, so every process holds alike."""
    global _hold_set
    _hold_set = None if seconds is None else min(max(float(seconds), 0.0), 3600.0)


@contextlib.contextmanager
def no_hold() -> Iterator[None]:
    """No hold in this process while inside: the configuration is read as it is (``check``,
    a one-shot reading with no earlier state to protect). A held reading cached before is
    read again (:func:`load_site_policy`); the hold set before is back on leaving."""
    global _hold_set
    before = _hold_set
    _hold_set = 0.0
    try:
        yield
    finally:
        _hold_set = before


def hold_s() -> float:
    """Seconds a site configuration change that makes a page more public waits, counted
    from the newest file's last change (:func:`changed_ns`, module docstring): as :func:`set_hold_s`
    set it, else from :data:`~.config_files.HOLD_ENV` (:func:`~.config_files.hold_from_env`)."""
    return _hold_set if _hold_set is not None else hold_from_env()


#: ``(site policies by (root, layout), .meta.yml readings by path)`` (:func:`settled_readings`).
SettledReadings = tuple[dict[tuple[str, str], SitePolicy], dict[str, tuple[Any, "str | None", str]]]


def settled_readings() -> SettledReadings:
    """The settled readings of this process (picklable), for a process it starts
    (:func:`adopt_settled`): without them, a reader process started while a change is held
    would have no earlier reading and hold every page the files govern internal."""
    with _lock:
        return ({key: c.settled for key, c in _cache.items() if c.settled is not None}, dict(_meta_settled))


def adopt_settled(readings: SettledReadings) -> None:
    """Take the settled readings of the process that started this one (where this one has
    none): a change still held there is held here too."""
    policies, metas = readings
    with _lock:
        for key, policy in policies.items():
            if key not in _cache:
                # No stamp: the files are read at the first look, with this reading settled.
                _cache[key] = _Cached((), policy, float("-inf"), settled=policy)
        for path, reading in metas.items():
            _meta_settled.setdefault(path, reading)


def changed_ns(st: os.stat_result) -> int:
    """When the file whose ``stat`` is ``st`` last changed, in Unix nanoseconds: the later of
    its modification time, which its author sets at will (``touch -d``, ``cp -p``, an
    archive's times), and its inode change time, which the kernel sets at every write,
    rename and time change and nobody can set back (issue 24)."""
    return max(st.st_mtime_ns, st.st_ctime_ns)


def _young(changed_s: float, hold: float) -> bool:
    """Whether a file that last changed at ``changed_s`` (Unix seconds, :func:`changed_ns`)
    is within the hold: less than ``hold`` seconds ago, or at any time ahead of the clock
    (a modification time in the future holds until it has passed: fails closed)."""
    return hold > 0 and time.time() - changed_s < hold


def hold_deadline(root: Path, after: float = 0.0) -> float | None:
    """The Unix time, later than ``after``, at which the earliest held configuration
    change this process has read for the content root ``root`` is due to apply, or
    ``None`` when none is held."""
    base = str(root)
    with _lock:
        due = [c.until for (at, _), c in _cache.items() if at == base and c.until > after]
        due += [u for path, u in _meta_until.items() if u > after and path.startswith(base + os.sep)]
    return min(due) if due else None


def is_site_config(relpath: str) -> bool:
    """Whether a changed path may be a site configuration file (the watcher then scans
    everything again instead of re-reading one file)."""
    name = relpath.rsplit("/", 1)[-1]
    if name in _CONFIG_NAMES or (name.startswith(".openpublishing.redirection") and name.endswith(".json")):
        return True
    stem, _, ext = name.rpartition(".")
    return stem in _CONFIG_STEMS and ext in ("toml", "yaml", "yml", "json", "js", "cjs", "mjs", "ts", "mts", "cts")


def _candidates(root: Path, tool: str, docsets: list[str]) -> list[Path]:
    """The files whose change changes the policy (existing or not)."""
    if tool == "jekyll":
        return [root / n for n in JEKYLL_CONFIGS]
    if tool == "mkdocs":
        return [folder / n for folder in (root, root.parent) for n in MKDOCS_CONFIGS]
    if tool == "docfx":
        redirections = sorted({root / PUBLISH_CONFIG, root / ".openpublishing.redirection.json",
                               *redirection_files(root)})
        return ([root / d / DOCFX_CONFIG for d in docsets] or [root / DOCFX_CONFIG]) + redirections
    if tool == "hugo":
        site = root.parent if root.name == "content" else root
        out = [site / f"{n}.{f}" for n in ("hugo", "config") for f in ("toml", "yaml", "yml", "json")]
        for folder in ("_default", "production"):
            out += [site / "config" / folder / f"{n}.{f}" for n in ("hugo", "config", "module", "cascade", "languages")
                    for f in ("toml", "yaml", "yml", "json")]
        return out
    if tool == "docusaurus":
        return [*(root / name for name in DOCUSAURUS_CONFIGS), root / "versions.json"]
    if tool == "starlight":
        site = root.parents[2] if root.resolve().parts[-3:] == ("src", "content", "docs") else root
        return [site / name for name in ASTRO_CONTENT_CONFIGS]
    return []


def _stamp(paths: list[Path]) -> tuple[tuple[str, int, int], ...]:
    out = []
    for path in paths:
        try:
            st = os.stat(path)
            out.append((str(path), changed_ns(st), st.st_size))
        except OSError:
            out.append((str(path), -1, -1))
    return tuple(out)


def _content_digest(tool: str, paths: list[Path]) -> str:
    digest = hashlib.sha256(tool.encode())
    for path in paths:
        try:
            data = read_bytes(path)
        except (OSError, ConfigError):
            data = b"\0unreadable"
        digest.update(f"\0{path.name}\0".encode())
        digest.update(hashlib.sha256(data).digest())
    return digest.hexdigest()[:16]


#: Starlight's docs collection, below the site root.
STARLIGHT_DOCS = "src/content/docs"
#: The folders Docusaurus' docs, blog and pages plugins build from (default paths), below
#: the site root.
DOCUSAURUS_SOURCES = ("docs", "versioned_docs", "blog", "src/pages", "i18n/*/docusaurus-plugin-content-docs",
                      "i18n/*/docusaurus-plugin-content-blog", "i18n/*/docusaurus-plugin-content-pages")

_I18N_DOCS = "i18n/*/docusaurus-plugin-content-docs"


def _unbuilt_versions(root: Path) -> tuple[PathRule, ...]:
    """The ``versioned_docs/version-<name>/`` folders Docusaurus does not build: a version
    ``versions.json`` does not list, or ``onlyIncludeVersions`` or ``disableVersioning``
    leaves out; all of them when the versions cannot be read (fail closed; the reason says
    why). Their translations (``i18n/<locale>/docusaurus-plugin-content-docs/version-<name>/``)
    likewise, and those of a version without its ``versioned_docs`` folder; the folder's
    ``current/`` (the docs' translations) is not this rule's."""
    has_versions = (root / "versioned_docs").is_dir()
    has_translations = any(root.glob(_I18N_DOCS))
    if not has_versions and not has_translations:
        return ()
    versions, problem = docusaurus_versions(root)
    rules: list[PathRule] = []
    if versions is None:
        if has_versions:
            rules.append(PathRule("glob", ("versioned_docs/**",), f"a released docs version, not served: {problem}"))
        if has_translations:
            rules.append(PathRule("glob", (f"{_I18N_DOCS}/**",), "a translation of a released docs version, not "
                                  f"served: {problem}", unless=(f"{_I18N_DOCS}/current/**",)))
        return tuple(rules)
    names = [v for v in versions.released if versions.built(v) is None]
    if has_versions:
        built = tuple(f"versioned_docs/version-{glob.escape(v)}/**" for v in names)
        rules.append(PathRule("glob", ("versioned_docs/**",), "a docs version Docusaurus does not build (not in "
                              "versions.json, or left out by onlyIncludeVersions or disableVersioning)",
                              unless=built))
    if has_translations:
        built = tuple(f"{_I18N_DOCS}/version-{glob.escape(v)}/**" for v in names
                      if (root / "versioned_docs" / f"version-{v}").is_dir())
        rules.append(PathRule("glob", (f"{_I18N_DOCS}/**",), "a translation of a docs version Docusaurus does not "
                              "build (not in versions.json, left out by onlyIncludeVersions or disableVersioning, or "
                              "without its versioned_docs/ folder)", unless=(f"{_I18N_DOCS}/current/**", *built)))
    return tuple(rules)


def _read(root: Path, tool: str) -> SitePolicy:
    if tool == "jekyll":
        sources, excluded, defaults, findings, types, dated, permalinks = read_jekyll(root)
        return SitePolicy(tool, tuple(sources), tuple(excluded), tuple(defaults), tuple(findings),
                          page_types=tuple(types), dated_types=dated, permalinks=permalinks)
    if tool == "mkdocs":
        mkdocs = read_mkdocs(root)
        if mkdocs is None:
            return SitePolicy(tool)
        return SitePolicy(tool, tuple(mkdocs.sources), tuple(mkdocs.excluded), (), tuple(mkdocs.findings),
                          folder_meta=mkdocs.folder_meta, folder_meta_base=mkdocs.folder_meta_base)
    if tool == "docfx":
        docfx = read_docfx(root)
        if docfx is None:
            return SitePolicy(tool)
        sources, excluded, defaults, findings = docfx
        return SitePolicy(tool, tuple(sources), tuple(excluded), tuple(defaults), tuple(findings))
    if tool == "hugo":
        hugo = read_hugo(root)
        if hugo is None:
            return SitePolicy(tool)
        sources, excluded, findings = hugo
        return SitePolicy(tool, tuple(sources), tuple(excluded), (), tuple(findings))
    if tool in ("docusaurus", "starlight"):
        found = read_javascript(root, tool) or ([], [])
        outside: tuple[PathRule, ...] = ()
        if tool == "starlight" and (root / STARLIGHT_DOCS).is_dir():
            # Content pointed at the site root: Starlight builds pages from its docs
            # collection only (a README or SOURCE.md beside it is never a page).
            outside = (PathRule("glob", (STARLIGHT_DOCS,), f"outside Starlight's docs collection ({STARLIGHT_DOCS}/): "
                                 "Starlight does not build it", invert=True),)
        if tool == "docusaurus" and found[0] and (root / "docs").is_dir():
            # Content pointed at the site root (docusaurus.config.* there): only the
            # plugins' folders become pages (a README or SOURCE.md beside them never does).
            outside = (PathRule("glob", DOCUSAURUS_SOURCES, "outside the Docusaurus docs, blog and pages folders "
                                "(docs/, blog/, src/pages/, their i18n/ translations): Docusaurus does not build it",
                                invert=True),)
        if tool == "docusaurus":
            outside += _unbuilt_versions(root)
        return SitePolicy(tool, tuple(found[0]), outside, (), tuple(found[1]))
    return SitePolicy()


@dataclass
class _Cached:
    stamp: tuple[tuple[str, int, int], ...]
    policy: SitePolicy
    checked: float
    docsets: list[str] = field(default_factory=list)
    walked: float = 0.0
    #: the last reading made while every file was older than the hold time
    settled: SitePolicy | None = None
    #: Unix time the held change applies (``0``: nothing held)
    until: float = 0.0


_cache: dict[tuple[str, str], _Cached] = {}
_lock = threading.Lock()


def load_site_policy(root: Path, tool: str, *, max_age_s: float = 0.0, log_findings: bool = False) -> SitePolicy:
    """The site policy of the content root ``root`` for layout ``tool``. Never raises: a
    configuration that cannot be understood is in :attr:`SitePolicy.findings`.

    Args:
        max_age_s: reuse a policy validated this many seconds ago without looking at the
            files again (``0``: look now — a few ``stat`` calls).
        log_findings: log each finding as a warning, once per version of the
            configuration (the indexer does, at each scan; reader processes do not).
    """
    policy = _load(root, tool, max_age_s)
    if log_findings and _logged.get((str(root), tool)) != policy.digest:
        _logged[(str(root), tool)] = policy.digest
        for finding in policy.findings:
            log.warning("site configuration %s: %s", finding.source, finding.message)
    return policy


_logged: dict[tuple[str, str], str] = {}


def _load(root: Path, tool: str, max_age_s: float) -> SitePolicy:
    if tool not in TOOLS:
        return SitePolicy()
    key = (str(root), tool)
    now = time.monotonic()
    with _lock:
        cached = _cache.get(key)
        if cached is not None and cached.until and (time.time() >= cached.until or hold_s() == 0):
            cached.stamp, cached.until = (), 0.0  # the hold is over: read the files again
        if cached is not None and max_age_s > 0 and now - cached.checked <= max_age_s:
            return cached.policy
        docsets = cached.docsets if cached is not None else []
        walked = cached.walked if cached is not None else 0.0
        if tool == "docfx" and (cached is None or now - walked > DOCSET_WALK_TTL_S):
            docsets, walked = find_docsets(root) if root.is_dir() else [], now
        candidates = _candidates(root, tool, docsets)
        if tool == "mkdocs" and cached is not None:
            # The INHERIT parents the last reading followed: an edit to one changes the settings.
            candidates += [root / source for source in cached.policy.sources[1:]]
        stamp = _stamp(candidates)
        if cached is not None and cached.stamp == stamp and cached.docsets == docsets:
            cached.checked, cached.walked = now, walked
            return cached.policy
        gone = _gone(cached.stamp, stamp) if cached is not None and cached.policy.tool else []
        if cached is not None and gone:
            # An editor that moves the file aside and writes a new one leaves it missing
            # for a moment (issue 24): the last reading stands, and the stamp is not
            # updated, so the next look reads the files again.
            if _logged_gone.get(key) != gone:
                _logged_gone[key] = gone
                log.warning("site configuration %s is missing now: its last reading still applies until it is "
                            "back (restart to apply a removal)", ", ".join(gone))
            cached.checked, cached.walked = now, walked
            return cached.policy
        _logged_gone.pop(key, None)
        policy = _read(root, tool)
        present = [p for p, (_, mtime, _) in zip(candidates, stamp, strict=True) if mtime != -1]
        # An empty file read as being written: the digest changes, and the files are read
        # again, once it is old enough to be read as empty.
        young = any(BEING_WRITTEN in finding.message for finding in policy.findings)
        digest = _content_digest(tool, present) if present else ""
        policy = SitePolicy(policy.tool, policy.sources, policy.excluded, policy.defaults, policy.findings,
                            digest + ("y" if young and digest else ""), policy.page_types,
                            policy.folder_meta, policy.folder_meta_base, policy.dated_types, policy.permalinks)
        settled = cached.settled if cached is not None else None
        newest = max((mtime for _, mtime, _ in stamp if mtime != -1), default=-1) / 1e9
        hold = hold_s()
        until = 0.0
        if newest < 0 or not _young(newest, hold):
            settled = policy
        elif settled is None or settled.digest != policy.digest:
            until = newest + hold
            policy = _held(policy, settled, root, present, until)
        if len(_cache) > 16:
            _cache.clear()
        _cache[key] = _Cached(() if young else stamp, policy, now, docsets, walked, settled, until)
        return policy


def _held(policy: SitePolicy, settled: SitePolicy | None, root: Path, present: list[Path],
          until: float) -> SitePolicy:
    """``policy`` while the change to it is within the hold: with the ``settled``
    reading's exclusions, findings and metadata still in force (module docstring), or,
    without one, a finding over every page the files govern."""
    names = ", ".join(_shown(root, p) for p in present)
    left = max(until - time.time(), 0.0)
    if settled is None:
        finding = Finding(names, f"changed {hold_s() - left:.0f} s ago, and no earlier reading of it is known to this "
                                 f"process: the pages it governs are internal until it has been unchanged for "
                                 f"{hold_s():.0f} s (a change that makes pages more public waits; issue 24)")
        log.warning("site configuration %s: %s", finding.source, finding.message)
        return replace(policy, findings=(*policy.findings, finding), digest=policy.digest + _HELD)
    suffix = (f" (the earlier configuration, in force until {names} has been unchanged for {hold_s():.0f} s: "
              "a change that makes pages more public waits)")
    earlier = tuple(replace(rule, reason=rule.reason + suffix, labels=tuple(label + suffix for label in rule.labels))
                    for rule in settled.excluded)
    findings = tuple(replace(f, message=f.message + suffix) for f in settled.findings)
    log.info("site configuration %s changed: a change that makes pages more public applies in %.0f s", names, left)
    return replace(policy, excluded=(*policy.excluded, *earlier),
                   findings=tuple(dict.fromkeys((*policy.findings, *findings))),
                   dated_types=tuple(dict.fromkeys((*policy.dated_types, *settled.dated_types))),
                   digest=policy.digest + _HELD, held=(replace(settled, held=()),))


def _shown(root: Path, path: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.name


def _gone(before: tuple[tuple[str, int, int], ...], after: tuple[tuple[str, int, int], ...]) -> list[str]:
    """The files present in ``before`` and missing in ``after`` (paths as strings)."""
    missing = {path for path, mtime, _ in after if mtime == -1}
    return [path for path, mtime, _ in before if mtime != -1 and path in missing]


_logged_gone: dict[tuple[str, str], list[str]] = {}


@dataclass(frozen=True)
class SiteView:
    """What the site configuration says about one page.

    Attributes:
        excluded: why the tool does not build the page, or ``None``.
        defaults: metadata merged under the page's front matter (the page's keys win).
        sources: where the defaults come from (``_config.yml defaults[0]``…).
        errors: configuration that cannot be understood and governs the page: the page
            is internal and quarantined while any stands.
        sitemap_settles: every one of ``errors`` is of a kind the site's sitemap settles
            (JavaScript options, :attr:`~.policy.Finding.sitemap_settles`): with a sitemap
            configured, the caller may leave them out (the sitemap then decides).
        digest: changes whenever any of the above may have (``""`` for no policy).
        dated: Jekyll: whether a date in the future keeps the tool from building the page
            (a post or collection document, without ``future: true``); ``None`` for other
            tools (the layout decides).
    """

    excluded: str | None = None
    defaults: Mapping[str, Any] = field(default_factory=dict)
    sources: tuple[str, ...] = ()
    errors: tuple[str, ...] = ()
    digest: str = ""
    sitemap_settles: bool = False
    dated: bool | None = None


_meta_cache: dict[str, tuple[tuple[int, int], Any, str | None, str]] = {}
_logged_meta: set[str] = set()


_meta_settled: dict[str, tuple[Any, str | None, str]] = {}
_meta_until: dict[str, float] = {}


def _folder_meta(path: Path) -> tuple[Any, str | None, str]:
    """``(data, error, digest)`` of one ``.meta.yml`` (``data`` ``None`` when absent): as
    read now, or, while a change to it is within the hold time, together with its last
    settled reading, each key the stricter way (module docstring)."""
    try:
        st = os.stat(path)
    except OSError:
        st = None
    data, error, digest = _folder_meta_now(path, st)
    name = str(path)
    if st is None:
        return data, error, digest
    hold = hold_s()
    settled = _meta_settled.get(name)
    changed = changed_ns(st) / 1e9
    if not _young(changed, hold):
        if len(_meta_settled) > 4096:
            _meta_settled.clear()
        _meta_settled[name] = (data, error, digest)
        _meta_until.pop(name, None)
        return data, error, digest
    if settled is not None and settled[2] == digest:
        return data, error, digest
    with _lock:
        _meta_until[name] = changed + hold
    if settled is None:
        return None, (f"changed less than {hold:.0f} s ago, and no earlier reading of it is known to this process "
                      "(a change that makes pages more public waits; issue 24)"), f"held:{digest}"
    error = error or (f"{settled[1]} (its earlier reading, in force until it has been unchanged for {hold:.0f} s)"
                      if settled[1] is not None else None)
    if error is not None:
        return None, error, f"held:{digest}"
    merged = _stricter(dict(data) if isinstance(data, Mapping) else {},
                       dict(settled[0]) if isinstance(settled[0], Mapping) else {})
    return merged, None, f"held:{digest}"


def _folder_meta_now(path: Path, st: os.stat_result | None) -> tuple[Any, str | None, str]:
    """``(data, error, digest)`` of one ``.meta.yml`` as read now (``st``: its ``stat``,
    ``None`` when missing)."""
    if st is None:
        found = _meta_cache.get(str(path))
        if found is None or found[1] is None:
            _meta_settled.setdefault(str(path), (None, None, ""))  # known absent: no metadata
            return None, None, ""
        # Moved aside while an editor writes it (issue 24): its last reading stands, with
        # its digest, so no page is read again without it.
        if str(path) not in _logged_meta:
            _logged_meta.add(str(path))
            log.warning("site configuration %s is missing now: its last reading still applies until it is back "
                        "(restart to apply a removal)", path)
        return found[1], found[2], found[3]
    _logged_meta.discard(str(path))
    key = (changed_ns(st), st.st_size)
    found = _meta_cache.get(str(path))
    if found is not None and found[0] == key:
        return found[1], found[2], found[3]
    error: str | None = None
    data: Any = None
    try:
        raw = read_bytes(path)
        data = read_config(path)
        if data is not None and not isinstance(data, Mapping):
            error, data = "is not a mapping", None
        elif isinstance(data, Mapping) and any(isinstance(v, Unresolved) for v in data.values()):
            error, data = "holds a YAML tag that is not evaluated", None
        digest = hashlib.sha256(raw).hexdigest()[:16]
    except (ConfigError, OSError) as exc:
        error, digest = str(exc), f"error:{key}"
    if young_blank(path, None) is not None and error is not None:
        return data, error, f"young:{key}"  # read again until it is old enough to be read as empty
    if len(_meta_cache) > 4096:
        _meta_cache.clear()
    _meta_cache[str(path)] = (key, data, error, digest)
    return data, error, digest


def _readme_conflict(root: Path, relpath: str) -> str | None:
    """MkDocs builds ``README.md`` as its folder's index page only when the folder has no
    ``index.md``; beside one, it excludes the README ("conflicts with 'index.md'")."""
    folder, _, name = relpath.rpartition("/")
    if name.lower() != "readme.md":
        return None
    index = f"{folder}/index.md" if folder else "index.md"
    if (root / index).is_file():
        return f"README.md beside {index}: MkDocs builds index.md as the folder's page and excludes the README"
    return None


def _folder_metas(root: Path, policy: SitePolicy, relpath: str) -> list[tuple[str, Any, str | None, str]]:
    """``(name, data, error, digest)`` of each folder metadata file from the base down to
    the page's folder (nearest last)."""
    if not policy.folder_meta or not relpath.startswith(policy.folder_meta_base):
        return []
    parts = relpath[len(policy.folder_meta_base):].split("/")[:-1]
    out = []
    for depth in range(len(parts) + 1):
        name = policy.folder_meta_base + "".join(f"{part}/" for part in parts[:depth]) + policy.folder_meta
        out.append((name, *_folder_meta(root / name)))
    return out


def _digest(policy: SitePolicy, metas: list[tuple[str, Any, str | None, str]]) -> str:
    if not metas:
        return policy.digest
    return hashlib.sha256("|".join([policy.digest, *(m[3] for m in metas)]).encode()).hexdigest()[:16]


def site_view(root: Path, tool: str, relpath: str, *, real_relpath: str | None = None,
              max_age_s: float = 0.0) -> SiteView:
    """One page's :class:`SiteView`. A page reached through a symlink is excluded when
    either of its paths is, and takes the findings of both."""
    policy = load_site_policy(root, tool, max_age_s=max_age_s)
    if not policy.tool:
        return SiteView()
    paths = [relpath, *([real_relpath] if real_relpath and real_relpath != relpath else [])]
    excluded = next((r for p in paths if (r := policy.excluded_reason(p)) is not None), None)
    if excluded is None and policy.tool == "mkdocs" and policy.sources:
        excluded = _readme_conflict(root, relpath)
    defaults, sources = policy.defaults_for(relpath)
    findings = [f for p in paths for f in policy.findings_for(p)]
    errors = [f"site configuration {f.source}: {f.message}" for f in findings]
    settles = bool(findings) and all(f.sitemap_settles for f in findings)
    metas = _folder_metas(root, policy, relpath)
    merged: dict[str, Any] = {}
    for name, data, error, _ in metas:
        if error is not None:
            settles = False
            errors.append(f"site configuration {name} {error}: the pages below are internal until it is fixed")
        elif isinstance(data, Mapping):
            merged.update({str(k): v for k, v in data.items()})
            sources.append(name)
    if merged:
        defaults = {**defaults, **merged}
    dated = policy.is_dated(relpath) if policy.tool == "jekyll" else None
    return SiteView(excluded, defaults, tuple(sources), tuple(dict.fromkeys(errors)), _digest(policy, metas),
                    settles, dated)


def site_digest(root: Path, tool: str, relpath: str, *, real_relpath: str | None = None,
                max_age_s: float = 60.0) -> str:
    """:attr:`SiteView.digest` of a page, from a policy validated up to ``max_age_s``
    seconds ago (the indexer validates it once at the start of each scan)."""
    del real_relpath  # the digest covers the whole configuration, whichever path reads it
    policy = load_site_policy(root, tool, max_age_s=max_age_s)
    return _digest(policy, _folder_metas(root, policy, relpath)) if policy.tool else ""

