"""Configuration: an optional YAML file, the environment for secrets, and command-line
overrides — in that order of precedence, lowest first.

Secrets never come from the YAML file (it is usually committed next to the docs):

=============================================  ==========================================
``KNOWLEDGE_PROVIDER_CUSTOMER_SAFE_SECRET``    the ``customer_safe`` registration; several
                                               secrets separated by commas (rotation)
``KNOWLEDGE_PROVIDER_AGENT_ONLY_SECRET``       the ``agent_only`` registration, likewise
``…_SECRET_FILE``                              a file holding the value instead (Docker and
                                               Kubernetes secrets)
``KNOWLEDGE_PROVIDER_CONFIG``                  the YAML file, when ``--config`` is not given
=============================================  ==========================================

Every error is a :class:`~provider.contract.registrations.ConfigurationError` whose
message names the setting and the next step, and never a secret.
"""

from __future__ import annotations

import difflib
import io
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml

from .contract.capabilities import ALL_CAPABILITIES, CHUNKING, parse_capabilities
from .contract.registrations import ConfigurationError, Exposure, Registration, check_registrations
from .wiki.audience_map import SKIP, WITHHOLD, AudienceMap
from .wiki.citations import DEFAULT_PATH_PATTERN, CitationSettings, check_base_url, check_path_pattern
from .wiki.classify import AUDIENCES, AudienceRule
from .wiki.document import WikiSettings
from .wiki.files import DEFAULT_MAX_FILE_BYTES
from .wiki.findings import Acceptance, parse_acceptances
from .wiki.layouts import DEFAULT_LAYOUT, LAYOUTS
from .wiki.locale_patterns import LocalePattern, parse_locale_pattern
from .wiki.locales import normalize_tag
from .wiki.sitemap import is_url_source

__all__ = [
    "CONFIG_ENV",
    "DEFAULT_CONFIG_NAME",
    "POLL_ENV",
    "SECRET_ENV",
    "ProviderConfig",
    "load_config",
    "registrations_from_env",
]

