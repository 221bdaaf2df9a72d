"""MDX partials inlined where the page uses them (Docusaurus, issue 24).

A page made of ``import Content from './_shared/x.mdx'`` and ``<Content />`` shows the
partial's text: the site renders the imported file in place of the component. The text
a reader sees is the partial's, so :func:`inline_partials` puts it there before the page
is read — it is then part of the page (the page's audience and rules apply, and an
internal marker inside the partial makes an internal section, as it would in the page).

Only ``.md``/``.mdx`` imports are followed, by a path relative to the page or from
``@site/`` (the content root); a path resolving outside the content root is refused.
A partial that imports partials is followed to :data:`MAX_DEPTH` levels; a cycle is
refused. A partial that cannot be inlined (missing, unreadable, outside the root, too
deep, in a cycle, or with front matter naming an audience of its own) is left as the
page had it (the component shows nothing in the text) and a warning says why.

A partial the operator's rules do not make public (``restricted`` names why, e.g. an
``internal`` audience rule over ``_shared/**``) is not inlined either, and the page is
told so: the caller fails closed on the page (issue 24), since the site shows that text
on it to every reader.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from pathlib import Path

from .dialects import unwrap_mdx_code_blocks
from .frontmatter import parse_front_matter
from .plaintext import closes_fence, fence_opener

__all__ = ["MAX_DEPTH", "inline_partials", "partial_digest"]

#: How many levels of partials importing partials are followed.
MAX_DEPTH = 3
#: A partial larger than this is not read (bytes).
MAX_PARTIAL_BYTES = 2_000_000
_IMPORT = re.compile(r"""^[ \t]*import[ \t]+([A-Za-z_$][\w$]*)[ \t]+from[ \t]+"""
                     r"""(['"])([^'"\n]+\.mdx?)\2[ \t]*;?[ \t]*$""")


def _usage(name: str) -> re.Pattern[str]:
    """A line holding only the component: ``<Name />``, ``<Name {...props} />``, ``<Name></Name>``."""
    n = re.escape(name)
    return re.compile(rf"^[ \t]*<{n}(?:\s[^<>\n]*)?(?:/>|>[ \t]*</{n}[ \t]*>)[ \t]*$")


def _resolve(root: Path, page: Path, target: str) -> Path | str:
    """The partial's path, or why it cannot be followed."""
    if target.startswith("@site/"):
        candidate = root / target.removeprefix("@site/")
    elif target.startswith(("./", "../")):
        candidate = page.parent / target
    else:
        return "not a relative or @site/ path"
    try:
        resolved = candidate.resolve()
        base = root.resolve()
    except (OSError, RuntimeError) as exc:
        return f"cannot be resolved ({exc})"
    if not resolved.is_relative_to(base):
        return "outside the content root"
    return resolved


def partial_digest(path: Path) -> str:
    """The SHA-1 of the file's bytes, or ``missing`` when it cannot be read (or is too
    large to be inlined)."""
    try:
        if path.stat().st_size > MAX_PARTIAL_BYTES:
            return "missing"
        return hashlib.sha1(path.read_bytes(), usedforsecurity=False).hexdigest()
    except OSError:
        return "missing"


def _read(path: Path) -> str | None:
    try:
        if path.stat().st_size > MAX_PARTIAL_BYTES:
            return None
        return path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def inline_partials(text: str, root: Path, page: Path, *, restricted: Callable[[str], str | None] | None = None,
                    refused: list[str] | None = None, lines: list[int] | None = None,
                    read: list[str] | None = None) -> tuple[str, list[str]]:
    """``(text, warnings)``: ``text`` (a page body) with each imported ``.md``/``.mdx``
    partial's body in place of the lines using its component. ``page`` is the page's
    absolute path (relative imports start from its folder); ``root`` the content root.

    ``restricted`` is asked about each partial's POSIX path relative to ``root``; a
    reason it returns keeps that partial out, and ``refused`` (when given) receives
    ``"<partial path>: <reason>"`` for each such partial. ``lines`` (when given) receives,
    for each line of the returned text in order, the line of ``text`` it stands for
    (1-based): a partial's lines stand for the line of the component that shows them, so
    a finding in them is reported at the page's own line. ``read`` (when given) receives
    ``"<sha1 of the bytes> <path relative to root>"`` for each partial followed
    (``missing`` for the digest of one that could not be read), so an edit to it can be
    told. Never raises."""
    warnings: list[str] = []
    root_resolved = root.resolve()
    try:
        start = page.resolve()
    except (OSError, RuntimeError):
        return text, warnings
    gate = _Gate(root_resolved, restricted, refused if refused is not None else [], read if read is not None else [])
    out = _inline(text, root_resolved, start, (start,), 0, warnings, gate, lines)
    return out, list(dict.fromkeys(warnings))


class _Gate:
    """The operator's say on each partial (:func:`inline_partials`' ``restricted``)."""

    def __init__(self, root: Path, restricted: Callable[[str], str | None] | None, refused: list[str],
                 read: list[str]) -> None:
        self.root, self.restricted, self.refused, self.read = root, restricted, refused, read

    def note(self, where: Path) -> None:
        """Record the partial's digest: an edit to it must read the page again."""
        relpath = where.relative_to(self.root).as_posix()
        self.read.append(f"{partial_digest(where)} {relpath}")

    def why_not(self, where: Path) -> str | None:
        if self.restricted is None:
            return None
        relpath = where.relative_to(self.root).as_posix()
        why = self.restricted(relpath)
        if why is not None:
            self.refused.append(f"{relpath}: {why}")
        return why


def _inline(text: str, root: Path, page: Path, chain: tuple[Path, ...], depth: int, warnings: list[str],
            gate: _Gate, origin: list[int] | None = None) -> str:
    text = unwrap_mdx_code_blocks(text)  # MDX the site renders, imports included (line count kept)
    lines = text.split("\n")
    if origin is not None:
        origin[:] = range(1, len(lines) + 1)
    imports: dict[str, str] = {}
    fence: str | None = None
    for line in lines:
        if fence is not None:
            fence = None if closes_fence(line, fence) else fence
            continue
        if (marker := fence_opener(line)) is not None:
            fence = marker
            continue
        if found := _IMPORT.match(line):
            imports[found.group(1)] = found.group(3)
    if not imports:
        return text
    bodies: dict[str, str | None] = {}
    for name, target in imports.items():
        bodies[name] = _partial(root, page, target, chain, depth, warnings, gate)
    usages = {name: _usage(name) for name, body in bodies.items() if body is not None}
    out: list[str] = []
    where: list[int] = []
    code: str | None = None
    for number, line in enumerate(lines, start=1):
        if code is not None:
            out.append(line)
            where.append(number)
            code = None if closes_fence(line, code) else code
            continue
        if (opened := fence_opener(line)) is not None:
            out.append(line)
            where.append(number)
            code = opened
            continue
        used = next((n for n, pattern in usages.items() if pattern.match(line)), None)
        if used is None:
            out.append(line)
            where.append(number)
            continue
        body = bodies[used]
        assert body is not None
        shown = ["", *body.split("\n"), ""]
        out.extend(shown)
        where.extend([number] * len(shown))
    if origin is not None:
        origin[:] = where
    return "\n".join(out)


def _partial(root: Path, page: Path, target: str, chain: tuple[Path, ...], depth: int,
             warnings: list[str], gate: _Gate) -> str | None:
    """The body of the partial ``target`` with its own partials inlined, or ``None``."""
    where = _resolve(root, page, target)
    if isinstance(where, str):
        warnings.append(f"MDX partial {target!r} is not inlined: {where}")
        return None
    if where in chain:
        warnings.append(f"MDX partial {target!r} is not inlined: it imports itself (a cycle)")
        return None
    gate.note(where)
    if (why := gate.why_not(where)) is not None:
        warnings.append(f"MDX partial {target!r} is not inlined: {why}")
        return None
    if depth >= MAX_DEPTH:
        warnings.append(f"MDX partial {target!r} is not inlined: partials nest deeper than {MAX_DEPTH} levels")
        return None
    text = _read(where)
    if text is None:
        warnings.append(f"MDX partial {target!r} is not inlined: it is missing, unreadable, not UTF-8 or too large")
        return None
    front = parse_front_matter(text)
    if front.error is not None or "audience" in {str(k).strip().lower() for k in front.data}:
        warnings.append(f"MDX partial {target!r} is not inlined: its front matter is unreadable or names an "
                        "audience of its own")
        return None
    return _inline(front.body, root, where, (*chain, where), depth + 1, warnings, gate)
