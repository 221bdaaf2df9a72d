"""Configuration: an optional YAML file, the environment, and command-line overrides — in
that order of precedence, lowest first.

Every setting is declared once, as a field of :class:`ProviderConfig`: its key in the
file, type, default, bounds and help (a :func:`setting`). From that declaration come the
parsing of the file (:func:`config_from_mapping`), its error messages, the ``--help`` of
the command-line options that set it (``provider.cli``), the configuration reference page
(``scripts/gen_reference.py``) and the settings handed to worker processes
(:meth:`ProviderConfig.to_json`).

Secrets never come from the YAML file (it is usually committed next to the docs):

=============================================  ==========================================
``KNOWLEDGE_PROVIDER_CUSTOMER_SAFE_SECRET``    the ``customer_safe`` registration; several
                                               secrets separated by commas (rotation)
``KNOWLEDGE_PROVIDER_AGENT_ONLY_SECRET``       the ``agent_only`` registration, likewise
``…_SECRET_FILE``                              a file holding the value instead (Docker and
                                               Kubernetes secrets)
``KNOWLEDGE_PROVIDER_CONFIG``                  the YAML file, when ``--config`` is not given
=============================================  ==========================================

Every error is a :class:`~helpthread_kit.registrations.ConfigurationError` whose
message names the setting (and the file), says what is expected and never shows a secret.
"""

from __future__ import annotations

import difflib
import io
import os
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec
import yaml

from helpthread_kit.capabilities import ALL_CAPABILITIES, CHUNKING, SEMANTIC_SEARCH, parse_capabilities
from helpthread_kit.registrations import ConfigurationError, Exposure, Registration, check_registrations

from . import config_values as values
from .wiki.audience_map import AudienceMap
from .wiki.citations import CitationSettings
from .wiki.classify import AudienceRule
from .wiki.document import WikiSettings
from .wiki.files import DEFAULT_MAX_FILE_BYTES
from .wiki.findings import Acceptance
from .wiki.layouts import DEFAULT_LAYOUT, LAYOUTS
from .wiki.locale_patterns import LocalePattern, parse_locale_pattern
from .wiki.sitemap import is_url_source

__all__ = [
    "CONFIG_ENV",
    "DEFAULT_CONFIG_NAME",
    "POLL_ENV",
    "SECRET_ENV",
    "SETTINGS",
    "ProviderConfig",
    "Setting",
    "config_from_mapping",
    "env_flag",
    "load_config",
    "registrations_from_env",
    "setting",
]

CONFIG_ENV = "KNOWLEDGE_PROVIDER_CONFIG"
#: Any value but 0/false/no/off asks for polling instead of OS file notifications.
POLL_ENV = "KNOWLEDGE_PROVIDER_POLL"
DEFAULT_CONFIG_NAME = "knowledge-provider.yaml"
SECRET_ENV: dict[Exposure, str] = {
    Exposure.CUSTOMER_SAFE: "KNOWLEDGE_PROVIDER_CUSTOMER_SAFE_SECRET",
    Exposure.AGENT_ONLY: "KNOWLEDGE_PROVIDER_AGENT_ONLY_SECRET",
}
_REPLAY_STORE = r"^(memory|sqlite)$|^(sqlite:///|rediss?://|unix://)"