CONFIG_ENV = "KNOWLEDGE_PROVIDER_CONFIG"
#: Any value but 0/false/no/off asks for polling instead of OS file notifications.
POLL_ENV = "KNOWLEDGE_PROVIDER_POLL"
DEFAULT_CONFIG_NAME = "knowledge-provider.yaml"
SECRET_ENV: dict[Exposure, str] = {
    Exposure.CUSTOMER_SAFE: "KNOWLEDGE_PROVIDER_CUSTOMER_SAFE_SECRET",
    Exposure.AGENT_ONLY: "KNOWLEDGE_PROVIDER_AGENT_ONLY_SECRET",
}
_KNOWN_KEYS = {
    "content": "folder of markdown files (default: content)",
    "index": "folder for the generated index (default: index)",
    "host": "address to listen on (default: 127.0.0.1)",
    "port": "TCP port (default: 8080)",
    "default_locale": "BCP 47 tag of files that name no locale (default: en)",
    "locales": "BCP 47 tags recognised in paths, e.g. [en, de]",
    "audience_rules": "list of {pattern: public|internal|withhold|skip} glob rules; first public/internal match "
                      "wins, every withhold/skip match applies",
    "audience_key": "front matter key that carries the audience, or none (default: audience)",
    "audience_values": "exact map of that key's values to public|internal, e.g. {ITPro: public}; others internal",
    "withhold_noindex": "true to serve nobody pages whose front matter ROBOTS says NOINDEX (default: false)",
    "accepted_findings": "reviewed heuristic findings to ignore: a list of {path, finding, digest} (default: none)",
    "layout": f"docs tool preset: {' | '.join(LAYOUTS)} (default: {DEFAULT_LAYOUT})",
    "locale_patterns": "list of path patterns with {locale}, e.g. [\"content/{locale}/**\"]; replaces the layout's",
    "capabilities": "minimum | all | list of capability names",
    "fallback_locales": "BCP 47 tags tried in order with localeFallback; the default locale is always last "
                        "(default: [default_locale])",
    "citation_base_url": "https base URL of the public site, for citation URLs (citationUrl)",
    "citation_path_pattern": "path appended to a base URL, with {path} {locale} {locale_key} {locale_prefix} {id} "
                             "{slug} (default: the layout's, e.g. /{locale_prefix}{path}/ for hugo)",
    "route_base_path": "Docusaurus: the docs plugin's routeBasePath, for {path} (default: docs; / for none)",
    "internal_citation_base_url": "https base URL where agents read internal documents (agent_only only)",
    "max_file_bytes": "larger markdown files are skipped (default: 2097152)",
    "log_level": "debug | info | warning | error (default: info)",
    "poll": "true to poll for file changes instead of OS notifications (NFS, SMB, Docker Desktop)",
    "poll_delay_ms": "polling period in milliseconds (default: 1000)",
    "reconcile_interval": "seconds between full re-scans of the content folder; 0 = never (default: 300)",
    "parse_timeout": "seconds one file may take to read and parse before it is skipped (default: 30)",
    "workers": "serving processes (default: 1); the index is written by the parent process, never by them",
    "serving_niceness": "how many steps (Unix nice, 0-19) the serving processes yield the CPU to the index "
                        "writer (default: 5)",
    "replay_store": "memory | sqlite | sqlite:///path | redis://host:port/db (default: memory, sqlite if workers > 1)",
    "metrics_host": "address of the Prometheus /metrics listener (default: 127.0.0.1)",
    "metrics_port": "port of the Prometheus /metrics listener; 0 = off (default: 9464)",
    "log_format": "plain | json (default: plain)",
    "max_in_flight": "searches admitted at once per worker; beyond it 503 overloaded (default: 32)",
    "max_connections": "open connections per worker; beyond it new ones get 503 (default: 512)",
    "search_threads": "threads running searches per worker (default: 4)",
    "cache_entries": "answers cached per worker, invalidated by every index commit; 0 = off (default: 2048)",
    "cache_mib": "MiB those cached answers may hold per worker; 0 = off (default: 32)",
    "ssl_certfile": "PEM certificate to terminate TLS in the provider (with ssl_keyfile)",
    "ssl_keyfile": "PEM private key for ssl_certfile",
    "sitemap": "the site's sitemap: a file of the build output (relative to this file) or an https URL, or a list "
               "of them; then a page is public only if its citation URL is on the site",
    "sitemap_refresh_s": "seconds between reads of the sitemap; a changed sitemap file is read at once (default: 600)",
}


