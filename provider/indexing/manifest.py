"""The manifest: what the current build holds, per file.

Written atomically after each commit of the indexes. On start, a file whose size and
mtime match its manifest entry is not read again, so an unchanged wiki is served
without rebuilding. If the process dies between an index commit and the manifest
write, the manifest describes the older state; the next scan sees those files as
changed and re-indexes them, which is idempotent.

The manifest was rewritten whole after every batch, so on a large wiki encoding it
dominated a one-file update. Each entry's JSON is therefore kept
with the :class:`DocumentMeta` object it was made from and reused while the manifest
still holds that same object: the metadata is immutable, so identity means equal
content, and a changed file always gets a new object. Even so, writing and syncing
the whole file (it grows with the documents) per batch cost more than the batch itself, so
a batch that changes few entries **appends** them to a journal beside the manifest
(``manifest.json.journal``, one JSON line per batch: the entries changed or removed and
the new header) and syncs only that; the whole manifest is rewritten (and the journal
emptied) when the journal grows past a quarter of it. Each line names the manifest it
extends (a random ``base`` id), so a journal left behind by a crash between writing a
new manifest and emptying the journal is ignored; a line cut short by a crash is the
last one and is ignored too — the state it describes is then older, which the next scan
corrects, as above.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import secrets
from dataclasses import dataclass, field, fields, is_dataclass
from pathlib import Path
from typing import Any

from ..wiki.document import DocumentMeta
from ..wiki.files import Skipped
from ..wiki.incremental import CorpusRules

__all__ = ["Manifest"]

FORMAT = 1


class _Tracked(dict[str, Any]):
    """A dict that remembers the keys set or removed through it, so a batch's journal line
    (and the corpus rules' changed documents) are found without comparing every entry.

    ``touched``: since :meth:`settle` (the last save); ``recent``: since the last
    :meth:`take_recent`. Each is ``None`` (unknown: compare everything) until first
    settled or taken and after any other kind of change (``update``, ``clear``…)."""

    touched: set[str] | None = None
    recent: set[str] | None = None

    def settle(self) -> None:
        self.touched = set()

    def take_recent(self) -> set[str] | None:
        """The keys set or removed since the last call (``None``: unknown)."""
        found, self.recent = self.recent, set()
        return found

    def _mark(self, key: str) -> None:
        if self.touched is not None:
            self.touched.add(key)
        if self.recent is not None:
            self.recent.add(key)

    def _forget(self) -> None:
        self.touched = self.recent = None

    def __setitem__(self, key: str, value: Any) -> None:
        super().__setitem__(key, value)
        self._mark(key)

    def __delitem__(self, key: str) -> None:
        super().__delitem__(key)
        self._mark(key)

    def pop(self, key: str, *default: Any) -> Any:
        found = super().pop(key, *default)
        self._mark(key)
        return found

    # Any other change: what was touched is no longer known.
    def update(self, *args: Any, **kwargs: Any) -> None:
        self._forget()
        super().update(*args, **kwargs)

    def setdefault(self, key: str, default: Any = None) -> Any:
        self._forget()
        return super().setdefault(key, default)

    def popitem(self) -> tuple[str, Any]:
        self._forget()
        return super().popitem()

    def clear(self) -> None:
        self._forget()
        super().clear()

    def __ior__(self, other: Any) -> _Tracked:  # type: ignore[override,misc]
        self._forget()
        super().__ior__(other)
        return self


@dataclass
class Manifest:
    """Per-file state of one build.

    Attributes:
        schema_version: the index schema the build was made with.
        settings_key: a digest of the wiki settings that affect classification; when it
            changes, every file is classified again.
        docs: document metadata by relative path.
        fingerprints: what was last written to the indexes, by relative path.
        skipped: files not indexed, with the reason.
        last_scan: Unix time (seconds) of the last completed scan of the whole folder.
        generation: the number of syncs that changed the indexes since this build was
            made (monotonic; shown as a metric).
    """

    schema_version: int
    settings_key: str
    docs: dict[str, DocumentMeta] = field(default_factory=dict)
    fingerprints: dict[str, str] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)
    last_scan: float = 0.0
    generation: int = 0
    _encoded: dict[str, tuple[DocumentMeta, str]] = field(default_factory=dict, repr=False, compare=False)
    #: The corpus rules' decisions for ``docs`` and what they depend on, near-copy pairs
    #: included (not saved: derived again for the whole corpus on the first sync after a
    #: start), so a batch derives again only what it can affect.
    rules: CorpusRules = field(default_factory=CorpusRules, repr=False, compare=False)
    #: The manifest file this object last wrote or read, its ``base`` id, its size, the
    #: journal's size, and the fingerprints and skipped files as saved (to find changes).
    _base: tuple[Path, str, int] | None = field(default=None, repr=False, compare=False)
    _journal_bytes: int = field(default=0, repr=False, compare=False)
    _saved_fingerprints: dict[str, str] = field(default_factory=dict, repr=False, compare=False)
    _saved_docs: dict[str, DocumentMeta] = field(default_factory=dict, repr=False, compare=False)

    def __setattr__(self, name: str, value: Any) -> None:
        if name in ("docs", "fingerprints") and not isinstance(value, _Tracked):
            value = _Tracked(value)
        super().__setattr__(name, value)

    @classmethod
    def load(cls, path: Path) -> Manifest | None:
        """Read a manifest; ``None`` when missing or unreadable (the build is redone)."""
        try:
            raw = path.read_text("utf-8")
            data: dict[str, Any] = json.loads(raw)
            if data.get("format") != FORMAT:
                return None
            docs = {k: _meta_of(v) for k, v in data["docs"].items()}
            fingerprints = dict(data["fingerprints"])
            base = str(data.get("base", ""))
            journal = _journal(path)
            journal_bytes = 0
            if base and journal.exists():
                for line in journal.read_text("utf-8").splitlines():
                    try:
                        change = json.loads(line)
                    except ValueError:
                        break  # cut short by a crash: the last line
                    if change.get("base") != base:
                        break
                    journal_bytes += len(line.encode()) + 1
                    data.update(change["head"])
                    for relpath, entry in change["docs"].items():
                        if entry is None:
                            docs.pop(relpath, None)
                        else:
                            docs[relpath] = _meta_of(entry)
                    for relpath, fingerprint in change["fingerprints"].items():
                        if fingerprint is None:
                            fingerprints.pop(relpath, None)
                        else:
                            fingerprints[relpath] = fingerprint
                    data["skipped"] = change["skipped"]
            manifest = cls(
                schema_version=int(data["schema_version"]),
                settings_key=str(data["settings_key"]),
                docs=docs,
                fingerprints=fingerprints,
                skipped=dict(data.get("skipped", {})),
                last_scan=float(data.get("last_scan", 0.0)),
                generation=int(data.get("generation", 0)),
            )
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None
        if base:
            manifest._base = (path, base, len(raw.encode()))
            manifest._journal_bytes = journal_bytes
            manifest._saved_docs = dict(docs)
            manifest._saved_fingerprints = dict(fingerprints)
            manifest._settle()
        return manifest

    def changed_docs(self) -> set[str] | None:
        """The paths of ``docs`` set or removed since the last call (``None``: unknown,
        e.g. on the first call or after ``docs`` was replaced)."""
        docs = self.docs
        return docs.take_recent() if isinstance(docs, _Tracked) else None

    def _settle(self) -> None:
        for tracked in (self.docs, self.fingerprints):
            assert isinstance(tracked, _Tracked)
            tracked.settle()

    def save(self, path: Path) -> None:
        """Write atomically: a temporary file, fsync, then rename over the old one.

        A batch that changed few entries is appended to the journal instead (see the
        module docstring).

        Raises:
            OSError: the build folder cannot be written (the old manifest stays).
        """
        head: dict[str, Any] = {
            "schema_version": self.schema_version,
            "settings_key": self.settings_key,
            "last_scan": self.last_scan,
            "generation": self.generation,
        }
        if self._base is not None and self._base[0] == path and self._append(path, head):
            return
        base = secrets.token_hex(8)
        head = {"format": FORMAT, "base": base, **head}
        tail = {
            "fingerprints": dict(sorted(self.fingerprints.items())),
            "skipped": dict(sorted(self.skipped.items())),
        }
        docs = ",".join(self._entry(relpath, meta) for relpath, meta in sorted(self.docs.items()))
        for stale in self._encoded.keys() - self.docs.keys():
            del self._encoded[stale]
        text = f"{_dumps(head)[:-1]},\"docs\":{{{docs}}},{_dumps(tail)[1:]}"
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        with open(tmp, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
        # The new manifest names a new base, so the old journal no longer applies even if
        # it is not removed (a crash here).
        with contextlib.suppress(FileNotFoundError):
            os.remove(_journal(path))
        self._base = (path, base, len(text.encode()))
        self._journal_bytes = 0
        self._saved_docs = dict(self.docs)
        self._saved_fingerprints = dict(self.fingerprints)
        self._settle()

    def _append(self, path: Path, head: dict[str, Any]) -> bool:
        """Append this batch's changes to the journal; ``False`` when the manifest should
        be rewritten whole instead (the journal would pass a quarter of it)."""
        assert self._base is not None
        _, base, size = self._base
        saved_docs, saved_fps = self._saved_docs, self._saved_fingerprints
        docs: dict[str, Any]
        fingerprints: dict[str, str | None]
        touched_docs = getattr(self.docs, "touched", None)
        touched_fps = getattr(self.fingerprints, "touched", None)
        if touched_docs is not None and touched_fps is not None:
            # Only the keys set or removed since the last save can differ from it.
            docs = {k: None if meta is None else meta.to_json() for k in sorted(touched_docs)
                    if (meta := self.docs.get(k)) is not saved_docs.get(k)}
            fingerprints = {k: fingerprint for k in sorted(touched_fps)
                            if (fingerprint := self.fingerprints.get(k)) != saved_fps.get(k)}
        else:
            docs = {k: None for k in saved_docs.keys() - self.docs.keys()}
            docs.update((k, meta.to_json()) for k, meta in self.docs.items() if saved_docs.get(k) is not meta)
            fingerprints = {k: None for k in saved_fps.keys() - self.fingerprints.keys()}
            fingerprints.update((k, v) for k, v in self.fingerprints.items() if saved_fps.get(k) != v)
        line = _dumps({"base": base, "head": head, "docs": docs, "fingerprints": fingerprints,
                       "skipped": dict(sorted(self.skipped.items()))}) + "\n"
        encoded = line.encode("utf-8")
        if 4 * (self._journal_bytes + len(encoded)) > size:
            return False
        with open(_journal(path), "ab") as handle:
            handle.write(encoded)
            handle.flush()
            os.fsync(handle.fileno())
        self._journal_bytes += len(encoded)
        for relpath, entry in docs.items():
            if entry is None:
                saved_docs.pop(relpath, None)
            else:
                saved_docs[relpath] = self.docs[relpath]
        for relpath, fingerprint in fingerprints.items():
            if fingerprint is None:
                saved_fps.pop(relpath, None)
            else:
                saved_fps[relpath] = fingerprint
        self._settle()
        return True

    def _entry(self, relpath: str, meta: DocumentMeta) -> str:
        cached = self._encoded.get(relpath)
        if cached is not None and cached[0] is meta:
            return cached[1]
        encoded = f"{_dumps(relpath)}:{_meta_text(meta)}"
        self._encoded[relpath] = (meta, encoded)
        return encoded

    def skipped_list(self) -> list[Skipped]:
        return [Skipped(relpath, reason) for relpath, reason in sorted(self.skipped.items())]


def _plain(value: Any) -> Any:
    """``value`` as ``dataclasses.asdict`` turns a field's value into JSON-ready data
    (dataclasses into dicts, tuples and lists element by element), without its deep
    copy of every leaf, which was a large part of saving a manifest."""
    kind = type(value)
    if kind is str or kind is int or kind is float or kind is bool or value is None:
        return value
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    if kind is tuple or kind is list:
        return kind(_plain(item) for item in value)
    if kind is dict:
        return {_plain(k): _plain(v) for k, v in value.items()}
    return copy.deepcopy(value)  # anything else, as asdict copies it


def _meta_json(meta: DocumentMeta) -> dict[str, Any]:
    """What :meth:`DocumentMeta.to_json` returns (the same JSON), made faster."""
    data = {f.name: _plain(getattr(meta, f.name)) for f in fields(meta)}
    for name in _TUPLE_FIELDS:
        data[name] = list(getattr(meta, name))
    return data


#: DocumentMeta's fields in order: what its ``__dict__`` holds, in that order, when made
#: by its ``__init__`` (``from_json``, ``replace``).
_FIELDS = tuple(f.name for f in fields(DocumentMeta))
#: Its fields that are tuples of strings (JSON lists).
_TUPLE_FIELDS = ("warnings", "errors", "findings", "accepted", "paragraph_bags", "internal_paragraph_bags",
                 "block_shingles", "internal_block_shingles", "label_block_shingles", "partials")


def _meta_text(meta: DocumentMeta) -> str:
    """The JSON text of :meth:`DocumentMeta.to_json` (the same characters), in one call of
    the C encoder where the object's attributes are exactly its fields in order — every
    field is a string, number, boolean, ``None``, a dict of strings or a tuple of
    strings, which the encoder writes as ``to_json``'s lists: encoding in Python was
    most of a large manifest's save."""
    state = meta.__dict__
    if type(meta) is DocumentMeta and tuple(state) == _FIELDS:
        return _dumps(state)
    return _dumps(_meta_json(meta))


def _meta_of(data: dict[str, Any]) -> DocumentMeta:
    """:meth:`DocumentMeta.from_json` of a saved entry (``data`` is used up), without the
    dataclass's ``__init__`` where the entry holds exactly the fields in order (what
    :func:`_meta_text` writes): the object is then the one ``__init__`` makes (it has no
    ``__post_init__``), attributes in field order; any other entry (an older or newer
    field set) goes through ``from_json``, which fills defaults or raises ``TypeError``
    (the manifest is then unreadable and the build redone)."""
    if tuple(data) != _FIELDS:
        return DocumentMeta.from_json(data)
    for name in _TUPLE_FIELDS:
        data[name] = tuple(data[name])
    meta: DocumentMeta = object.__new__(DocumentMeta)
    meta.__dict__.update(data)
    return meta


def _journal(path: Path) -> Path:
    return path.with_name(path.name + ".journal")


#: ``json.dumps`` with these options builds an encoder per call (a noticeable share of
#: saving a large manifest, two calls an entry); one serves every call.
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def _dumps(value: Any) -> str:
    return _ENCODER.encode(value)