def setting(
    help: str,
    *,
    ge: float | None = None,
    le: float | None = None,
    pattern: str | None = None,
    expects: str | None = None,
    default: str | None = None,
    env: str | None = None,
    path: Literal["folder", "file"] | None = None,
    parse: Callable[[Any, str], Any] | None = None,
    reload: bool = False,
) -> msgspec.Meta:
    """The declaration of one setting, for ``Annotated[type, setting(...)]``.

    Args:
        help: what it means, one line in lower case (``--help``, the reference page).
        ge, le: inclusive bounds of a number (checked by msgspec).
        pattern: a regular expression a text must match (checked by msgspec).
        expects: what a valid value is, completing "must be …"; derived from the type
            and bounds when not given.
        default: the default in words, when the value alone does not say it.
        env: an environment variable that sets it too (over the file).
        path: a ``folder`` or ``file`` path, relative to the configuration file.
        parse: a reader ``(value, where) -> value`` for a file form richer than the type
            (:mod:`provider.config_values`); it raises its own errors.
        reload: a change of the file applies to a running ``serve`` (the index writer
            reads the wiki again with it, :mod:`provider.reload`); otherwise the change
            waits for a restart and the log says so. Every setting that can make a page
            less public is one of these.
    """
    extra = {"expects": expects, "default": default, "env": env, "path": path, "parse": parse,
             "reload": reload or None}
    checks: dict[str, Any] = {"ge": ge, "le": le, "pattern": pattern}
    meta: msgspec.Meta = msgspec.Meta(**{k: v for k, v in checks.items() if v is not None}, description=help,
                                      extra={k: v for k, v in extra.items() if v is not None})
    return meta