@dataclass(frozen=True)
class ProviderConfig:
    """Every setting of the provider except secrets.

    Attributes:
        content: the wiki folder.
        index: the index folder.
        host, port: where ``serve`` listens.
        default_locale, locales: see :class:`~provider.wiki.document.WikiSettings`.
        audience_rules: operator rules: the first ``public``/``internal`` match wins; every
            ``withhold``/``skip`` match applies.
        audience_key, audience_values, withhold_noindex: what the repository's front
            matter means (:mod:`provider.wiki.audience_map`).
        accepted_findings: reviewed heuristic findings (:mod:`provider.wiki.findings`).
        layout: a :mod:`~provider.wiki.layouts` preset name.
        locale_patterns: explicit locale patterns (replace the layout's), or ``None``.
        capabilities: ``"minimum"``, ``"all"`` or a list of names (resolved against
            the backend by :func:`provider.contract.capabilities.parse_capabilities`).
        fallback_locales: the fallback chain for ``localeFallback`` as configured (see
            :attr:`fallback_chain`).
        citation: citation URL settings (:mod:`provider.wiki.citations`).
        max_file_bytes: larger files are skipped, in bytes.
        log_level: logging level name.
        poll: poll for changes instead of using OS notifications.
        poll_delay_ms: polling period, in milliseconds.
        reconcile_interval_s: seconds between full scans while watching; 0 disables them.
        workers: serving processes (children of the process that writes the index).
        serving_niceness: Unix nice increment of the serving processes relative to the
            index writer (0–19), so a reclassification is indexed promptly under load
            (CONTRACT X7).
        replay_store: ``memory``, ``sqlite``, ``sqlite:///path`` or ``redis://…``; ``None``
            picks memory for one worker and sqlite for several.
        metrics_host, metrics_port: the Prometheus listener; port 0 turns it off.
        log_format: ``plain`` or ``json`` (one JSON object per line).
        max_in_flight, search_threads, cache_entries: per-worker serving limits.
        cache_mib: MiB the cached answers of one worker hold at most (with
            ``cache_entries``, whichever bound is reached first).
        max_connections: open connections per worker before new ones are answered 503
            (bounds descriptors when clients hold connections open).
        parse_timeout_s: seconds one file may take to be read and parsed; a slower one
            is skipped and reported. The batch it belongs to — possibly a public →
            internal edit of another file — waits at most this long for it.
        ssl_certfile, ssl_keyfile: TLS in the provider (both or neither).
        sitemap: the site's sitemap sources (absolute paths, URLs): see
            :mod:`provider.wiki.site_gate`.
        sitemap_refresh_s: seconds between reads of the sitemap.
        source: the YAML file read, if any (for messages).
    """

    content: Path = Path("content")
    index: Path = Path("index")
    host: str = "127.0.0.1"
    port: int = 8080
    default_locale: str = "en"
    locales: tuple[str, ...] = ("en",)
    audience_rules: tuple[AudienceRule, ...] = ()
    audience_key: str | None = "audience"
    audience_values: tuple[tuple[str, str], ...] = ()
    withhold_noindex: bool = False
    accepted_findings: tuple[Acceptance, ...] = ()
    layout: str = DEFAULT_LAYOUT
    locale_patterns: tuple[LocalePattern, ...] | None = None
    capabilities: str | tuple[str, ...] = "minimum"
    fallback_locales: tuple[str, ...] | None = None
    citation: CitationSettings = field(default_factory=CitationSettings)
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    log_level: str = "info"
    poll: bool = False
    poll_delay_ms: int = 1000
    reconcile_interval_s: float = 300.0
    workers: int = 1
    serving_niceness: int = 5
    replay_store: str | None = None
    metrics_host: str = "127.0.0.1"
    metrics_port: int = 9464
    log_format: str = "plain"
    max_in_flight: int = 32
    max_connections: int = 512
    parse_timeout_s: float = 30.0
    search_threads: int = 4
    cache_entries: int = 2048
    cache_mib: int = 32
    ssl_certfile: Path | None = None
    ssl_keyfile: Path | None = None
    sitemap: tuple[str, ...] = ()
    sitemap_refresh_s: float = 600.0
    source: Path | None = field(default=None, compare=False)
    overridden: frozenset[str] = field(default=frozenset(), compare=False)

    def wiki_settings(self) -> WikiSettings:
        """How to read and index the wiki. The index holds chunks when ``chunking`` is
        among the configured capabilities."""
        return WikiSettings(
            root=self.content,
            default_locale=self.default_locale,
            locales=self.locales,
            audience_rules=self.audience_rules,
            max_file_bytes=self.max_file_bytes,
            layout=self.layout,
            locale_patterns=self.locale_patterns,
            chunking=self.chunking,
            citation=self.citation,
            audience_map=AudienceMap(key=self.audience_key, values=self.audience_values),
            withhold_noindex=self.withhold_noindex,
            sitemap=self.sitemap,
            sitemap_refresh_s=self.sitemap_refresh_s,
            accepted_findings=self.accepted_findings,
        )

    @property
    def chunking(self) -> bool:
        """Whether ``chunking`` is configured (an unknown name is reported when serving)."""
        try:
            return CHUNKING in parse_capabilities(self.capabilities, implemented=ALL_CAPABILITIES)
        except ValueError:
            return False

    @property
    def fallback_chain(self) -> tuple[str, ...]:
        """The fallback chain for ``localeFallback``: the configured ``fallback_locales``
        in order, the default locale always last."""
        configured = self.fallback_locales or ()
        return (*(tag for tag in dict.fromkeys(configured) if tag != self.default_locale), self.default_locale)

    def declared_capabilities(self, implemented: frozenset[str]) -> frozenset[str]:
        """The capability set to declare.

        Raises:
            ConfigurationError: an unknown or unimplemented capability is configured.
        """
        try:
            return parse_capabilities(self.capabilities, implemented=implemented)
        except ValueError as exc:
            raise ConfigurationError(f"{self._where('capabilities')}: {exc}") from None

    @property
    def state_dir(self) -> Path:
        """Runtime state shared by the processes of one machine (replay database,
        metrics files, readiness marker), inside the index folder."""
        return self.index / "state"

    @property
    def replay_store_spec(self) -> str:
        return self.replay_store or ("memory" if self.workers == 1 else "sqlite")

    def check_serving(self) -> None:
        """Settings that only matter when serving.

        Raises:
            ConfigurationError: the in-process replay store with several workers, or
                only one of the TLS files.
        """
        if self.workers > 1 and self.replay_store_spec == "memory":
            raise ConfigurationError(
                f"{self._where('replay_store')}: memory cannot be shared by {self.workers} workers; "
                "use sqlite (one machine) or redis://… (several)"
            )
        if (self.ssl_certfile is None) != (self.ssl_keyfile is None):
            raise ConfigurationError(
                f"{self._where('ssl_certfile')}: set both ssl_certfile and ssl_keyfile, or neither"
            )
        for path in (self.ssl_certfile, self.ssl_keyfile):
            if path is not None and not path.is_file():
                raise ConfigurationError(f"{path} does not exist (make one for testing: knowledge-provider dev-cert)")

    def with_overrides(self, **overrides: Any) -> ProviderConfig:
        """A copy with the given settings replaced (``None`` values are ignored)."""
        values = {k: v for k, v in overrides.items() if v is not None}
        if "capabilities" in values and isinstance(values["capabilities"], str):
            values["capabilities"] = _capabilities(values["capabilities"], "--capabilities")
        return replace(self, **values, overridden=self.overridden | frozenset(values))

    def _where(self, key: str) -> str:
        """Where a setting came from, for error messages: the option or the file."""
        if key in self.overridden:
            return f"--{key.replace('_', '-')}"
        return f"{self.source}: {key}" if self.source else key


