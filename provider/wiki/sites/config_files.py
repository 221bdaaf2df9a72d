"""Reading a docs tool's configuration files safely.

Nothing in a configuration file is ever executed or evaluated: YAML is read with a
``SafeLoader`` (the front matter loader, which also refuses alias bombs and duplicate
keys) that keeps an unknown tag — MkDocs' ``!ENV VAR`` and ``!!python/name:module.attr``
— as an :class:`Unresolved` value instead of failing or constructing anything; TOML and
JSON with the standard library. Files over :data:`MAX_CONFIG_BYTES` are refused, and so
is anything but a regular file (a FIFO would block).
"""

from __future__ import annotations

import json
import os
import re
import stat
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ..frontmatter import _GuardedLoader, _Refused

__all__ = ["MAX_CONFIG_BYTES", "ConfigError", "Unresolved", "read_bytes", "read_config"]

MAX_CONFIG_BYTES = 1 << 20


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
    """
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
