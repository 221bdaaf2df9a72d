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
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

from .contract.capabilities import ALL_CAPABILITIES, CHUNKING, parse_capabilities
from .contract.registrations import ConfigurationError, Exposure, Registration, check_registrations
from .wiki.citations import DEFAULT_PATH_PATTERN, CitationSettings, check_base_url, check_path_pattern
from .wiki.classify import AUDIENCES, AudienceRule
from .wiki.document import WikiSettings
from .wiki.files import DEFAULT_MAX_FILE_BYTES
from .wiki.layouts import DEFAULT_LAYOUT, LAYOUTS
from .wiki.locale_patterns import LocalePattern, parse_locale_pattern
from .wiki.locales import normalize_tag

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
    "audience_rules": "list of {pattern: audience} glob rules, first match wins",
    "layout": f"docs tool preset: {' | '.join(LAYOUTS)} (default: {DEFAULT_LAYOUT})",
    "locale_patterns": "list of path patterns with {locale}, e.g. [\"content/{locale}/**\"]; replaces the layout's",
    "capabilities": "minimum | all | list of capability names",
    "fallback_locales": "BCP 47 tags tried in order with localeFallback; the default locale is always last "
                        "(default: [default_locale])",
    "citation_base_url": "https base URL of the public site, for citation URLs (citationUrl)",
    "citation_path_pattern": "path appended to a base URL, with {path} {locale} {locale_prefix} {id} {slug} "
                             "(default: /{path})",
    "internal_citation_base_url": "https base URL where agents read internal documents (agent_only only)",
    "max_file_bytes": "larger markdown files are skipped (default: 2097152)",
    "log_level": "debug | info | warning | error (default: info)",
    "poll": "true to poll for file changes instead of OS notifications (NFS, SMB, Docker Desktop)",
    "poll_delay_ms": "polling period in milliseconds (default: 1000)",
    "reconcile_interval": "seconds between full re-scans of the content folder; 0 = never (default: 300)",
    "workers": "serving processes (default: 1); the index is still written by one process",
    "replay_store": "memory | sqlite | sqlite:///path | redis://host:port/db (default: memory, sqlite if workers > 1)",
    "metrics_host": "address of the Prometheus /metrics listener (default: 127.0.0.1)",
    "metrics_port": "port of the Prometheus /metrics listener; 0 = off (default: 9464)",
    "log_format": "plain | json (default: plain)",
    "max_in_flight": "searches admitted at once per worker; beyond it 503 overloaded (default: 32)",
    "max_connections": "open connections per worker; beyond it new ones get 503 (default: 512)",
    "search_threads": "threads running searches per worker (default: 4)",
    "cache_entries": "answers cached per worker, invalidated by every index commit; 0 = off (default: 2048)",
    "ssl_certfile": "PEM certificate to terminate TLS in the provider (with ssl_keyfile)",
    "ssl_keyfile": "PEM private key for ssl_certfile",
}


