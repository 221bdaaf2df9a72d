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

import hashlib
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import yaml

from .lookalike import resembles
from .plaintext import parse_blocks

__all__ = ["FORMATS", "MAX_HEADER_BYTES", "FrontMatter", "head_key", "lookup", "lookup_all", "parse_front_matter",
           "same_head", "split_front_matter"]

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


_INVISIBLE = "\ufeff\u200b\u200c\u200d\u2060\u00a0\u00ad\u180e\u2061\u2062\u2063\u2064"

#: How many lines from the top a misplaced header or a stray ``audience`` key is looked
#: for (code blocks excluded).
HEADER_SCAN_LINES = 40

_FENCE_LIKE = re.compile(r"(?:-{3,}|\+{3,}|;{3,})\s*[A-Za-z]*\s*")
#: A ``key: value`` / ``key = value`` line a header could hold. Not a line starting with
#: ``*``: in YAML that is an alias, never a key (TOML keys never start with it either), and in
#: Markdown it is emphasis — ``**Documentation**: https://…`` below a thematic break, as
#: FastAPI-style README index pages have it, is a bold label, not a header.
_KEY_LINE = re.compile(r"""(?!\*)["']?[^\s:="']{1,60}["']?\s*[:=]""")
#: gray-matter (Docusaurus, Astro) names the header's language after the opening fence.
_LANGUAGE_FENCE = re.compile(r"---[ \t]*([A-Za-z]+)[ \t]*")
#: A line a JSON (or YAML flow) header could start with: ``{`` then a quoted key or a
#: bare ``key:``. Not the brace syntaxes of docs tools that share the ``{`` — FastAPI's
#: ``{* file.py hl[6:7] *}`` includes, ``{! !}``, ``{% %}``, ``{{ }}``, ``{# #}``,
#: attribute lists ``{: .class}`` / ``{#id}`` — which a header never starts with.
_OBJECT_START = re.compile(r"""\{\s*(?:["'}]|$|[A-Za-z_][\w-]*\s*[:=])""")


_DROP_INVISIBLE = dict.fromkeys(map(ord, _INVISIBLE))


def _visible(line: str) -> str:
    return line.translate(_DROP_INVISIBLE).strip()


_KEY_BEFORE_SEPARATOR = re.compile(r"""(?:"([^"\n]{1,60})"|'([^'\n]{1,60})'|([^\s:={}\[\],"']{4,40}))\s*[:=]""")


def _audience_line(line: str) -> bool:
    """Whether the line sets a key resembling ``audience`` anywhere in it (``audience:``,
    ``Audience =``, ``{"meta": {"audience": …}}``)."""
    if ":" not in line and "=" not in line:  # every match ends at one: skip the scan of prose
        return False
    if "`" in line:
        # Inline code is shown as written, never read as a header: a page documenting
        # the format (``"audience": "internal"``) sets no key.
        line = _INLINE_CODE.sub(" ", line)
    return any(resembles(next(k for k in keys if k), "audience")
               for keys in _KEY_BEFORE_SEPARATOR.findall(line[:2000]))


_INLINE_CODE = re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)")


#: A preprocessor's include directive on a line of its own: ``{* ../src/x.py hl[6:7] *}``,
#: ``{!> ../x.md !}``. JSON never starts ``{*`` or ``{!``.
_INCLUDE_LINE = re.compile(r"^\s*\{[*!][^\n]{0,2000}[*!]\}\s*$")


def _misplaced_header(text: str, include_lines: bool = False, *, header_like: bool = True) -> str | None:
    """Why the text looks like it meant to carry front matter somewhere other than
    exactly at its start, or ``None``.

    Looked for in the first :data:`HEADER_SCAN_LINES` lines outside code blocks: a fence
    line (``---``, ``+++``, ``----``, ``---yaml``, …) or a ``{`` line followed by
    ``key: value`` / ``key = value`` lines — a header after a blank line, an HTML comment
    or an invisible character — and any line that sets a key resembling ``audience``.
    Read as body text, such a header could be published by a path rule although its
    author wrote ``audience: internal`` (X5: fail closed). With ``header_like`` false
    (the operator accepted this finding for the file), only an audience key counts.
    """
    lines = text.split("\n", HEADER_SCAN_LINES)[:HEADER_SCAN_LINES]
    code = _CodeLines(lines)
    for number, raw in enumerate(lines):
        line = _visible(raw)
        if not line or (":" not in line and "=" not in line and not _FENCE_LIKE.fullmatch(line)
                        and not line.startswith("{")) or number in code:
            continue
        if _audience_line(line):
            return f"line {number + 1} sets an audience key outside the front matter"
        if include_lines and _INCLUDE_LINE.match(line):
            continue  # the tool's include directive: replaced by another file's text
        if not header_like:
            continue
        json_like = _OBJECT_START.match(line) is not None and (line == "{" or (line.endswith("}") and ":" in line))
        if _FENCE_LIKE.fullmatch(line) or json_like or (number == 0 and _OBJECT_START.match(line)):
            following = [_visible(other) for other in lines[number + 1 : number + 4]]
            following = [other for other in following if other]
            if number == 0 or json_like or (following and _KEY_LINE.match(following[0])):
                return ("front matter must start on the very first line with exactly ---, +++ or a JSON "
                        f"object (a header-like block starts at line {number + 1})")
    return None


