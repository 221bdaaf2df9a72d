"""``serve --dev``: throwaway secrets for local use, shared with ``query``.

Each ``serve --dev`` writes its secrets, URL, pid and content folder to a state file of
its own port, ``$XDG_STATE_HOME/knowledge-provider/dev-<port>.json`` (by default
``~/.local/state/…``), mode 0600 — outside ``content/`` and ``index/``, so they are never
indexed and never committed with the docs, and a second server on another port leaves
the first one's file alone. ``query`` picks the file of the server it asks
(:func:`dev_state_for`), or the one running server (:func:`running_dev_servers`).

The secrets are new on every run, so the file means nothing once its server stops:
``serve --dev`` removes it on the way out (:func:`forget_dev_state`) — unless another
``serve --dev`` on the same port has written it since. A server killed with SIGKILL
cannot; its file stays until the next ``serve --dev`` on that port replaces it, and
``query`` tells a stopped server's file from a running one's.
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from helpthread_kit.registrations import Exposure, Registration

__all__ = ["DevState", "create_dev_registrations", "dev_state_dir", "dev_state_for", "dev_state_path",
           "dev_states", "forget_dev_state", "running_dev_servers"]

#: The one state file of versions before per-port files; still read, never written.
_LEGACY_NAME = "dev.json"


@dataclass(frozen=True)
class DevState:
    """What one ``serve --dev`` stored.

    Attributes:
        path: the state file.
        url: the server's base URL, without a trailing ``/`` (``""`` when missing).
        pid: the server's process id (``0`` when missing).
        secrets: ``{exposure value: secret}``.
        content: the content folder it serves, or ``None``.
    """

    path: Path
    url: str
    pid: int
    secrets: dict[str, str]
    content: str | None

    def running(self) -> bool:
        """Whether the server that wrote it still runs (this process never counts)."""
        if self.pid <= 0 or self.pid == os.getpid():
            return False
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            pass  # alive, under another user
        return True


def dev_state_dir(env: Mapping[str, str] | None = None) -> Path:
    """The folder of the ``--dev`` state files."""
    env = os.environ if env is None else env
    base = Path(env["XDG_STATE_HOME"]) if env.get("XDG_STATE_HOME") else Path.home() / ".local" / "state"
    return base / "knowledge-provider"


def _port(url: str) -> int:
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        port = None
    return port if port is not None else (443 if parts.scheme == "https" else 80)


def dev_state_path(url: str, env: Mapping[str, str] | None = None) -> Path:
    """Where the ``--dev`` server listening at ``url`` stores its secrets: one file per port."""
    return dev_state_dir(env) / f"dev-{_port(url)}.json"


def create_dev_registrations(
    url: str, env: Mapping[str, str] | None = None, content: Path | None = None
) -> tuple[list[Registration], dict[str, str], Path]:
    """Generate one random secret per exposure and store them with the server URL and
    the content folder it serves (so ``query`` can say which wiki it asks), in the state
    file of ``url``'s port.

    Returns:
        the registrations, ``{exposure: secret}`` and the state file's path.
    """
    values = {exposure.value: secrets.token_urlsafe(48) for exposure in Exposure}
    path = dev_state_path(url, env)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump({"url": url, "pid": os.getpid(), "secrets": values,
                   "content": None if content is None else str(content)}, handle)
    os.chmod(path, 0o600)
    registrations = [Registration.from_values(name, Exposure(name), [value]) for name, value in values.items()]
    return registrations, values, path


def forget_dev_state(url: str, env: Mapping[str, str] | None = None) -> bool:
    """Remove the state file of the ``--dev`` server at ``url`` if this process wrote it
    (called when that server stops: its secrets were for that run only). A file another
    process has written since (a second ``serve --dev`` on the port) is left alone.

    Returns:
        whether a file was removed.
    """
    path = dev_state_path(url, env)
    state = _read(path)
    if state is None or state.pid != os.getpid():
        return False
    path.unlink(missing_ok=True)
    return True


def _read(path: Path) -> DevState | None:
    try:
        data: Any = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    found = data.get("secrets")
    values = {str(k): str(v) for k, v in found.items()} if isinstance(found, dict) else {}
    pid = data.get("pid")
    content = data.get("content")
    return DevState(path, str(data.get("url") or "").rstrip("/"), pid if isinstance(pid, int) else 0, values,
                    content if isinstance(content, str) else None)


def dev_states(env: Mapping[str, str] | None = None) -> list[DevState]:
    """Every readable state file, newest first (unreadable ones are left out)."""
    folder = dev_state_dir(env)
    try:
        paths = [p for p in folder.iterdir() if p.name == _LEGACY_NAME
                 or (p.name.startswith("dev-") and p.name.endswith(".json"))]
    except OSError:
        return []

    def age(path: Path) -> float:
        try:
            return -path.stat().st_mtime
        except OSError:
            return 0.0

    return [state for path in sorted(paths, key=age) if (state := _read(path)) is not None]


def dev_state_for(url: str, env: Mapping[str, str] | None = None) -> DevState | None:
    """The state of the ``--dev`` server at exactly ``url`` (no trailing ``/``), or ``None``."""
    return next((s for s in dev_states(env) if s.url and s.url == url.rstrip("/")), None)


def running_dev_servers(env: Mapping[str, str] | None = None) -> list[DevState]:
    """The states whose server still runs, newest first."""
    return [state for state in dev_states(env) if state.running()]
