"""Reading a docs tool's configuration files safely.

Nothing in a configuration file is ever executed or evaluated: YAML is read with a
``SafeLoader`` (the front matter loader, which also refuses alias bombs and duplicate
keys) that keeps an unknown tag — MkDocs' ``!ENV VAR`` and ``!!python/name:module.attr``
— as an :class:`Unresolved` value instead of failing or constructing anything; TOML and
JSON with the standard library. Files over :data:`MAX_CONFIG_BYTES` are refused, and so
is anything but a regular file (a FIFO would block).

A file an editor is writing is briefly empty (truncated, then written) or missing (moved
aside, then written anew). An empty configuration (nothing, or an empty mapping or list)
written less than :data:`YOUNG_S` seconds ago is read as being written: a
:class:`ConfigError`, so every page it governs is internal (fail closed) in every process
that reads it, until it has settings or is older (issue 24: an ``exclude:`` must not drop
for the seconds ``_config.yml`` is empty). A file found missing that was there is the
caller's concern (:mod:`.load` keeps the last reading).
"""

from __future__ import annotations

import json
import logging
import os
import re
import stat
import time
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ..frontmatter import _GuardedLoader, _Refused

__all__ = ["BEING_WRITTEN", "DEFAULT_HOLD_S", "HOLD_ENV", "MAX_CONFIG_BYTES", "YOUNG_S", "ConfigError", "Unresolved",
           "hold_from_env", "read_bytes", "read_config", "steady", "young_blank"]

log = logging.getLogger(__name__)

MAX_CONFIG_BYTES = 1 << 20
#: How long an empty configuration file is taken to be one an editor is writing.
YOUNG_S = 30.0
#: The environment variable that sets how long a site configuration change that makes a
#: page more public waits (seconds, ``0`` to apply at once; :mod:`.load`).
HOLD_ENV = "KNOWLEDGE_PROVIDER_CONFIG_HOLD_S"
DEFAULT_HOLD_S = 30.0


def hold_from_env() -> float:
    """:data:`HOLD_ENV` in seconds (0–3600); unset or unreadable: :data:`DEFAULT_HOLD_S`."""
    raw = os.environ.get(HOLD_ENV, "").strip()
    try:
        value = float(raw) if raw else DEFAULT_HOLD_S
    except ValueError:
        return DEFAULT_HOLD_S
    return min(max(value, 0.0), 3600.0) if value == value else DEFAULT_HOLD_S


#: In the message of an empty file read as being written.
BEING_WRITTEN = "read as being written"


def _blank(data: Any) -> bool:
    return data is None or (isinstance(data, (dict, list)) and not data)


def young_blank(path: Path, data: Any) -> float | None:
    """The age in seconds of ``path`` when ``data`` (its reading) is empty (``None``,
    ``{}``, ``[]``) and it was written less than :data:`YOUNG_S` seconds ago (a
    modification time up to :data:`YOUNG_S` ahead of the clock counts as now), else
    ``None``."""
    if not _blank(data):
        return None
    try:
        age = time.time() - os.stat(path).st_mtime
    except OSError:
        return None
    return max(age, 0.0) if -YOUNG_S < age < YOUNG_S else None


def steady(path: Path, data: Any) -> Any:
    """``data``, as read from ``path`` now, unless the file is being written.

    Raises:
        ConfigError: ``data`` is empty and the file was written moments ago
            (:func:`young_blank`): read as being written (issue 24).
    """
    age = young_blank(path, data)
    if age is not None:
        log.warning("site configuration %s is empty and was written %.0f s ago (being written?): the pages it "
                    "governs are internal until it has settings or is %.0f s old", path, age, YOUNG_S)
        raise ConfigError(f"is empty and was written {age:.0f} s ago ({BEING_WRITTEN}; an empty file is "
                          f"read as empty once {YOUNG_S:.0f} s old)")
    return data


class ConfigError(ValueError):
    """A configuration file exists but cannot be read; the message says why."""


