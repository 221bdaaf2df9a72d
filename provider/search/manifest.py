"""The manifest: what the current build holds, per file.

Written atomically after each commit of the indexes. On start, a file whose size and
mtime match its manifest entry is not read again, so an unchanged wiki is served
without rebuilding. If the process dies between an index commit and the manifest
write, the manifest describes the older state; the next scan sees those files as
changed and re-indexes them, which is idempotent.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

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
        """Write atomically: a temporary file, fsync, then rename over the old one."""
        data = {
            "format": FORMAT,
            "schema_version": self.schema_version,
            "settings_key": self.settings_key,
            "last_scan": self.last_scan,
            "generation": self.generation,
            "docs": {k: v.to_json() for k, v in sorted(self.docs.items())},
            "fingerprints": dict(sorted(self.fingerprints.items())),
            "skipped": dict(sorted(self.skipped.items())),
        }
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        with open(tmp, "w", encoding="utf-8") as handle:
            json.dump(data, handle, ensure_ascii=False, separators=(",", ":"))
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)

    def skipped_list(self) -> list[Skipped]:
        return [Skipped(relpath, reason) for relpath, reason in sorted(self.skipped.items())]