@dataclass(frozen=True)
class ProviderConfig:
    """Every setting of the provider except secrets.

    Attributes:
        content: the wiki folder.
        index: the index folder.
        host, port: where ``serve`` listens.
        default_locale, locales: see :class:`~provider.wiki.document.WikiSettings`.
        audience_rules: operator rules, first match wins.
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
        workers: serving processes.
        replay_store: ``memory``, ``sqlite``, ``sqlite:///path`` or ``redis://…``; ``None``
            picks memory for one worker and sqlite for several.
        metrics_host, metrics_port: the Prometheus listener; port 0 turns it off.
        log_format: ``plain`` or ``json`` (one JSON object per line).
        max_in_flight, search_threads, cache_entries: per-worker serving limits.
        max_connections: open connections per worker before new ones are answered 503
            (bounds descriptors when clients hold connections open).
        ssl_certfile, ssl_keyfile: TLS in the provider (both or neither).
        source: the YAML file read, if any (for messages).
    """

    content: Path = Path("content")
    index: Path = Path("index")
    host: str = "127.0.0.1"
    port: int = 8080
    default_locale: str = "en"
    locales: tuple[str, ...] = ("en",)
    audience_rules: tuple[AudienceRule, ...] = ()
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
    replay_store: str | None = None
    metrics_host: str = "127.0.0.1"
    metrics_port: int = 9464
    log_format: str = "plain"
    max_in_flight: int = 32
    max_connections: int = 512
    search_threads: int = 4
    cache_entries: int = 2048
    ssl_certfile: Path | None = None
    ssl_keyfile: Path | None = None
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
        if audience not in AUDIENCES:
            raise ConfigurationError(f"{where}: rule {pattern!r} must say public or internal, not {audience!r}")
        rules.append(AudienceRule(pattern=pattern.strip().lstrip("/"), audience=audience))
    return tuple(rules)


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
    config = ProviderConfig(source=source)
    values: dict[str, Any] = {}
    for key in ("content", "index"):
        if key in data:
            if not isinstance(data[key], str) or not data[key].strip():
                raise ConfigurationError(f"{prefix}{key}: must be a folder path")
            values[key] = (base / data[key]).resolve()
    if "host" in data:
        if not isinstance(data["host"], str) or not data["host"].strip():
            raise ConfigurationError(f"{prefix}host: must be an address such as 127.0.0.1 or 0.0.0.0")
        values["host"] = data["host"].strip()
    if "port" in data:
        values["port"] = _int(data["port"], f"{prefix}port", 1, 65535)
    if "default_locale" in data:
        values["default_locale"] = _tag(data["default_locale"], f"{prefix}default_locale")
    if "locales" in data:
        if not isinstance(data["locales"], list) or not data["locales"]:
            raise ConfigurationError(f"{prefix}locales: must be a list of BCP 47 tags, e.g. [en, de]")
        values["locales"] = tuple(dict.fromkeys(_tag(v, f"{prefix}locales") for v in data["locales"]))
    if "audience_rules" in data:
        values["audience_rules"] = _rules(data["audience_rules"], f"{prefix}audience_rules")
    if "layout" in data:
        values["layout"] = _layout(data["layout"], f"{prefix}layout")
    if "locale_patterns" in data:
        values["locale_patterns"] = _locale_patterns(data["locale_patterns"], f"{prefix}locale_patterns")
    if "capabilities" in data:
        values["capabilities"] = _capabilities(data["capabilities"], f"{prefix}capabilities")
    if "fallback_locales" in data:
        value = data["fallback_locales"]
        if not isinstance(value, list):
            raise ConfigurationError(f"{prefix}fallback_locales: must be a list of BCP 47 tags, e.g. [de, en]")
        values["fallback_locales"] = tuple(dict.fromkeys(_tag(v, f"{prefix}fallback_locales") for v in value))
    citation = {}
    for key, field_name in (("citation_base_url", "base_url"), ("internal_citation_base_url", "internal_base_url")):
        if key in data and data[key] is not None:
            if not isinstance(data[key], str):
                raise ConfigurationError(f"{prefix}{key}: must be an https URL such as https://help.example.com")
            try:
                citation[field_name] = check_base_url(data[key])
            except ValueError as exc:
                raise ConfigurationError(f"{prefix}{key}: {exc}") from None
    if "citation_path_pattern" in data:
        pattern = data["citation_path_pattern"]
        if not isinstance(pattern, str):
            raise ConfigurationError(f"{prefix}citation_path_pattern: must be a path such as {DEFAULT_PATH_PATTERN}")
        try:
            citation["path_pattern"] = check_path_pattern(pattern.strip())
        except ValueError as exc:
            raise ConfigurationError(f"{prefix}citation_path_pattern: {exc}") from None
    if citation:
        values["citation"] = CitationSettings(**citation)
    if "max_file_bytes" in data:
        values["max_file_bytes"] = _int(data["max_file_bytes"], f"{prefix}max_file_bytes", 1024, 1 << 30)
    if "log_level" in data:
        level = str(data["log_level"]).lower()
        if level not in ("debug", "info", "warning", "error"):
            raise ConfigurationError(f"{prefix}log_level: must be debug, info, warning or error")
        values["log_level"] = level
    if "poll" in data:
        if not isinstance(data["poll"], bool):
            raise ConfigurationError(f"{prefix}poll: must be true or false")
        values["poll"] = data["poll"]
    if "poll_delay_ms" in data:
        values["poll_delay_ms"] = _int(data["poll_delay_ms"], f"{prefix}poll_delay_ms", 50, 600_000)
    if "reconcile_interval" in data:
        interval = data["reconcile_interval"]
        if isinstance(interval, bool) or not isinstance(interval, (int, float)) or not 0 <= interval <= 86_400:
            raise ConfigurationError(f"{prefix}reconcile_interval: must be seconds from 0 (never) to 86400")
        values["reconcile_interval_s"] = float(interval)
    if "workers" in data:
        values["workers"] = _int(data["workers"], f"{prefix}workers", 1, 64)
    if "replay_store" in data:
        spec = data["replay_store"]
        if not isinstance(spec, str) or not (spec in ("memory", "sqlite") or spec.startswith(
                ("sqlite:///", "redis://", "rediss://", "unix://"))):
            raise ConfigurationError(f"{prefix}replay_store: use memory, sqlite, sqlite:///path or redis://host:port/db")
        values["replay_store"] = spec
    if "metrics_host" in data:
        if not isinstance(data["metrics_host"], str) or not data["metrics_host"].strip():
            raise ConfigurationError(f"{prefix}metrics_host: must be an address such as 127.0.0.1")
        values["metrics_host"] = data["metrics_host"].strip()
    if "metrics_port" in data:
        values["metrics_port"] = _int(data["metrics_port"], f"{prefix}metrics_port", 0, 65535)
    if "log_format" in data:
        if data["log_format"] not in ("plain", "json"):
            raise ConfigurationError(f"{prefix}log_format: must be plain or json")
        values["log_format"] = data["log_format"]
    for key, low, high in (("max_in_flight", 1, 10_000), ("search_threads", 1, 256), ("cache_entries", 0, 1_000_000),
                           ("max_connections", 8, 100_000)):
        if key in data:
            values[key] = _int(data[key], f"{prefix}{key}", low, high)
    for key in ("ssl_certfile", "ssl_keyfile"):
        if key in data:
            if not isinstance(data[key], str) or not data[key].strip():
                raise ConfigurationError(f"{prefix}{key}: must be a file path")
            values[key] = (base / data[key]).resolve()
    config = replace(config, **values)
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
    try:
        data = yaml.safe_load(text)
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