class ProviderConfig(msgspec.Struct, frozen=True, kw_only=True):
    """Every setting of the provider except secrets, in the order of the reference page.

    A field's name in the file is its attribute's, except ``reconcile_interval``,
    ``parse_timeout`` and ``locale_patterns`` (renamed below); ``source`` and
    ``overridden`` are no settings. Derived views: :attr:`citation`,
    :attr:`locale_patterns`, :attr:`fallback_chain`, :attr:`chunking`,
    :attr:`state_dir`, :attr:`replay_store_spec`.
    """

    content: Annotated[Path, setting("folder of markdown files", path="folder")] = Path("content")
    index: Annotated[Path, setting("folder for the generated index", path="folder")] = Path("index")
    host: Annotated[str, setting("address to listen on; 0.0.0.0 in a container",
                                 expects="an address such as 127.0.0.1 or 0.0.0.0")] = "127.0.0.1"
    port: Annotated[int, setting("TCP port", ge=1, le=65535)] = 8080
    default_locale: Annotated[str, setting("BCP 47 tag of files that name no locale", expects="a BCP 47 tag",
                                           parse=values.tag)] = "en"
    locales: Annotated[tuple[str, ...], setting(
        "BCP 47 tags recognised in paths, e.g. [en, de]", expects="a list of BCP 47 tags, e.g. [en, de]",
        parse=values.tags("[en, de]"), reload=True)] = ("en",)
    audience_rules: Annotated[tuple[AudienceRule, ...], setting(
        "list of {pattern: public|internal|withhold|skip} glob rules; first public/internal match wins (an "
        "internal match holds whatever the page says), every withhold/skip match applies",
        expects="a list of `{glob: audience}`", default="none",
        parse=values.audience_rules, reload=True)] = ()
    audience_key: Annotated[str | None, setting(
        "front matter key that carries the audience, or none", expects="a key, or `none`",
        parse=values.audience_key, reload=True)] = "audience"
    audience_values: Annotated[tuple[tuple[str, str], ...], setting(
        "exact map of that key's values to public|internal, e.g. {ITPro: public}; others internal",
        expects="a mapping of value to `public` or `internal`", default="none",
        parse=values.audience_values, reload=True)] = ()
    withhold_noindex: Annotated[bool, setting(
        "true to serve nobody pages whose front matter ROBOTS says NOINDEX", reload=True)] = False
    accepted_findings: Annotated[tuple[Acceptance, ...], setting(
        "reviewed heuristic findings to ignore: a list of {path, finding, digest} (text: one wording)",
        expects="a list of `{path, finding, digest}` (and `text`)", default="none", parse=values.acceptances,
        reload=True)] = ()
    layout: Annotated[str, setting(
        "docs tool preset", expects=f"one of {', '.join(LAYOUTS)}", parse=values.layout, reload=True)] = DEFAULT_LAYOUT
    locale_pattern_pairs: Annotated[tuple[tuple[str, str | None], ...], setting(
        "list of path patterns with {locale}, e.g. [\"content/{locale}/**\"]; replaces the layout's",
        expects="a list of patterns with `{locale}`", default="the layout's",
        parse=values.locale_patterns, reload=True)] | None = msgspec.field(default=None, name="locale_patterns")
    capabilities: Annotated[str | tuple[str, ...], setting(
        "capabilities to declare: minimum | all | list of capability names",
        expects="`minimum`, `all` or a list of capability names", parse=values.capabilities)] = "minimum"
    semantic_search: Annotated[bool, setting(
        "true to match passages by meaning too (declares semanticSearch); needs the semantic extra, "
        "rebuilds the index")] = False
    semantic_model: Annotated[str, setting(
        "with semantic_search: wordllama (English, shipped in the package) or a folder holding a static model's "
        "model.safetensors and tokenizer.json", expects="`wordllama` or a folder")] = "wordllama"
    semantic_weight: Annotated[float, setting(
        "with semantic_search: weight of the meaning ranking against the word ranking (1.0) when they are fused",
        ge=0, le=10, expects="a number from 0 to 10")] = 1.0
    fallback_locales: Annotated[tuple[str, ...], setting(
        "BCP 47 tags tried in order with localeFallback; the default locale is always last",
        expects="a list of BCP 47 tags, e.g. [de, en]", default="[default_locale]",
        parse=values.tags("[de, en]"))] | None = None
    citation_base_url: Annotated[str, setting(
        "https base URL of the public site, for citation URLs (citationUrl)", expects="an https URL",
        parse=values.base_url, reload=True)] | None = None
    citation_path_pattern: Annotated[str, setting(
        "path appended to a base URL, with {path} {locale} {locale_key} {locale_prefix} {id} {slug}",
        expects="a path pattern", default="the layout's, e.g. /{locale_prefix}{path}/ for hugo",
        parse=values.path_pattern, reload=True)] | None = None
    route_base_path: Annotated[str | None, setting(
        "Docusaurus: the docs plugin's routeBasePath, for {path}; / for none; unset: as docusaurus.config.js "
        "writes it (else docs)", expects="a path",
        parse=values.route_base_path, reload=True)] = values.ROUTE_BASE_PATH
    docfx_base_paths: Annotated[tuple[tuple[str, str], ...], setting(
        "DocFX / Microsoft Learn: where the site puts each docset (a folder holding a docfx.json), e.g. "
        "{Exchange: /exchange/troubleshoot}; needed when there are several docsets",
        expects="a mapping of docset folder to URL path", default="none",
        parse=values.docfx_base_paths, reload=True)] = ()
    internal_citation_base_url: Annotated[str, setting(
        "https base URL where agents read internal documents (agent_only only)", expects="an https URL",
        parse=values.base_url, reload=True)] | None = None
    max_file_bytes: Annotated[int, setting("larger markdown files are skipped", ge=1024,
                                           le=1 << 30, reload=True)] = DEFAULT_MAX_FILE_BYTES
    log_level: Annotated[Literal["debug", "info", "warning", "error"], setting("log level")] = "info"
    poll: Annotated[bool, setting("poll for file changes instead of OS notifications (NFS, SMB, Docker Desktop)",
                                  env=POLL_ENV)] = False
    poll_delay_ms: Annotated[int, setting("polling period in milliseconds", ge=50, le=600_000)] = 1000
    reconcile_interval_s: Annotated[float, setting(
        "seconds between full re-scans of the content folder; 0 = never", ge=0,
        le=86_400)] = msgspec.field(default=300.0, name="reconcile_interval")
    parse_timeout_s: Annotated[int, setting(
        "seconds one file may take to read and parse before it is skipped", ge=1,
        le=600, reload=True)] = msgspec.field(default=30, name="parse_timeout")
    workers: Annotated[int, setting(
        "serving processes; the index is written by the parent process, never by them", ge=1, le=64)] = 1
    serving_niceness: Annotated[int, setting(
        "how many steps (Unix nice) the serving processes yield the CPU to the index writer", ge=0, le=19)] = 5
    replay_store: Annotated[str, setting(
        "where verified nonces are kept: memory | sqlite | sqlite:///path | redis://host:port/db",
        pattern=_REPLAY_STORE, expects="memory, sqlite, sqlite:///path or redis://host:port/db",
        default="memory, sqlite if workers > 1")] | None = None
    metrics_host: Annotated[str, setting("address of the Prometheus /metrics listener",
                                         expects="an address such as 127.0.0.1")] = "127.0.0.1"
    metrics_port: Annotated[int, setting("port of the Prometheus /metrics listener; 0 = off", ge=0,
                                         le=65535)] = 9464
    log_format: Annotated[Literal["plain", "json"], setting("log lines as plain text or JSON")] = "plain"
    max_in_flight: Annotated[int, setting("searches admitted at once per worker; beyond it 503 overloaded", ge=1,
                                          le=10_000)] = 32
    max_connections: Annotated[int, setting("open connections per worker; beyond it new ones get 503", ge=8,
                                            le=100_000)] = 512
    search_threads: Annotated[int, setting("threads running searches per worker", ge=1, le=256)] = 4
    cache_entries: Annotated[int, setting(
        "answers cached per worker, invalidated by every index commit; 0 = off", ge=0, le=1_000_000)] = 2048
    cache_mib: Annotated[int, setting("MiB those cached answers may hold per worker; 0 = off", ge=0,
                                      le=65_536)] = 32
    ssl_certfile: Annotated[Path, setting("PEM certificate to terminate TLS in the provider (with ssl_keyfile)",
                                          path="file")] | None = None
    ssl_keyfile: Annotated[Path, setting("PEM private key of ssl_certfile", path="file")] | None = None
    sitemap: Annotated[tuple[str, ...], setting(
        "the site's sitemap: a file of the build output (relative to this file) or an https URL, or a list of "
        "them; then a page is public only if its citation URL is on the site",
        expects="a sitemap file or an https URL, or a list of them", default="none", path="file",
        parse=values.sitemap, reload=True)] = ()
    sitemap_refresh_s: Annotated[float, setting(
        "seconds between reads of the sitemap; a changed sitemap file is read at once", ge=1, le=86_400,
        reload=True)] = 600.0
    sitemap_max_mib: Annotated[int, setting(
        "MiB one sitemap file may hold, decompressed (a larger one, or a gzip expanding beyond it, is refused "
        "and the last good sitemap holds)", ge=1, le=1024, reload=True)] = 50
    sitemap_max_urls: Annotated[int, setting(
        "URLs one sitemap file may list (the sitemap protocol's limit; more is refused and the last good "
        "sitemap holds)", ge=1, le=10_000_000, reload=True)] = 50_000
    #: The YAML file read, if any (for messages).
    source: Path | None = None
    #: The settings given as command-line options (for messages).
    overridden: frozenset[str] = frozenset()

    @property
    def citation(self) -> CitationSettings:
        """The citation URL settings (:mod:`provider.wiki.citations`)."""
        return CitationSettings(base_url=self.citation_base_url, path_pattern=self.citation_path_pattern,
                                internal_base_url=self.internal_citation_base_url,
                                route_base_path=self.route_base_path, docfx_base_paths=self.docfx_base_paths)

    @property
    def locale_patterns(self) -> tuple[LocalePattern, ...] | None:
        """The explicit locale patterns (replacing the layout's), or ``None``."""
        if self.locale_pattern_pairs is None:
            return None
        return tuple(parse_locale_pattern(pattern, source) for pattern, source in self.locale_pattern_pairs)

    def wiki_settings(self) -> WikiSettings:
        """How to read and index the wiki. The index holds chunks when ``chunking`` is
        among the configured capabilities, and a vector per entry with ``semantic_search``.

        Raises:
            ConfigurationError: ``semantic_search`` is on and its model cannot be loaded.
        """
        if self.semantic_search:
            from .search.embedding import EmbeddingUnavailable, load_embedder  # the extra: only when switched on

            try:
                load_embedder(self.semantic_model_path)
            except EmbeddingUnavailable as exc:
                raise ConfigurationError(f"{self._where('semantic_model')}: {exc}") from None
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
            sitemap_max_bytes=self.sitemap_max_mib * 1024 * 1024,
            sitemap_max_urls=self.sitemap_max_urls,
            accepted_findings=self.accepted_findings,
            semantic_model=self.semantic_model_path if self.semantic_search else None,
        )

    @property
    def semantic_model_path(self) -> str:
        """``semantic_model`` as :func:`~provider.search.embedding.load_embedder` takes it: the
        shipped model's name, or a folder resolved against the configuration file's."""
        if self.semantic_model == "wordllama":
            return self.semantic_model
        folder = Path(self.semantic_model).expanduser()
        if not folder.is_absolute() and self.source is not None:
            folder = self.source.parent / folder
        return str(folder)

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
        if not self.semantic_search and SEMANTIC_SEARCH in _named(self.capabilities):
            raise ConfigurationError(f"{self._where('capabilities')}: semanticSearch is switched on by "
                                     "`semantic_search: true` (and the semantic extra), not by naming it here")
        try:
            declared = parse_capabilities(self.capabilities, implemented=implemented - {SEMANTIC_SEARCH})
        except ValueError as exc:
            raise ConfigurationError(f"{self._where('capabilities')}: {exc}") from None
        # Only ever by the operator's own switch (C2): `all` means every lexical capability.
        return declared | {SEMANTIC_SEARCH} if self.semantic_search else declared

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
        """A copy with the given settings replaced (``None`` values are ignored); they are
        blamed on their command-line option in messages.

        Raises:
            ConfigurationError: ``capabilities`` given as something else than text or a list.
        """
        changed = {k: v for k, v in overrides.items() if v is not None}
        if "capabilities" in changed and isinstance(changed["capabilities"], str):
            changed["capabilities"] = values.capabilities(changed["capabilities"], "--capabilities")
        return msgspec.structs.replace(self, **changed, overridden=self.overridden | frozenset(changed))

    def to_json(self) -> bytes:
        """These settings as JSON (how ``serve`` hands them to its worker processes)."""
        return msgspec.json.encode(self, enc_hook=_encode_path)

    @classmethod
    def from_json(cls, data: bytes | str) -> ProviderConfig:
        """The settings :meth:`to_json` wrote.

        Raises:
            msgspec.ValidationError: ``data`` is not such settings (a bound is checked again).
        """
        return msgspec.json.decode(data, type=cls, dec_hook=_decode_path)

    def _where(self, key: str) -> str:
        """Where a setting came from, for error messages: the option or the file."""
        if key in self.overridden:
            return f"--{key.replace('_', '-')}"
        return f"{self.source}: {key}" if self.source else key


