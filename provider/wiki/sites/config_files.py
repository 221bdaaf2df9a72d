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


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [key for key, _ in pairs]
    repeated = sorted({key for key in keys if keys.count(key) > 1})
    if repeated:
        # Readers disagree on which one wins: the file is refused, never guessed.
        raise ConfigError(f"has the key {repeated[0]!r} twice in one object")
    return dict(pairs)


def read_config(path: Path, *, comments: bool = False) -> Any:
    """The data of a YAML (``.yml``/``.yaml``), TOML or JSON configuration file.

    ``comments``: JSON may hold ``//`` and ``/* */`` comments (DocFX reads ``docfx.json``
    with Newtonsoft.Json, which accepts them). A JSON object with a key twice is refused.

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