def _tag(value: Any, where: str) -> str:
    if isinstance(value, bool):
        # YAML 1.1 (PyYAML) reads unquoted no/yes/on/off as booleans: `locales: [en, no]`
        # would otherwise report "False is not a BCP 47 language tag".
        word = "no (or off)" if value is False else "yes (or on)"
        raise ConfigurationError(
            f"{where}: YAML reads an unquoted {word} as {str(value).lower()}, not as a language tag: quote it, "
            "e.g. [en, \"no\"] for Norwegian"
        )
    tag = normalize_tag(value) if isinstance(value, str) else None
    if tag is None:
        raise ConfigurationError(f"{where}: {value!r} is not a BCP 47 language tag (e.g. en, de, pt-BR)")
    return tag


def _rules(value: Any, where: str) -> tuple[AudienceRule, ...]:
    if value is None:
        return ()
    items: list[tuple[Any, Any]] = []
    if isinstance(value, Mapping):
        items = list(value.items())
    elif isinstance(value, list):
        for entry in value:
            if isinstance(entry, Mapping) and set(entry) == {"pattern", "audience"}:
                items.append((entry["pattern"], entry["audience"]))
            elif isinstance(entry, Mapping) and len(entry) == 1:
                items.extend(entry.items())
            else:
                raise ConfigurationError(
                    f"{where}: each rule is `- \"glob/**\": public` or `- {{pattern: ..., audience: ...}}`"
                )
    else:
        raise ConfigurationError(f"{where}: must be a list of rules like `- \"docs/**\": public`")
    rules = []
    for pattern, audience in items:
        if not isinstance(pattern, str) or not pattern.strip():
            raise ConfigurationError(f"{where}: a rule's pattern must be a non-empty glob string")
        if audience not in (*AUDIENCES, WITHHOLD, SKIP):
            raise ConfigurationError(
                f"{where}: rule {pattern!r} must say public, internal, withhold or skip, not {audience!r}")
        rules.append(AudienceRule(pattern=pattern.strip().lstrip("/"), audience=audience))
    return tuple(rules)


