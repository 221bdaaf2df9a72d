"""Readers of the settings whose file form is richer than one type: language tags, audience
rules and values, locale patterns, capabilities, citation URLs and sitemaps.

Each takes the value as YAML gave it and ``where`` (the file and key, for messages) and
returns the value :class:`~provider.config.ProviderConfig` holds.

Raises (every function):
    ConfigurationError: naming ``where`` and what is expected.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import urlsplit

from helpthread_kit.registrations import ConfigurationError

from .wiki.audience_map import SKIP, WITHHOLD
from .wiki.citations import DEFAULT_PATH_PATTERN, CitationSettings, check_base_url, check_path_pattern
from .wiki.classify import AUDIENCES, AudienceRule
from .wiki.findings import Acceptance, parse_acceptances
from .wiki.layouts import LAYOUTS
from .wiki.locale_patterns import parse_locale_pattern
from .wiki.locales import normalize_tag
from .wiki.sitemap import is_url_source

#: Docusaurus's default ``routeBasePath`` (a key left empty in the file means it too).
ROUTE_BASE_PATH = CitationSettings.route_base_path


def tag(value: Any, where: str) -> str:
    if isinstance(value, bool):
        # YAML 1.1 (PyYAML) reads unquoted no/yes/on/off as booleans: `locales: [en, no]`
        # would otherwise report "False is not a BCP 47 language tag".
        word = "no (or off)" if value is False else "yes (or on)"
        raise ConfigurationError(
            f"{where}: YAML reads an unquoted {word} as {str(value).lower()}, not as a language tag: quote it, "
            "e.g. [en, \"no\"] for Norwegian"
        )
    canonical = normalize_tag(value) if isinstance(value, str) else None
    if canonical is None:
        raise ConfigurationError(f"{where}: {value!r} is not a BCP 47 language tag (e.g. en, de, pt-BR)")
    return canonical


def audience_rules(value: Any, where: str) -> tuple[AudienceRule, ...]:
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


def audience_key(value: Any, where: str) -> str | None:
    if value is None or (isinstance(value, str) and value.strip().lower() == "none") or value is False:
        return None
    if not isinstance(value, str) or not value.strip():
        raise ConfigurationError(f"{where}: must be a front matter key such as audience, or none")
    return value.strip()


def _text_map(value: Any, where: str, *, shape: str, entry: Callable[[Any, Any], tuple[str, str] | None],
              problem: Callable[[Any, Any], str]) -> tuple[tuple[str, str], ...]:
    """A non-empty mapping read entry by entry: ``entry`` gives the pair to keep, or
    ``None`` when the entry is wrong (then ``problem`` says how)."""
    if not isinstance(value, Mapping) or not value:
        raise ConfigurationError(f"{where}: must be a map of {shape}")
    out: dict[str, str] = {}
    for key, item in value.items():
        pair = entry(key, item)
        if pair is None:
            raise ConfigurationError(f"{where}: {problem(key, item)}")
        out[pair[0]] = pair[1]
    return tuple(out.items())


def audience_values(value: Any, where: str) -> tuple[tuple[str, str], ...]:
    return _text_map(value, where, shape="front matter values to public or internal, e.g. {ITPro: public, "
                     "Admin: public}",
                     entry=lambda key, audience: (key, audience) if isinstance(key, str) and audience in AUDIENCES
                     else None,
                     problem=lambda key, audience: f"{key!r} must map to public or internal, not {audience!r}")


def acceptances(value: Any, where: str) -> tuple[Acceptance, ...]:
    try:
        return parse_acceptances(value, where)
    except ValueError as exc:
        raise ConfigurationError(str(exc)) from None


def layout(value: Any, where: str) -> str:
    if not isinstance(value, str) or value.strip().lower() not in LAYOUTS:
        raise ConfigurationError(f"{where}: must be one of {', '.join(LAYOUTS)}, not {value!r}")
    return value.strip().lower()


def locale_patterns(value: Any, where: str) -> tuple[tuple[str, str | None], ...]:
    """``- "content/{locale}/**"`` or ``- "i18n/{locale}/…/current/**": "docs/**"`` or
    ``- {pattern: …, source: …}``; see :mod:`provider.wiki.locale_patterns`. Returns
    (pattern, source) pairs, each checked by compiling it."""
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
            parsed = parse_locale_pattern(pattern, source)
        except ValueError as exc:
            raise ConfigurationError(f"{here}: {exc}") from None
        patterns.append((parsed.pattern, parsed.source))
    return tuple(patterns)


def capabilities(value: Any, where: str) -> str | tuple[str, ...]:
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(v.strip() for v in value)
    raise ConfigurationError(f"{where}: must be minimum, all, or a list of capability names")


def tags(example: str) -> Callable[[Any, str], tuple[str, ...]]:
    def parse(value: Any, where: str) -> tuple[str, ...]:
        if not isinstance(value, list):
            raise ConfigurationError(f"{where}: must be a list of BCP 47 tags, e.g. {example}")
        return tuple(dict.fromkeys(tag(v, where) for v in value))
    return parse


def sitemap(value: Any, where: str) -> tuple[str, ...]:
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


def _checked_text(check: Callable[[str], str], example: str) -> Callable[[Any, str], str | None]:
    """A reader of an optional text setting that ``check`` validates (raising ValueError
    with the reason); an empty key leaves it unset."""
    def read(value: Any, where: str) -> str | None:
        if value is None:
            return None
        if not isinstance(value, str):
            raise ConfigurationError(f"{where}: must be {example}")
        try:
            return check(value)
        except ValueError as exc:
            raise ConfigurationError(f"{where}: {exc}") from None
    return read


base_url = _checked_text(check_base_url, "an https URL such as https://help.example.com")
path_pattern = _checked_text(lambda text: check_path_pattern(text.strip()), f"a path such as {DEFAULT_PATH_PATTERN}")


def _docset_base(folder: Any, path: Any) -> tuple[str, str] | None:
    if not isinstance(folder, str) or not isinstance(path, str) or any(c in path for c in "{}?#\\ ") \
            or ".." in folder.split("/") or ".." in path.split("/"):
        return None
    return folder.strip().strip("/"), path.strip().strip("/")


def docfx_base_paths(value: Any, where: str) -> tuple[tuple[str, str], ...]:
    """``{docset folder: URL path}`` → pairs, folders and paths without outer ``/``."""
    return _text_map(value, where, shape="docset folder to URL path, e.g. {Exchange: /exchange/troubleshoot}",
                     entry=_docset_base,
                     problem=lambda folder, path: f"{folder!r}: {path!r} must be a docset folder and a URL path "
                     "such as /exchange/troubleshoot")


def route_base_path(value: Any, where: str) -> str | None:
    if value is None:
        return ROUTE_BASE_PATH
    if not isinstance(value, str) or any(c in value for c in "{}?#\\ "):
        raise ConfigurationError(f"{where}: must be a path such as docs, or / for the site root")
    return value.strip().strip("/")