@dataclass(frozen=True)
class Unresolved:
    """A YAML value behind a tag the provider does not evaluate (``!ENV``, ``!!python/…``).

    Attributes:
        tag: the tag as written (``!ENV``, ``tag:yaml.org,2002:python/name:x.y``).
        value: the node's plain value (a string, list or mapping).
    """

    tag: str
    value: Any


class _TolerantLoader(_GuardedLoader):
    """The front matter loader, plus: any tag it does not know becomes :class:`Unresolved`."""


def _unresolved(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> Unresolved:
    if isinstance(node, yaml.ScalarNode):
        value: Any = loader.construct_scalar(node)
    elif isinstance(node, yaml.SequenceNode):
        value = loader.construct_sequence(node, deep=True)
    else:
        value = loader.construct_mapping(node, deep=True)  # type: ignore[arg-type]
    return Unresolved(node.tag, value)


_TolerantLoader.add_multi_constructor("", _unresolved)


def read_bytes(path: Path, limit: int = MAX_CONFIG_BYTES) -> bytes:
    """The bytes of a configuration file, at most ``limit`` + 1 of them.

    Opened without blocking and checked on the open descriptor: a FIFO or a device put
    in a configuration file's place must never hang the indexer.

    Raises:
        FileNotFoundError: no such file.
        ConfigError: not a regular file, or unreadable.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise ConfigError(f"cannot be read: {exc.strerror or exc}") from None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise ConfigError("is not a regular file")
        try:
            return handle.read(limit + 1)
        except OSError as exc:
            raise ConfigError(f"cannot be read: {exc.strerror or exc}") from None


#: A JSON string (kept) or a ``//`` / ``/* */`` comment (dropped).
_JSON_COMMENT = re.compile(r'("(?:[^"\\]|\\.)*")|//[^\n]*|/\*.*?\*/', re.S)


#: A JSON string (kept) or a comma with only white space before the ``}`` / ``]`` closing
#: its object or array (dropped: Newtonsoft.Json accepts one trailing comma there).
_JSON_TRAILING_COMMA = re.compile(r'("(?:[^"\\]|\\.)*")|,(?=\s*[}\]])')


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [key for key, _ in pairs]
    repeated = sorted({key for key in keys if keys.count(key) > 1})
    if repeated:
        # Readers disagree on which one wins: the file is refused, never guessed.
        raise ConfigError(f"has the key {repeated[0]!r} twice in one object")
    return dict(pairs)


def read_config(path: Path, *, comments: bool = False) -> Any:
    """The data of a YAML (``.yml``/``.yaml``), TOML or JSON configuration file.

    ``comments``: JSON may hold ``//`` and ``/* */`` comments and a trailing comma before
    ``}`` / ``]`` (DocFX reads ``docfx.json`` with Newtonsoft.Json, which accepts both). A
    JSON object with a key twice is refused.

    Raises:
        ConfigError: unreadable, larger than :data:`MAX_CONFIG_BYTES`, not UTF-8, or not
            valid in its format (the message names the problem, not the content).
        FileNotFoundError: no such file.

    An empty file written moments ago raises :class:`ConfigError` (:func:`steady`).
    """
    return steady(path, _parse(path, comments=comments))


def _parse(path: Path, *, comments: bool) -> Any:
    data = read_bytes(path)
    if len(data) > MAX_CONFIG_BYTES:
        raise ConfigError(f"is larger than {MAX_CONFIG_BYTES} bytes")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ConfigError("is not valid UTF-8") from None
    suffix = path.suffix.lower()
    try:
        if suffix == ".toml":
            return tomllib.loads(text)
        if suffix == ".json":
            if comments:
                text = _JSON_COMMENT.sub(lambda m: m.group(1) or " ", text)
                text = _JSON_TRAILING_COMMA.sub(lambda m: m.group(1) or "", text)
            return json.loads(text, object_pairs_hook=_unique_keys)
        return yaml.load(text, Loader=_TolerantLoader)  # noqa: S506 - a SafeLoader subclass
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"is not valid TOML ({exc})") from None
    except json.JSONDecodeError as exc:
        raise ConfigError(f"is not valid JSON (line {exc.lineno}: {exc.msg})") from None
    except yaml.MarkedYAMLError as exc:
        where = f" at line {exc.problem_mark.line + 1}" if exc.problem_mark is not None else ""
        raise ConfigError(f"is not valid YAML{where} ({exc.problem or exc.context})") from None
    except (yaml.YAMLError, _Refused, RecursionError) as exc:
        raise ConfigError(f"is not valid YAML ({str(exc)[:120] or type(exc).__name__})") from None


#: How many ``INHERIT`` steps :func:`load_inherited` follows before it refuses the chain
#: (MkDocs itself has no limit; a longer chain is taken for a mistake, never guessed).
MAX_INHERIT = 16


def deep_merge(parent: Mapping[str, Any], child: Mapping[str, Any]) -> dict[str, Any]:
    """``parent`` updated by ``child`` as MkDocs merges an ``INHERIT`` parent
    (``mergedeep.merge``, strategy REPLACE): a key that is a mapping on both sides is
    merged key by key, any other value (a list too) is replaced whole. New dict; the
    inputs are not changed."""
    merged = dict(parent)
    for key, value in child.items():
        old = merged.get(key)
        merged[key] = deep_merge(old, value) if isinstance(old, Mapping) and isinstance(value, Mapping) else value
    return merged


def load_inherited(path: Path, load: Callable[[Path], Any], *, missing_parent_ok: bool = False,
                   parents: list[Path] | None = None, _chain: tuple[str, ...] = ()) -> Any:
    """An MkDocs configuration with its ``INHERIT:`` chain followed (MkDocs'
    ``utils.yaml_load``): each ``INHERIT`` path is relative to the folder of the file naming
    it, the parent is read (and its own ``INHERIT`` followed) first, and the file deep-merged
    over it (:func:`deep_merge`); the ``INHERIT`` key itself is dropped.

    ``load``: reads one file (raises ``FileNotFoundError`` when it does not exist).
    ``missing_parent_ok``: a parent that does not exist is left out (the URL reader: a
    generated parent the checkout lacks); otherwise it is an error, as MkDocs refuses to
    build. ``parents``: when given, each parent file named (found or not) is appended,
    nearest first (the files whose change changes the result).

    Raises:
        ConfigError: ``INHERIT`` not a path, a parent missing (unless allowed) or not a
            mapping, a cycle, or more than :data:`MAX_INHERIT` steps.
        FileNotFoundError: ``path`` itself does not exist.
    """
    data = load(path)
    if not isinstance(data, Mapping) or "INHERIT" not in data:
        return data
    named = data["INHERIT"]
    child = {key: value for key, value in data.items() if key != "INHERIT"}
    if not isinstance(named, str) or not named.strip():
        raise ConfigError(f"INHERIT: {named!r} is not a file path")
    chain = (*_chain, os.path.realpath(path))
    parent_path = Path(os.path.normpath(path.parent / named))
    if os.path.realpath(parent_path) in chain:
        raise ConfigError(f"INHERIT: {named!r} leads back to a file already in the chain (a cycle)")
    if len(chain) > MAX_INHERIT:
        raise ConfigError(f"INHERIT: more than {MAX_INHERIT} files in the chain")
    if parents is not None:
        parents.append(parent_path)
    try:
        parent = load_inherited(parent_path, load, missing_parent_ok=missing_parent_ok, parents=parents,
                                _chain=chain)
    except FileNotFoundError:
        if missing_parent_ok:
            return child
        raise ConfigError(f"INHERIT: {named!r} does not exist (MkDocs refuses to build)") from None
    except ConfigError as exc:
        if str(exc).startswith("INHERIT"):
            raise
        raise ConfigError(f"INHERIT: {named!r} {exc}") from None
    if parent is None:
        parent = {}
    if not isinstance(parent, Mapping):
        raise ConfigError(f"INHERIT: {named!r} is not a mapping")
    return deep_merge(parent, child)

