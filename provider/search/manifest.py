"""The manifest: what the current build holds, per file.

Written atomically after each commit of the indexes. On start, a file whose size and
mtime match its manifest entry is not read again, so an unchanged wiki is served
without rebuilding. If the process dies between an index commit and the manifest
write, the manifest describes the older state; the next scan sees those files as
changed and re-indexes them, which is idempotent.

The manifest is rewritten whole after every batch, so at 10,000 documents encoding it
dominated a one-file update (about 2 s of 2.2 s). Each entry's JSON is therefore kept
with the :class:`DocumentMeta` object it was made from and reused while the manifest
still holds that same object: the metadata is immutable, so identity means equal
content, and a changed file always gets a new object.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..wiki.copies import CopyGraph
from ..wiki.document import DocumentMeta
from ..wiki.files import Skipped

__all__ = ["Manifest"]

FORMAT = 1


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
    #: The near-copy pairs of ``docs``' sketches (not saved: found again on the first sync
    #: after a start), so a batch compares only the sketches it changed.
    copies: CopyGraph = field(default_factory=CopyGraph, repr=False, compare=False)

    @classmethod
    def load(cls, path: Path) -> Manifest | None:
        """Read a manifest; ``None`` when missing or unreadable (the build is redone)."""
        try:
            data: dict[str, Any] = json.loads(path.read_text("utf-8"))
            if data.get("format") != FORMAT:
                return None
            return cls(
                schema_version=int(data["schema_version"]),
                settings_key=str(data["settings_key"]),
                docs={k: DocumentMeta.from_json(v) for k, v in data["docs"].items()},
                fingerprints=dict(data["fingerprints"]),
                skipped=dict(data.get("skipped", {})),
                last_scan=float(data.get("last_scan", 0.0)),
                generation=int(data.get("generation", 0)),
            )
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def save(self, path: Path) -> None:
        """Write atomically: a temporary file, fsync, then rename over the old one.

        Raises:
            OSError: the build folder cannot be written (the old manifest stays).
        """
        head = {
            "format": FORMAT,
            "schema_version": self.schema_version,
            "settings_key": self.settings_key,
            "last_scan": self.last_scan,
            "generation": self.generation,
        }
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

    def _entry(self, relpath: str, meta: DocumentMeta) -> str:
        cached = self._encoded.get(relpath)
        if cached is not None and cached[0] is meta:
            return cached[1]
        encoded = f"{_dumps(relpath)}:{_dumps(meta.to_json())}"
        self._encoded[relpath] = (meta, encoded)
        return encoded

    def skipped_list(self) -> list[Skipped]:
        return [Skipped(relpath, reason) for relpath, reason in sorted(self.skipped.items())]


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