def _encode_path(value: Any) -> Any:
    if isinstance(value, Path):
        return str(value)
    raise NotImplementedError(type(value))


def _decode_path(kind: type, value: Any) -> Any:
    if kind is not Path:
        raise NotImplementedError(kind)
    if not isinstance(value, str):
        raise TypeError("a path must be text")  # msgspec reports it as a ValidationError
    return Path(value)


def _named(capabilities: str | tuple[str, ...]) -> set[str]:
    """The capability names a ``capabilities`` value lists by name (none for a keyword)."""
    parts = capabilities.split(",") if isinstance(capabilities, str) else capabilities
    return {str(part).strip() for part in parts}


def env_flag(value: str | None) -> bool:
    """Whether an environment variable's value says yes: set, and not 0/false/no/off."""
    return (value or "").strip().lower() not in ("", "0", "false", "no", "off")


def _show(value: Any) -> str:
    """A value as it would be written in the YAML file."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, tuple):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    return str(value)


def _given(value: Any) -> str:
    """The value an operator wrote, short, for a message."""
    text = repr(value)
    return text if len(text) <= 60 else text[:59] + "…"


@dataclass(frozen=True)
class Setting:
    """One setting as :class:`ProviderConfig` declares it (see :func:`setting`).

    Attributes:
        key: its name in the file (``reconcile_interval``).
        attr: its attribute (``reconcile_interval_s``).
        kind: the value's type without ``None`` and metadata (``int``, ``Path``, a
            ``Literal``, ``tuple[str, ...]``…).
        checked: ``kind`` with its bounds, as msgspec checks it.
        meta: the :func:`setting` declaration.
        default: the default value.
    """

    key: str
    attr: str
    kind: Any
    checked: Any
    meta: msgspec.Meta
    default: Any

    @property
    def help(self) -> str:
        return self.meta.description or ""

    @property
    def env(self) -> str | None:
        return (self.meta.extra or {}).get("env")

    @property
    def reloadable(self) -> bool:
        """Whether a change of the file applies to a running ``serve`` (see :func:`setting`)."""
        return bool((self.meta.extra or {}).get("reload"))

    @property
    def path(self) -> str | None:
        """``folder`` or ``file`` for a path setting."""
        return (self.meta.extra or {}).get("path")

    @property
    def choices(self) -> tuple[str, ...]:
        return typing.get_args(self.kind) if typing.get_origin(self.kind) is Literal else ()

    @property
    def default_text(self) -> str:
        """The default as the file would write it, or in words."""
        return str((self.meta.extra or {}).get("default") or _show(self.default))

    @property
    def expects(self) -> str:
        """What a valid value is, completing "must be …"."""
        declared = (self.meta.extra or {}).get("expects")
        if declared:
            return str(declared)
        if self.kind is bool:
            return "true or false"
        if self.choices:
            return f"{', '.join(self.choices[:-1])} or {self.choices[-1]}"
        if self.kind is int:
            return f"a whole number from {self.meta.ge} to {self.meta.le}"
        if self.kind is float:
            return f"seconds from {self.meta.ge:g} to {self.meta.le:g}"
        return "a folder path" if self.path == "folder" else "a file path"

    def read(self, value: Any, where: str, base: Path) -> Any:
        """The file's ``value`` as this setting holds it, relative paths taken from ``base``.

        Raises:
            ConfigurationError: ``where``: must be … (what :attr:`expects` says), not ….
        """
        parse = (self.meta.extra or {}).get("parse")
        if parse is not None:
            return _relative(parse(value, where), base) if self.path else parse(value, where)
        given = value
        if self.choices and not isinstance(value, bool):
            value = str(value).lower()
        if isinstance(value, str):
            value = value.strip()
        try:
            if value == "":
                raise msgspec.ValidationError("empty")
            parsed = msgspec.convert(value, self.checked, dec_hook=_decode_path)
        except msgspec.ValidationError:
            raise ConfigurationError(f"{where}: must be {self.expects}, not {_given(given)}") from None
        return _relative(parsed, base) if self.path else parsed


def _relative(value: Any, base: Path) -> Any:
    """A path setting's value with relative paths taken from ``base`` (URLs as they are)."""
    if isinstance(value, tuple):
        return tuple(_relative(item, base) for item in value)
    if isinstance(value, str):
        return value if is_url_source(value) else str((base / value).resolve())
    return (base / value).resolve()


