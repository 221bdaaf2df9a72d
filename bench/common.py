"""What the benchmarks share: a real `serve` process on a free port, percentiles, the
signed request of a bare endpoint, a load generator light enough not to be the
bottleneck (:func:`raw_load`), and which process holds which sockets
(:func:`sockets_by_process`)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import httpx
import psutil

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


def free_port() -> int:
    """A free local port: the first free one of ``$KP_BENCH_PORTS`` (``FIRST-LAST``, for a
    machine whose users share out port ranges), else one the kernel picks."""
    first, _, last = os.environ.get("KP_BENCH_PORTS", "").partition("-")
    for port in range(int(first), int(last) + 1) if first and last else ():
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0–1) of ``values`` by the nearest-rank rule."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def launch_server(config: dict[str, Any], workdir: Path, secret: str, *, tree: Path = ROOT,
                  stdout: IO[bytes] | int = subprocess.DEVNULL, options: Sequence[str] = (),
                  python: str = sys.executable) -> tuple[str, subprocess.Popen[bytes]]:
    """Start ``knowledge-provider serve`` with ``config`` (a free port and metrics off are
    added unless ``config`` sets them) and ``options`` (``--rebuild``) from ``tree``'s code
    (another checkout, to compare before and after in one run; ``python``: an interpreter
    whose environment runs that tree); return ``(base URL, process)`` at once, not ready
    yet. Its output (stdout and stderr) goes to ``stdout``."""
    port = free_port()
    path = workdir / f"bench-{port}.yaml"
    path.write_text(json.dumps({"metrics_port": 0, **config, "port": port}))
    env = {**os.environ, "KNOWLEDGE_PROVIDER_CUSTOMER_SAFE_SECRET": secret}
    proc = subprocess.Popen([python, "-m", "provider", "serve", *options, "--config", str(path)],
                            stdout=stdout, stderr=subprocess.STDOUT, env=env, cwd=tree)
    return f"http://127.0.0.1:{port}", proc


def stop_server(proc: subprocess.Popen[bytes], timeout_s: float = 60) -> None:
    """SIGTERM, then SIGKILL if it has not stopped within ``timeout_s`` seconds."""
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def wait_ready(base: str, proc: subprocess.Popen[bytes], *, timeout_s: float = 300, every_s: float = 0.1,
               each: Callable[[], None] | None = None) -> None:
    """Poll ``/readyz`` every ``every_s`` seconds until it answers 200, calling ``each``
    (a sampler) on every poll.

    Raises:
        RuntimeError: the process exited, or was not ready within ``timeout_s``.
    """
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if each is not None:
            each()
        try:
            if httpx.get(f"{base}/readyz", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        if proc.poll() is not None:
            raise RuntimeError(f"serve exited with {proc.returncode}")
        time.sleep(every_s)
    raise RuntimeError(f"serve was not ready within {timeout_s:g} s")


@contextmanager
def running_server(config: dict[str, Any], workdir: Path, secret: str, *, ready_timeout_s: float = 300,
                   tree: Path = ROOT) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """:func:`launch_server`, wait until ``/readyz`` answers 200, yield ``(base URL,
    process)``, then stop it."""
    base, proc = launch_server(config, workdir, secret, tree=tree)
    try:
        wait_ready(base, proc, timeout_s=ready_timeout_s)
        yield base, proc
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)


#: ``(method, path, body)``: ``body`` ``None`` for a GET without one.
Call = tuple[str, str, bytes | None]


def signed_bytes(call: Call, secret: str, host: str = "127.0.0.1") -> bytes:
    """``call`` as the bytes of an HTTP/1.1 request signed now (a fresh nonce)."""
    from helpthread_kit.testing import signed_headers  # whichever tree the caller imports

    method, path, body = call
    data = body or b""
    headers = signed_headers(data, secret, content_type=None if body is None else "application/json")
    head = [f"{method} {path} HTTP/1.1", f"Host: {host}", f"Content-Length: {len(data)}"]
    head += [f"{name}: {value}" for name, value in headers.items()]
    return ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + data


async def raw_load(base: str, calls: list[Call], connections: int, secret: str) -> tuple[float, list[float], int]:
    """Send ``calls``, each signed just before it is sent, over ``connections``
    keep-alive connections with one request in flight on each; return ``(seconds,
    latencies in seconds, errors)`` — an error is a status other than 200 or a dropped
    connection.

    Why not httpx: its client spends about 2 ms of CPU a request in Python, so on a
    shared 2-core machine it capped a bare signed endpoint at ~200 requests/s (the
    issue's load generator reached 5,794), and the server's CPU per request was
    measured at a rate where every request woke it on its own. This client writes the
    request's bytes and reads each answer by its ``Content-Length`` (the servers
    measured always send one): ~1,800 requests/s on that endpoint, and its CPU per
    request 1.2 ms → 0.45 ms (measured side by side, load 5)."""
    host, port = base.split("://", 1)[1].rsplit(":", 1)
    queue = list(reversed(calls))
    latencies: list[float] = []
    errors = 0

    async def worker() -> None:
        nonlocal errors
        reader, writer = await asyncio.open_connection(host, int(port))
        try:
            while queue:
                request = signed_bytes(queue.pop(), secret)
                started = time.perf_counter()
                writer.write(request)
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except (asyncio.IncompleteReadError, ConnectionError):
                    errors += 1
                    writer.close()
                    reader, writer = await asyncio.open_connection(host, int(port))
                    continue
                length = 0
                lowered = head.lower()
                for line in lowered.split(b"\r\n")[1:]:
                    if line.startswith(b"content-length:"):
                        length = int(line[15:])
                await reader.readexactly(length)
                latencies.append(time.perf_counter() - started)
                if head[9:12] != b"200":
                    errors += 1
                if b"connection: close" in lowered:
                    writer.close()
                    reader, writer = await asyncio.open_connection(host, int(port))
        finally:
            writer.close()

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(connections)))
    return time.perf_counter() - started, latencies, errors


def sockets_by_process(pids: Iterable[int], port: int, *, listening: bool = False) -> Counter[int]:
    """How many TCP sockets on local ``port`` each of ``pids`` holds open: established
    connections, or (``listening``) listening sockets. A process holding none, gone or
    not ours to read is not counted; a socket two of them share counts for each."""
    status = psutil.CONN_LISTEN if listening else psutil.CONN_ESTABLISHED
    counts: Counter[int] = Counter()
    for pid in pids:
        try:
            connections = psutil.Process(pid).net_connections(kind="tcp")
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
            continue
        held = sum(1 for c in connections if c.laddr and c.laddr.port == port and c.status == status)
        if held:
            counts[pid] = held
    return counts