def _audience_key(value: Any, where: str) -> str | None:
    if value is None or (isinstance(value, str) and value.strip().lower() == "none") or value is False:
        return None
    if not isinstance(value, str) or not value.strip():
        raise ConfigurationError(f"{where}: must be a front matter key such as audience, or none")
    return value.strip()


def _audience_values(value: Any, where: str) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, Mapping) or not value:
        raise ConfigurationError(f"{where}: must be a map of front matter values to public or internal, "
                                 "e.g. {ITPro: public, Admin: internal}")
    out: dict[str, str] = {}
    for key, audience in value.items():
        if not isinstance(key, str) or audience not in AUDIENCES:
            raise ConfigurationError(f"{where}: {key!r} must map to public or internal, not {audience!r}")
        out[key] = audience
    return tuple(out.items())


def _acceptances(value: Any, where: str) -> tuple[Acceptance, ...]:
    try:
        return parse_acceptances(value, where)
    except ValueError as exc:
        raise ConfigurationError(str(exc)) from None


def _layout(value: Any, where: str) -> str:
    if not isinstance(value, str) or value.strip().lower() not in LAYOUTS:
        raise ConfigurationError(f"{where}: must be one of {', '.join(LAYOUTS)}, not {value!r}")
    return value.strip().lower()


def _locale_patterns(value: Any, where: str) -> tuple[LocalePattern, ...]:
    """``- "content/{locale}/**"`` or ``- "i18n/{locale}/…/current/**": "docs/**"`` or
    ``- {pattern: …, source: …}``; see :mod:`provider.wiki.locale_patterns`."""
    if not isinstance(value, list) or not value:
        raise ConfigurationError(
            f"{where}: must be a list of path patterns, e.g. [\"content/{{locale}}/**\", \"**.{{locale}}\"]"
        )
    patterns = []
    for index, entry in enumerate(value):
        here = f"{where}[{index}]"
        pattern: Any
        source: Any = None
        if isinstance(entry, str):
            pattern = entry
        elif isinstance(entry, Mapping) and set(entry) <= {"pattern", "source"} and "pattern" in entry:
            pattern, source = entry["pattern"], entry.get("source")
        elif isinstance(entry, Mapping) and len(entry) == 1:
            ((pattern, source),) = entry.items()
        else:
            raise ConfigurationError(
                f"{here}: each entry is `- \"pattern\"`, `- \"pattern\": \"source/**\"` or "
                "`- {pattern: ..., source: ...}`"
            )
        if not isinstance(pattern, str) or (source is not None and not isinstance(source, str)):
            raise ConfigurationError(f"{here}: the pattern and its source must be text")
        try:
            patterns.append(parse_locale_pattern(pattern, source))
        except ValueError as exc:
            raise ConfigurationError(f"{here}: {exc}") from None
    return tuple(patterns)


def _capabilities(value: Any, where: str) -> str | tuple[str, ...]:
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(v.strip() for v in value)
    raise ConfigurationError(f"{where}: must be minimum, all, or a list of capability names")