def _unwrap(declared: Any) -> tuple[Any, Any, msgspec.Meta | None]:
    """(kind, checked, meta) of a field's type: ``Annotated[T, meta] | None`` or
    ``Annotated[T, meta]``; meta is ``None`` for what is no setting."""
    if typing.get_origin(declared) in (typing.Union, types.UnionType):
        declared = next(arg for arg in typing.get_args(declared) if arg is not type(None))
    if typing.get_origin(declared) is not Annotated:
        return declared, declared, None
    kind, *metas = typing.get_args(declared)
    meta = next((m for m in metas if isinstance(m, msgspec.Meta)), None)
    return kind, declared, meta


def _declared_settings() -> dict[str, Setting]:
    found = {}
    for field in msgspec.structs.fields(ProviderConfig):
        kind, checked, meta = _unwrap(field.type)
        if meta is not None:
            found[field.encode_name] = Setting(field.encode_name, field.name, kind, checked, meta, field.default)
    return found


#: Every setting by its key in the file, in declaration order.
SETTINGS: dict[str, Setting] = _declared_settings()


def _check_known(data: Mapping[str, Any], prefix: str) -> None:
    unknown = sorted(str(key) for key in set(data) - set(SETTINGS))
    if not unknown:
        return
    close = difflib.get_close_matches(unknown[0], SETTINGS, n=1)
    if close:
        raise ConfigurationError(f"{prefix}unknown setting {unknown[0]!r}; did you mean {close[0]!r}?")
    known = "\n".join(f"  {key}: {s.help} (default: {s.default_text})" for key, s in SETTINGS.items())
    raise ConfigurationError(f"{prefix}unknown setting {unknown[0]!r}; the settings are:\n{known}")


