"""Front matter: the header of a markdown file.

YAML between a ``---`` first line and the next ``---`` line is read in every layout.
Layouts may add Hugo's other formats (:mod:`provider.wiki.hugo_front_matter`): TOML
between ``+++`` lines and a JSON object starting at a ``{`` first line.

Guarded parsing. Any of these makes the header *unreadable*, which the classifier turns
into "internal" (CONTRACT X5) with a warning naming the reason:

* a header over :data:`MAX_HEADER_BYTES` (64 KiB), or no closing fence;
* YAML anchors or aliases (the "billion laughs" family), duplicate keys (any format);
* anything but a mapping at the top level; any syntax error.

Only ``yaml.SafeLoader`` semantics are used: no Python object tags.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import yaml

__all__ = ["FORMATS", "MAX_HEADER_BYTES", "FrontMatter", "parse_front_matter", "split_front_matter"]

#: Header formats a layout may read, by name.
FORMATS = ("yaml", "toml", "json")

MAX_HEADER_BYTES = 64 * 1024


@dataclass(frozen=True)
class FrontMatter:
    """A file's header and body.

    Attributes:
        data: the header mapping; empty when there is no header or it is unreadable.
        error: why the header is unreadable, or ``None``. A file with an error is
            internal whatever its header says.
        body: the markdown after the header, with ``\\n`` line endings and no BOM.
        present: whether the file starts with a header at all.
    """

    data: dict[str, Any]
    error: str | None
    body: str
    present: bool


class _Refused(Exception):
    pass


class _GuardedLoader(yaml.SafeLoader):
    """``SafeLoader`` that refuses anchors, aliases and duplicate keys."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            raise _Refused("uses YAML aliases")
        event = self.peek_event()  # type: ignore[no-untyped-call]
        if getattr(event, "anchor", None) is not None:
            raise _Refused("uses YAML anchors")
        return super().compose_node(parent, index)

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            try:
                duplicate = key in seen
            except TypeError:
                raise _Refused("has a key that is not a plain value") from None
            if duplicate:
                raise _Refused(f"has the key {str(key)[:40]!r} twice")
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def _normalise(text: str) -> str:
    return text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def split_front_matter(text: str, fence: str = "---", closing: str | None = None) -> tuple[str | None, str, str | None]:
    """Split text into ``(header, body, error)``.

    ``header`` is ``None`` when the first line is not ``fence``. The header ends at the
    next line equal to ``closing`` (default: ``fence``); both fence lines are excluded.
    Tolerates a UTF-8 BOM, CRLF line endings and trailing spaces on the fence lines.
    """
    text = _normalise(text)
    closing = fence if closing is None else closing
    if not text.startswith(fence):
        return None, text, None
    first, _, rest = text.partition("\n")
    if first.rstrip() != fence:
        return None, text, None
    lines = rest.split("\n")
    size = 0
    for i, line in enumerate(lines):
        if line.rstrip() == closing:
            header = "\n".join(lines[:i])
            if len(header.encode("utf-8")) > MAX_HEADER_BYTES:
                return header, "\n".join(lines[i + 1 :]), f"front matter is larger than {MAX_HEADER_BYTES} bytes"
            return header, "\n".join(lines[i + 1 :]), None
        size += len(line) + 1
        if size > MAX_HEADER_BYTES:
            return "", rest, f"front matter is larger than {MAX_HEADER_BYTES} bytes or is not closed"
    return "", rest, f"front matter has no closing {closing} line"


_INVISIBLE = "\ufeff\u200b\u200c\u200d\u2060\u00a0"


def _misplaced_header(text: str) -> str | None:
    """Why the text looks like it meant to start with front matter but does not start
    exactly with a fence line, or ``None``.

    A header after a blank line, behind invisible characters, or fenced with ``----``
    would otherwise be read as body text, and a path rule could then make the page
    public although its author wrote ``audience: internal`` (X5: fail closed).
    """
    for line in text.split("\n", 20)[:20]:
        stripped = line.strip().strip(_INVISIBLE).strip()
        if not stripped:
            continue
        if stripped.startswith(("---", "+++")) or stripped == "{":
            return "front matter must start on the very first line with exactly ---, +++ or {"
        return None
    return None


def parse_front_matter(text: str, formats: tuple[str, ...] = FORMATS) -> FrontMatter:
    """Parse a file's text (already decoded) into a :class:`FrontMatter`. Never raises.

    Every format is recognised in every layout: a TOML or JSON header ignored by a
    layout would be body text, and a path rule could make an internal page public.

    Args:
        text: the whole file.
        formats: header formats to recognise (:data:`FORMATS`); YAML is always read.
    """
    from .hugo_front_matter import parse_json_header, parse_toml_header

    normalised = _normalise(text)
    first = normalised.partition("\n")[0].rstrip()
    if "toml" in formats and first == "+++":
        header, body, error = split_front_matter(normalised, "+++")
        return _finish(header, body, error, parse_toml_header)
    if "json" in formats and first == "{":
        header, body, error = split_front_matter(normalised, "{", "}")
        return _finish(header, body, error, parse_json_header)
    header, body, error = split_front_matter(normalised)
    if header is None and (misplaced := _misplaced_header(normalised)) is not None:
        return FrontMatter(data={}, error=misplaced, body=normalised, present=True)
    return _finish(header, body, error, _parse_yaml)


def _finish(
    header: str | None, body: str, error: str | None, load: Callable[[str], tuple[Any, str | None]]
) -> FrontMatter:
    if header is None:
        return FrontMatter(data={}, error=None, body=body, present=False)
    if error is not None:
        return FrontMatter(data={}, error=error, body=body, present=True)
    data, error = load(header)
    if error is not None:
        return FrontMatter(data={}, error=error, body=body, present=True)
    if data is None:
        return FrontMatter(data={}, error=None, body=body, present=True)
    if not isinstance(data, dict):
        return FrontMatter(data={}, error="front matter is not a mapping of keys to values", body=body, present=True)
    return FrontMatter(data=data, error=None, body=body, present=True)


def _parse_yaml(header: str) -> tuple[Any, str | None]:
    """``(data, None)`` or ``(None, reason)``."""
    try:
        return yaml.load(header, Loader=_GuardedLoader), None  # noqa: S506 - a SafeLoader subclass
    except _Refused as exc:
        return None, f"front matter {exc}"
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 2}" if mark is not None else ""
        return None, f"front matter is not valid YAML{where}"
    except (RecursionError, ValueError, TypeError, OverflowError):
        return None, "front matter cannot be read"
