"""Front matter: the header of a markdown file.

YAML between a ``---`` first line and the next ``---`` line is read in every layout.
Layouts may add Hugo's other formats (:mod:`provider.wiki.hugo_front_matter`): TOML
between ``+++`` lines and a JSON object starting at a ``{`` first line.

Guarded parsing. Any of these makes the header *unreadable*, which the classifier turns
into "internal" and withheld from everyone (CONTRACT X5) with a warning naming the reason:

* a header over :data:`MAX_HEADER_BYTES` (64 KiB), or no closing fence;
* YAML aliases that stand for more than 10,000 nodes in all, or are used more than 100
  times (the "billion laughs" family; ordinary anchors and aliases are read),
  duplicate keys (any format);
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
#: Aliases in one header, and the nodes they may stand for in all (each use counted in full).
MAX_ALIASES = 100
MAX_ALIAS_NODES = 10_000


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
    """``SafeLoader`` that refuses duplicate keys and bounds what aliases expand to.

    Anchors and aliases are read (Hugo sites share ``&defaults`` between keys), but the
    document an alias stands for is counted in full each time it is used: once the
    aliases of one header stand for more than :data:`MAX_ALIAS_NODES` nodes, or are used
    more than :data:`MAX_ALIASES` times, the header is refused ("billion laughs" and
    other alias bombs stay unreadable, hence withheld). Counting is linear in the
    header's size: each node's expanded size is computed once.
    """

    def __init__(self, stream: Any) -> None:
        super().__init__(stream)
        self._aliases = 0
        self._expanded = 0
        self._sizes: dict[int, int] = {}

    def _expanded_size(self, root: Any) -> int:
        stack = [(root, False)]
        while stack:
            node, ready = stack.pop()
            if id(node) in self._sizes:
                continue
            children: list[Any] = []
            if isinstance(node, yaml.SequenceNode):
                children = list(node.value)
            elif isinstance(node, yaml.MappingNode):
                children = [part for pair in node.value for part in pair]
            if ready:
                self._sizes[id(node)] = 1 + sum(self._sizes[id(child)] for child in children)
                continue
            stack.append((node, True))
            stack.extend((child, False) for child in children if id(child) not in self._sizes)
        return self._sizes[id(root)]

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()  # type: ignore[no-untyped-call]
            anchored = self.anchors.get(event.anchor)
            self._aliases += 1
            if anchored is not None:
                self._expanded += self._expanded_size(anchored)
            if self._aliases > MAX_ALIASES or self._expanded > MAX_ALIAS_NODES:
                raise _Refused("uses YAML aliases that expand too far (an alias bomb)")
        return super().compose_node(parent, index)

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        seen: set[Any] = set()
        merges = 0
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                # ``<<: *defaults``: merged keys may be overridden, as YAML says; two
                # ``<<`` keys are a duplicate key like any other.
                merges += 1
                if merges > 1:
                    raise _Refused("has the key '<<' twice")
                continue
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
