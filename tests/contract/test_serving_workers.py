"""With several workers, serve() gives each worker its own SO_REUSEPORT listener, so the
kernel spreads new connections over the workers instead of one worker accepting them
all from a shared queue (issue 15: all 16 keep-alive connections of a client were seen
on one worker of two for a whole run)."""

from __future__ import annotations

import io
import os
import secrets
import socket
import subprocess
import sys
import time
from collections import Counter
from multiprocessing.reduction import ForkingPickler
from pathlib import Path

import pytest

from helpthread_kit.serving import ReusePortListener, reuse_port_supported
from tests.procnet import sockets_by_process
from tests.support import REPO_ROOT

pytestmark = pytest.mark.skipif(not reuse_port_supported(), reason="the kernel does not balance SO_REUSEPORT")


def _as_a_worker_receives_it(sock: socket.socket) -> socket.socket:
    """``sock`` pickled as multiprocessing hands it to a spawned worker, and unpickled."""
    buffer = io.BytesIO()
    ForkingPickler(buffer).dump(sock)
    received: socket.socket = ForkingPickler.loads(buffer.getvalue())
    return received


def test_a_worker_receives_its_own_socket_on_the_same_address() -> None:
    with ReusePortListener.create("127.0.0.1", 0) as parent:
        first, second = _as_a_worker_receives_it(parent), _as_a_worker_receives_it(parent)
        with first, second:
            assert first.getsockname() == second.getsockname() == parent.getsockname()
            assert len({parent.fileno(), first.fileno(), second.fileno()}) == 3
            for sock in (first, second):
                assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT) == 1


def test_accepted_connections_get_tcp_nodelay() -> None:
    """The workers' listeners say IPPROTO_TCP, so asyncio sets TCP_NODELAY on what they
    accept (a proto-0 listener, as uvicorn binds one for --workers, left every keep-alive
    answer waiting ~40 ms for the client's delayed ACK; uvicorn issue #3149)."""
    import asyncio

    async def nodelay_of_accepted() -> int:
        with ReusePortListener.create("127.0.0.1", 0) as parent:
            listener = _as_a_worker_receives_it(parent)
            accepted: list[int] = []

            def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
                sock = writer.get_extra_info("socket")
                accepted.append(int(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)))
                writer.close()

            server = await asyncio.start_server(handle, sock=listener)
            _, writer = await asyncio.open_connection(*parent.getsockname()[:2])
            for _ in range(100):
                if accepted:
                    break
                await asyncio.sleep(0.01)
            writer.close()
            server.close()
            await server.wait_closed()
            return accepted[0]

    assert asyncio.run(nodelay_of_accepted()) != 0


def test_connections_are_spread_over_the_workers_sockets() -> None:
    with ReusePortListener.create("127.0.0.1", 0) as parent:
        workers = [_as_a_worker_receives_it(parent) for _ in range(2)]
        for sock in workers:
            sock.listen(128)
            sock.setblocking(False)
        clients = [socket.create_connection(parent.getsockname()[:2]) for _ in range(64)]
        time.sleep(0.2)
        accepted = Counter[int]()
        for index, sock in enumerate(workers):
            while True:
                try:
                    conn, _ = sock.accept()
                except BlockingIOError:
                    break
                conn.close()
                accepted[index] += 1
        for sock in (*workers, *clients):
            sock.close()
    assert sum(accepted.values()) == 64
    # A hash of each connection's ports: about 32 each; fewer than 8 of 64 has a
    # probability below one in a billion for an even split.
    assert min(accepted[0], accepted[1]) >= 8, accepted


@pytest.mark.e2e
@pytest.mark.timeout(120)
def test_two_workers_each_serve_connections(tmp_path: Path) -> None:
    from sqlite_adapter import create_database

    example = REPO_ROOT / "examples" / "sqlite_adapter"
    database = create_database(tmp_path / "help.db", (example / "articles.sql").read_text("utf-8"))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    env = {**os.environ, "SQLITE_ADAPTER_DATABASE": str(database), "SQLITE_ADAPTER_PORT": str(port),
           "SQLITE_ADAPTER_CUSTOMER_SAFE_SECRET": secrets.token_urlsafe(48),
           "SQLITE_ADAPTER_AGENT_ONLY_SECRET": secrets.token_urlsafe(48), "SQLITE_ADAPTER_WORKERS": "2",
           "SQLITE_ADAPTER_REPLAY_STORE": f"sqlite://{tmp_path / 'replay.sqlite3'}",
           "PYTHONPATH": f"{example}{os.pathsep}{REPO_ROOT}"}
    proc = subprocess.Popen([sys.executable, "-m", "sqlite_adapter"], cwd=example, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    clients: list[socket.socket] = []
    try:
        workers: list[int] = []
        deadline = time.monotonic() + 60
        while len(workers) < 2:
            assert proc.poll() is None and time.monotonic() < deadline, "the server did not start two workers"
            time.sleep(0.3)
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    pass
            except OSError:
                continue
            listed = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout
            # uvicorn's workers are spawned processes (not the resource tracker).
            workers = [int(pid) for pid in listed.split() if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()]
        while len(sockets_by_process(workers, port, "0A")) < 2:  # until both workers listen
            assert time.monotonic() < deadline, "the workers did not both listen"
            time.sleep(0.2)
        # A client opening its pool at once, as a load balancer or httpx does: all 32 are
        # waiting to be accepted together (asyncio accepts up to its backlog per wake-up).
        clients = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(32)]
        for client in clients:
            client.sendall(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
        for client in clients:
            assert client.recv(65536).startswith(b"HTTP/1.1 200")  # answered: a worker holds it
        counts = sockets_by_process(workers, port)
        assert sum(counts.values()) == 32, counts
        # With one shared accept queue one worker typically took all of them.
        assert len(counts) == 2 and min(counts.values()) >= 4, counts
    finally:
        for client in clients:
            client.close()
        proc.terminate()
        proc.wait(timeout=30)