def _json_header(text: str) -> tuple[str | None, str, str | None, Any]:
    """A JSON object at the very start of ``text``, in every form Hugo accepts (on one
    line, over many, with text after the closing brace): ``(header, body, error, data)``."""
    window = text[: MAX_HEADER_BYTES + 1]
    decoder = json.JSONDecoder(object_pairs_hook=_no_duplicate_pairs)
    try:
        data, end = decoder.raw_decode(window)
    except _DuplicateKey as exc:
        return "", text, f"front matter has the key {str(exc)[:40]!r} twice", None
    except json.JSONDecodeError as exc:
        if exc.pos >= len(window) - 1 and len(text) > MAX_HEADER_BYTES:
            return "", text, f"front matter is larger than {MAX_HEADER_BYTES} bytes or is not closed", None
        return "", text, f"front matter is not valid JSON at line {exc.lineno}", None
    except (RecursionError, ValueError, TypeError, OverflowError):
        return "", text, "front matter cannot be read", None
    body = text[end:]
    body = body[1:] if body.startswith("\n") else body
    return text[:end], body, None, data


class _DuplicateKey(ValueError):
    pass


def _no_duplicate_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise _DuplicateKey(key)
        data[key] = value
    return data


def parse_front_matter(text: str, formats: tuple[str, ...] = FORMATS, *, yaml_end_marker: bool = False,
                       include_lines: bool = False, accept_misplaced: bool = False) -> FrontMatter:
    """Parse a file's text (already decoded) into a :class:`FrontMatter`. Never raises.

    Every format is recognised in every layout: a TOML or JSON header ignored by a
    layout would be body text, and a path rule could make an internal page public.

    * ``---`` … ``---``: YAML; ``---yaml``, ``---json``, ``---toml`` (gray-matter's
      language names) are read as that language; any other language after ``---``
      (``---js`` would be executed by gray-matter) is unreadable.
    * ``+++`` … ``+++``: TOML.
    * ``{`` at the very start: a JSON object, on one line or many, the body following
      its closing brace (Hugo).
    * Anything header-like elsewhere in the first lines: unreadable (see
      :func:`_misplaced_header`).

    Args:
        text: the whole file.
        formats: header formats to recognise (:data:`FORMATS`); YAML is always read.
        yaml_end_marker: a ``...`` line also closes a YAML header (Jekyll's rule); else
            such a line inside the header makes it unreadable, as YAML itself does.
        include_lines: a whole line ``{* file … *}`` or ``{!file!}`` is an include
            directive of the tool (MkDocs with FastAPI's or mdx_include's preprocessor),
            not a JSON header, wherever it stands.
        accept_misplaced: the operator accepted the ``misplaced-front-matter`` finding
            of this file (:mod:`provider.wiki.findings`): a header-like block below the
            first line is body text; an ``audience`` key there still is not.
    """
    from .hugo_front_matter import parse_toml_header

    normalised = _normalise(text)
    first = normalised.partition("\n")[0].rstrip()
    if "toml" in formats and first == "+++":
        header, body, error = split_front_matter(normalised, "+++")
        return _finish(header, body, error, parse_toml_header)
    if ("json" in formats and _OBJECT_START.match(first.strip()) is not None and normalised.startswith("{")
            and not (include_lines and _INCLUDE_LINE.match(first))):
        header, body, error, data = _json_header(normalised)
        if error is not None:
            return FrontMatter(data={}, error=error, body=body, present=True)
        return _finish(header, body, None, lambda _: (data, None))
    language = _LANGUAGE_FENCE.fullmatch(first)
    if language is not None:
        name = language.group(1).lower()
        header, body, error = split_front_matter(normalised, first, "---")
        loaders: dict[str, Callable[[str], tuple[Any, str | None]]] = {
            "yaml": _parse_yaml, "yml": _parse_yaml, "toml": parse_toml_header, "json": _parse_json_block,
        }
        if name not in loaders:
            return FrontMatter(data={}, error=f"front matter in {name!r} cannot be read (only YAML, TOML and JSON)",
                               body=body, present=True)
        return _finish(header, body, error, loaders[name])
    header, body, error = split_front_matter(normalised, closing="---")
    if header is not None and yaml_end_marker:
        jekyll = split_front_matter(normalised, closing="...")
        if jekyll[0] is not None and jekyll[2] is None and (error is not None or len(jekyll[0]) < len(header)):
            header, body, error = jekyll
    if header is None and (misplaced := _misplaced_header(normalised, include_lines,
                                                          header_like=not accept_misplaced)) is not None:
        return FrontMatter(data={}, error=misplaced, body=normalised, present=True)
    return _finish(header, body, error, _parse_yaml)


