"""``serve --dev``: throwaway secrets for local use, shared with ``query``.

The secrets are written to ``$XDG_STATE_HOME/knowledge-provider/dev.json`` (by default
``~/.local/state/…``), mode 0600 — outside ``content/`` and ``index/``, so they are
never indexed and never committed with the docs.
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from helpthread_kit.registrations import Exposure, Registration

__all__ = ["create_dev_registrations", "dev_state_path", "read_dev_state", "running_dev_server"]


def dev_state_path(env: Mapping[str, str] | None = None) -> Path:
    """Where ``--dev`` stores its secrets and URL."""
    env = os.environ if env is None else env
    base = Path(env["XDG_STATE_HOME"]) if env.get("XDG_STATE_HOME") else Path.home() / ".local" / "state"
    return base / "knowledge-provider" / "dev.json"


def create_dev_registrations(
    url: str, env: Mapping[str, str] | None = None, content: Path | None = None
) -> tuple[list[Registration], dict[str, str]]:
    """Generate one random secret per exposure and store them with the server URL and
    the content folder it serves (so ``query`` can say which wiki it asks).

    Returns:
        the registrations, and ``{exposure: secret}`` to print once.
    """
    values = {exposure.value: secrets.token_urlsafe(48) for exposure in Exposure}
    path = dev_state_path(env)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump({"url": url, "pid": os.getpid(), "secrets": values,
                   "content": None if content is None else str(content)}, handle)
    os.chmod(path, 0o600)
    registrations = [Registration.from_values(name, Exposure(name), [value]) for name, value in values.items()]
    return registrations, values


def read_dev_state(env: Mapping[str, str] | None = None) -> dict[str, Any] | None:
    """The state a running ``serve --dev`` wrote, or ``None``."""
    try:
        data = json.loads(dev_state_path(env).read_text("utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def running_dev_server(env: Mapping[str, str] | None = None) -> dict[str, Any] | None:
    """The state of another ``serve --dev`` that is still running, or ``None``: a new one
    replaces its secrets, and ``query`` would then sign for the new server only."""
    state = read_dev_state(env)
    pid = state.get("pid") if state else None
    if not isinstance(pid, int) or pid <= 0 or pid == os.getpid():
        return None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except PermissionError:
        pass  # alive, under another user
    return state