def config_from_mapping(data: Mapping[str, Any], *, base: Path, source: Path | None = None) -> ProviderConfig:
    """Validate a configuration mapping. Relative paths are taken from ``base``.

    Raises:
        ConfigurationError: naming the key (and the file) that is wrong, and what it must be.
    """
    prefix = f"{source}: " if source else ""
    _check_known(data, prefix)
    parsed = {SETTINGS[key].attr: SETTINGS[key].read(value, f"{prefix}{key}", base) for key, value in data.items()}
    config = ProviderConfig(**parsed, source=source)
    if config.default_locale not in config.locales:
        config = msgspec.structs.replace(config, locales=(config.default_locale, *config.locales))
    return config


def _from_environment(config: ProviderConfig, env: Mapping[str, str]) -> ProviderConfig:
    """Settings that an environment variable sets: a yes/no one is turned on by any value
    but 0/false/no/off (a "no" leaves the file's value); others are read as in the file."""
    changed = {}
    for item in SETTINGS.values():
        if item.env is None or item.env not in env:
            continue
        if item.kind is bool:
            if env_flag(env[item.env]):
                changed[item.attr] = True
        else:
            changed[item.attr] = item.read(env[item.env], f"${item.env}", Path.cwd())
    return msgspec.structs.replace(config, **changed) if changed else config


def load_config(path: Path | None, env: Mapping[str, str] | None = None, cwd: Path | None = None) -> ProviderConfig:
    """Read the configuration file.

    Looks at ``path``, else ``$KNOWLEDGE_PROVIDER_CONFIG``, else ``./knowledge-provider.yaml``
    if it exists, else uses the defaults; then the settings ``env`` sets (see
    :func:`setting`).

    Raises:
        ConfigurationError: the file is missing (when named), unreadable or invalid.
    """
    env = os.environ if env is None else env
    cwd = cwd or Path.cwd()
    named = path or (Path(env[CONFIG_ENV]) if env.get(CONFIG_ENV) else None)
    if named is None:
        candidate = cwd / DEFAULT_CONFIG_NAME
        if not candidate.is_file():
            defaults = ProviderConfig(content=(cwd / "content").resolve(), index=(cwd / "index").resolve())
            return _from_environment(defaults, env)
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
    # Folders left out are next to the file, as written ones are taken from it.
    unset = {s.attr: _relative(s.default, base) for key, s in SETTINGS.items()
             if isinstance(s.default, Path) and key not in data}
    return _from_environment(msgspec.structs.replace(config, **unset), env)


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