def head_key(text: str, front: FrontMatter) -> str:
    """A key to the header :func:`parse_front_matter` read of ``text`` (which gave
    ``front``): ``"<characters>:<SHA-1>"`` of the header with both fence lines, or ``""``
    when the file has no ``---`` or ``+++`` header, an unreadable one, or one not
    followed by a line break. For a text with the same key, :func:`same_head` tells
    without parsing YAML again whether it has the same ``data`` and no ``error``: the
    parse reads nothing else of the body than whether one of its first lines sets an
    audience key."""
    if not front.present or front.error is not None:
        return ""
    normalised = _normalise(text)
    if not normalised.startswith(("---", "+++")) or not normalised.endswith(front.body):
        return ""
    return _head_digest(normalised, len(normalised) - len(front.body))


def same_head(text: str, key: str) -> str | None:
    """The body of ``text`` when :func:`parse_front_matter` would read from it the same
    header ``data``, without error, as from the text ``key`` (:func:`head_key`) was made
    of: the same header, and no audience key in the first body lines. Else ``None``."""
    chars, _, digest = key.partition(":")
    if not digest or not chars.isdigit():
        return None
    normalised = _normalise(text)
    if _head_digest(normalised, int(chars)) != key:
        return None
    body = normalised[int(chars):]
    return None if _audience_line_anywhere(body) else body


def _head_digest(normalised: str, chars: int) -> str:
    head = normalised[:chars]
    if len(head) != chars or not head.endswith("\n"):
        return ""
    digest = hashlib.sha1(head.encode("utf-8", "surrogatepass"), usedforsecurity=False)
    return f"{chars}:{digest.hexdigest()}"


def _audience_line_anywhere(body: str) -> bool:
    lines = body.split("\n", HEADER_SCAN_LINES)[:HEADER_SCAN_LINES]
    code = _CodeLines(lines)
    return any(_audience_line(_visible(line)) and number not in code for number, line in enumerate(lines))


class _CodeLines:
    """The lines (0-based) of ``lines`` in a fenced or indented code block, as the
    Markdown parser the indexed text comes from sees them: shown as written, never a
    header or an audience key (a page documenting the header format). Parsed on the first
    question only: most first lines hold no candidate."""

    def __init__(self, lines: list[str]) -> None:
        self._lines = lines
        self._code: set[int] | None = None

    def __contains__(self, number: int) -> bool:
        if self._code is None:
            self._code = set()
            for token in parse_blocks("\n".join(self._lines)):
                if token.type in ("fence", "code_block") and token.map is not None:
                    self._code.update(range(*token.map))
        return number in self._code


def _parse_json_block(header: str) -> tuple[Any, str | None]:
    _, _, error, data = _json_header(header)
    return (None, error) if error is not None else (data, None)


def _finish(
    header: str | None, body: str, error: str | None, load: Callable[[str], tuple[Any, str | None]]
) -> FrontMatter:
    if header is None:
        return FrontMatter(data={}, error=None, body=body, present=False)
    if error is not None:
        return FrontMatter(data={}, error=error, body=body, present=True)
    if _audience_line_anywhere(body):
        # A second header below the first, or an audience key just under it: which one
        # the docs tool reads cannot be known here.
        return FrontMatter(data={}, error="an audience key is set below the front matter, in the body",
                           body=body, present=True)
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


# Docs tools read front matter keys whatever their case (Hugo: ``TranslationKey``, ``Draft``):
# every reader of a key the tool reads goes through these two.
def lookup(data: Mapping[str, Any], *names: str) -> tuple[str, Any] | None:
    """``(key, value)`` of the first of ``names`` present in ``data``, compared
    case-insensitively, or ``None``."""
    wanted = {name.lower() for name in names}
    for key, value in data.items():
        if isinstance(key, str) and key.lower() in wanted:
            return key, value
    return None


def lookup_all(data: Mapping[str, Any], *names: str) -> list[tuple[str, Any]]:
    """``(key, value)`` of every one of ``names`` present in ``data``, compared
    case-insensitively (``TranslationKey`` and ``translationkey`` both)."""
    wanted = {name.lower() for name in names}
    return [(key, value) for key, value in data.items() if isinstance(key, str) and key.lower() in wanted]
