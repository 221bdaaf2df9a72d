"""Where the index lives on disk, and how a new build replaces the current one.

::

    index/
      README.md            (tracked by git; everything else is generated)
      CURRENT              name of the build being served, replaced atomically
      writer.lock          held (flock) by the one process that writes the index
      builds/<name>/
        public/            Whoosh index: public, servable documents only (customer_safe)
        all/               Whoosh index: every servable document (agent_only)
        manifest.json      per file: size, mtime, hash, classification

A full build is written into a new ``builds/<name>`` while the old one keeps serving,
then ``CURRENT`` is replaced with ``os.replace`` — atomic on POSIX — so readers see the
old build or the new one, never a partial one. Incremental updates commit into the
current build (each Whoosh commit is itself atomic).
"""

from __future__ import annotations

import datetime as dt
import fcntl
import os
import shutil
from pathlib import Path
from typing import IO

__all__ = ["IndexLayout", "WriterLock", "WriterLockHeld"]

PUBLIC = "public"
ALL = "all"


class WriterLockHeld(RuntimeError):
    """Another live process is writing this index."""


class WriterLock:
    """An exclusive ``flock`` on ``index/writer.lock``.

    The kernel releases it when the holder dies (even by ``kill -9``), so a crashed
    writer never leaves a stale lock and a live writer's lock is never taken over.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._handle: IO[str] | None = None

    def acquire(self) -> None:
        """Take the lock without waiting.

        Raises:
            WriterLockHeld: another process holds it; the message names its pid.
        """
        if self._handle is not None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(self.path, "a+", encoding="utf-8")  # noqa: SIM115 - held for the process lifetime
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            handle.close()
            raise WriterLockHeld(
                f"the index at {self.path.parent} is being written by {holder}; "
                "only one process may index it: stop that process first (to rebuild while serving, "
                "restart the server with `serve --rebuild`)"
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"pid {os.getpid()}\n")
        handle.flush()
        self._handle = handle

    def release(self) -> None:
        if self._handle is not None:
            fcntl.flock(self._handle.fileno(), fcntl.LOCK_UN)
            self._handle.close()
            self._handle = None


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class IndexLayout:
    """Paths and atomic switching inside an index folder.

    Args:
        root: the index folder (created on demand).
    """

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.current_file = self.root / "CURRENT"
        self.builds = self.root / "builds"
        self.lock = WriterLock(self.root / "writer.lock")

    def current_name(self) -> str | None:
        """The name of the build being served, or ``None`` before the first build."""
        try:
            name = self.current_file.read_text("utf-8").strip()
        except FileNotFoundError:
            return None
        if not name or "/" in name or name.startswith(".") or not (self.builds / name).is_dir():
            return None
        return name

    def build_dir(self, name: str) -> Path:
        return self.builds / name

    def new_build(self) -> tuple[str, Path]:
        """Create an empty folder for a build that is not served yet."""
        stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S%f")
        name = f"b{stamp}-{os.getpid()}"
        path = self.builds / name
        # The builds hold internal text: readable by the provider's user only, whatever
        # the umask (the files inside inherit nothing, but the folder bars the way).
        self.builds.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.chmod(self.builds, 0o700)
        path.mkdir(mode=0o700)
        return name, path

    def publish(self, name: str) -> None:
        """Make ``name`` the served build, atomically (write aside, fsync, rename)."""
        tmp = self.root / f".CURRENT.{os.getpid()}.tmp"
        with open(tmp, "w", encoding="utf-8") as handle:
            handle.write(name + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, self.current_file)
        _fsync_dir(self.root)

    def remove_other_builds(self, keep: str | set[str]) -> None:
        """Delete builds other than those in ``keep`` (older ones, and half-built ones a
        crash left).

        Readers that still have an old build open keep reading it: POSIX keeps unlinked
        files alive until they are closed.
        """
        kept = {keep} if isinstance(keep, str) else keep
        if not self.builds.is_dir():
            return
        for entry in self.builds.iterdir():
            if entry.name not in kept and entry.is_dir():
                shutil.rmtree(entry, ignore_errors=True)