def _int(value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ConfigurationError(f"{where}: must be a whole number from {low} to {high}")
    return value


def _text(hint: str) -> Callable[[Any, str], str]:
    def parse(value: Any, where: str) -> str:
        if not isinstance(value, str) or not value.strip():
            raise ConfigurationError(f"{where}: must be {hint}")
        return value.strip()
    return parse


def _whole(low: int, high: int) -> Callable[[Any, str], int]:
    return lambda value, where: _int(value, where, low, high)


def _one_of(*choices: str) -> Callable[[Any, str], str]:
    def parse(value: Any, where: str) -> str:
        word = str(value).lower()
        if word not in choices:
            raise ConfigurationError(f"{where}: must be {', '.join(choices[:-1])} or {choices[-1]}")
        return word
    return parse


def _flag(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise ConfigurationError(f"{where}: must be true or false")
    return value


def _tags(example: str) -> Callable[[Any, str], tuple[str, ...]]:
    def parse(value: Any, where: str) -> tuple[str, ...]:
        if not isinstance(value, list):
            raise ConfigurationError(f"{where}: must be a list of BCP 47 tags, e.g. {example}")
        return tuple(dict.fromkeys(_tag(v, where) for v in value))
    return parse


def _seconds(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 86_400:
        raise ConfigurationError(f"{where}: must be seconds from 0 (never) to 86400")
    return float(value)


def _replay_store(value: Any, where: str) -> str:
    if not isinstance(value, str) or not (value in ("memory", "sqlite") or value.startswith(
            ("sqlite:///", "redis://", "rediss://", "unix://"))):
        raise ConfigurationError(f"{where}: use memory, sqlite, sqlite:///path or redis://host:port/db")
    return value


def _sitemap(value: Any, where: str) -> tuple[str, ...]:
    """One source or a list of them: a file path, or an https URL (http only for a local
    test server). Paths are made absolute against the configuration file's folder by
    :func:`config_from_mapping`."""
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not items or not all(isinstance(v, str) and v.strip() for v in items):
        raise ConfigurationError(f"{where}: must be a sitemap file (e.g. site/sitemap.xml) or an https URL, or a "
                                 "list of them")
    sources = []
    for item in items:
        text = item.strip()
        if is_url_source(text):
            parts = urlsplit(text)
            if parts.scheme.lower() != "https" and parts.hostname not in ("127.0.0.1", "localhost", "::1"):
                raise ConfigurationError(f"{where}: {text!r} must be an https URL (http only for 127.0.0.1 or "
                                         "localhost)")
            if not parts.hostname or "@" in parts.netloc:
                raise ConfigurationError(f"{where}: {text!r} must have a host and no user information")
        sources.append(text)
    return tuple(dict.fromkeys(sources))


def _refresh_s(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 1 <= value <= 86_400:
        raise ConfigurationError(f"{where}: must be seconds from 1 to 86400")
    return float(value)


def _base_url(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise ConfigurationError(f"{where}: must be an https URL such as https://help.example.com")
    try:
        return check_base_url(value)
    except ValueError as exc:
        raise ConfigurationError(f"{where}: {exc}") from None


def _route_base_path(value: Any, where: str) -> str:
    if not isinstance(value, str) or any(c in value for c in "{}?#\\ "):
        raise ConfigurationError(f"{where}: must be a path such as docs, or / for the site root")
    return value.strip().strip("/")


def _path_pattern(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise ConfigurationError(f"{where}: must be a path such as {DEFAULT_PATH_PATTERN}")
    try:
        return check_path_pattern(value.strip())
    except ValueError as exc:
        raise ConfigurationError(f"{where}: {exc}") from None


#: key in the file → (ProviderConfig field, parser(value, where)). Paths are resolved
#: against the file's folder afterwards; citation keys are gathered into one setting.
_PARSERS: dict[str, tuple[str, Callable[[Any, str], Any]]] = {
    "content": ("content", _text("a folder path")),
    "index": ("index", _text("a folder path")),
    "ssl_certfile": ("ssl_certfile", _text("a file path")),
    "ssl_keyfile": ("ssl_keyfile", _text("a file path")),
    "host": ("host", _text("an address such as 127.0.0.1 or 0.0.0.0")),
    "port": ("port", _whole(1, 65535)),
    "default_locale": ("default_locale", _tag),
    "locales": ("locales", _tags("[en, de]")),
    "fallback_locales": ("fallback_locales", _tags("[de, en]")),
    "audience_rules": ("audience_rules", _rules),
    "audience_key": ("audience_key", _audience_key),
    "audience_values": ("audience_values", _audience_values),
    "withhold_noindex": ("withhold_noindex", _flag),
    "accepted_findings": ("accepted_findings", _acceptances),
    "layout": ("layout", _layout),
    "locale_patterns": ("locale_patterns", _locale_patterns),
    "capabilities": ("capabilities", _capabilities),
    "citation_base_url": ("base_url", _base_url),
    "internal_citation_base_url": ("internal_base_url", _base_url),
    "citation_path_pattern": ("path_pattern", _path_pattern),
    "route_base_path": ("route_base_path", _route_base_path),
    "max_file_bytes": ("max_file_bytes", _whole(1024, 1 << 30)),
    "log_level": ("log_level", _one_of("debug", "info", "warning", "error")),
    "log_format": ("log_format", _one_of("plain", "json")),
    "poll": ("poll", _flag),
    "poll_delay_ms": ("poll_delay_ms", _whole(50, 600_000)),
    "reconcile_interval": ("reconcile_interval_s", _seconds),
    "workers": ("workers", _whole(1, 64)),
    "serving_niceness": ("serving_niceness", _whole(0, 19)),
    "replay_store": ("replay_store", _replay_store),
    "metrics_host": ("metrics_host", _text("an address such as 127.0.0.1")),
    "metrics_port": ("metrics_port", _whole(0, 65535)),
    "max_in_flight": ("max_in_flight", _whole(1, 10_000)),
    "search_threads": ("search_threads", _whole(1, 256)),
    "cache_entries": ("cache_entries", _whole(0, 1_000_000)),
    "cache_mib": ("cache_mib", _whole(0, 65_536)),
    "max_connections": ("max_connections", _whole(8, 100_000)),
    "parse_timeout": ("parse_timeout_s", _whole(1, 600)),
    "sitemap": ("sitemap", _sitemap),
    "sitemap_refresh_s": ("sitemap_refresh_s", _refresh_s),
}
_PATH_FIELDS = ("content", "index", "ssl_certfile", "ssl_keyfile")
_CITATION_FIELDS = ("base_url", "internal_base_url", "path_pattern", "route_base_path")


def config_from_mapping(data: Mapping[str, Any], *, base: Path, source: Path | None = None) -> ProviderConfig:
    """Validate a configuration mapping. Relative paths are taken from ``base``.

    Raises:
        ConfigurationError: naming the key (and the file) that is wrong.
    """
    prefix = f"{source}: " if source else ""
    unknown = sorted(set(data) - set(_KNOWN_KEYS))
    if unknown:
        close = difflib.get_close_matches(str(unknown[0]), _KNOWN_KEYS, n=1)
        if close:
            raise ConfigurationError(f"{prefix}unknown setting {unknown[0]!r}; did you mean {close[0]!r}?")
        known = "\n".join(f"  {k}: {v}" for k, v in _KNOWN_KEYS.items())
        raise ConfigurationError(f"{prefix}unknown setting {unknown[0]!r}; the settings are:\n{known}")
    values: dict[str, Any] = {}
    citation: dict[str, str] = {}
    for key, value in data.items():
        field_name, parse = _PARSERS[key]
        if field_name in _CITATION_FIELDS:
            if value is not None:
                citation[field_name] = parse(value, f"{prefix}{key}")
            continue
        parsed = parse(value, f"{prefix}{key}")
        values[field_name] = (base / parsed).resolve() if field_name in _PATH_FIELDS else parsed
    if citation:
        values["citation"] = CitationSettings(**citation)
    if "sitemap" in values:
        values["sitemap"] = tuple(s if is_url_source(s) else str((base / s).resolve()) for s in values["sitemap"])
    config = replace(ProviderConfig(source=source), **values)
    if config.default_locale not in config.locales:
        config = replace(config, locales=(config.default_locale, *config.locales))
    return config


def load_config(path: Path | None, env: Mapping[str, str] | None = None, cwd: Path | None = None) -> ProviderConfig:
    """Read the configuration file.

    Looks at ``path``, else ``$KNOWLEDGE_PROVIDER_CONFIG``, else ``./knowledge-provider.yaml``
    if it exists, else uses the defaults.

    Raises:
        ConfigurationError: the file is missing (when named), unreadable or invalid.
    """
    env = os.environ if env is None else env
    cwd = cwd or Path.cwd()
    named = path or (Path(env[CONFIG_ENV]) if env.get(CONFIG_ENV) else None)
    if named is None:
        candidate = cwd / DEFAULT_CONFIG_NAME
        if not candidate.is_file():
            return ProviderConfig(content=(cwd / "content").resolve(), index=(cwd / "index").resolve())
        named = candidate
    named = named if named.is_absolute() else (cwd / named)
    try:
        text = named.read_text("utf-8")
    except FileNotFoundError:
        raise ConfigurationError(f"configuration file {named} does not exist") from None
    except OSError as exc:
        raise ConfigurationError(f"configuration file {named} cannot be read: {exc.strerror}") from None
    stream = io.StringIO(text)
    stream.name = str(named)  # so PyYAML's error positions name the file, not "<unicode string>"
    try:
        data = yaml.safe_load(stream)
    except yaml.YAMLError as exc:
        raise ConfigurationError(f"configuration file {named} is not valid YAML: {exc}") from None
    if data is None:
        data = {}
    if not isinstance(data, Mapping):
        raise ConfigurationError(f"configuration file {named} must be a mapping of settings")
    base = named.parent
    config = config_from_mapping(data, base=base, source=named)
    if "content" not in data:
        config = replace(config, content=(base / "content").resolve())
    if "index" not in data:
        config = replace(config, index=(base / "index").resolve())
    return config


def _read_secret_values(name: str, env: Mapping[str, str]) -> list[str] | None:
    direct = env.get(name)
    file_name = env.get(f"{name}_FILE")
    if direct and file_name:
        raise ConfigurationError(f"both {name} and {name}_FILE are set; set only one")
    if file_name:
        try:
            raw = Path(file_name).read_text("utf-8")
        except OSError as exc:
            raise ConfigurationError(f"{name}_FILE: cannot read {file_name}: {exc.strerror}") from None
        except UnicodeDecodeError:
            raise ConfigurationError(f"{name}_FILE: {file_name} is not UTF-8 text") from None
        source = raw
    elif direct:
        source = direct
    else:
        return None
    values = [part.strip() for part in source.replace("\n", ",").split(",") if part.strip()]
    if not values:
        raise ConfigurationError(f"{name}: is set but holds no secret")
    return values


def registrations_from_env(env: Mapping[str, str] | None = None) -> list[Registration]:
    """Build the registrations from the environment (see the module docstring).

    Returns an empty list when no secret is set (the caller decides what that means).

    Raises:
        ConfigurationError: unreadable file, both forms set, weak or shared secrets.
    """
    env = os.environ if env is None else env
    registrations = []
    sources = {}
    for exposure, name in SECRET_ENV.items():
        values = _read_secret_values(name, env)
        if values is None:
            continue
        registrations.append(Registration.from_values(exposure.value, exposure, values))
        sources[exposure.value] = name
    if registrations:
        check_registrations(registrations, sources)
    return registrations
