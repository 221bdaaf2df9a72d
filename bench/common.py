"""What the benchmarks share: a real `serve` process on a free port, percentiles, the
signed request of a bare endpoint."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent


async def signed_request(scope: dict[str, Any], receive: Any) -> tuple[str | None, bytes]:
    """An ASGI request's ``X-Helpthread-Signature`` header (``None`` if absent) and its
    whole body, for the benches' bare signed endpoints."""
    body = b""
    while True:
        message = await receive()
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    header = next((v.decode("latin-1") for k, v in scope["headers"] if k == b"x-helpthread-signature"), None)
    return header, body


def socket_inodes(pid: int) -> set[str]:
    """The inode numbers (as ``/proc/net/tcp*`` prints them) of the sockets process ``pid``
    holds open; empty if it is gone or not ours to read."""
    inodes: set[str] = set()
    try:
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            try:
                target = os.readlink(fd)
            except OSError:
                continue
            if target.startswith("socket:["):
                inodes.add(target[8:-1])
    except OSError:
        pass
    return inodes


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0–1) of ``values`` by the nearest-rank rule."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


@contextmanager
def running_server(config: dict[str, Any], workdir: Path, secret: str, *, ready_timeout_s: float = 300,
                   tree: Path = ROOT) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """Start ``knowledge-provider serve`` with ``config`` (a free port and metrics off are
    added), wait until ``/readyz`` answers 200, yield ``(base URL, process)``, then stop it.
    ``tree``: the source tree whose ``provider`` package serves (another checkout, to
    compare before and after in one run)."""
    port = free_port()
    path = workdir / f"bench-{port}.yaml"
    path.write_text(json.dumps({"metrics_port": 0, **config, "port": port}))
    env = {**os.environ, "KNOWLEDGE_PROVIDER_CUSTOMER_SAFE_SECRET": secret}
    proc = subprocess.Popen([sys.executable, "-m", "provider", "serve", "--config", str(path)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=tree)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + ready_timeout_s
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{base}/readyz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if proc.poll() is not None:
                raise RuntimeError(f"serve exited with {proc.returncode}")
            time.sleep(0.1)
        yield base, proc
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
