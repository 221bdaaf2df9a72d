"""One way to serve a provider: :func:`serve` runs any :func:`~provider.contract.create_app`
application with the HTTP hardening of :mod:`provider.contract.httpserver`, on one or
several worker processes (CONTRACT W4, W7, A5).

::

    from provider.contract.serving import serve
    serve("my_adapter.app:make_app", workers=2, replay_store="sqlite:///var/lib/my-adapter/replay.db")

With several workers every process must see every nonce (A5): the in-memory replay
store covers one process, so a replay sent on another connection reaches another
worker and is accepted. :func:`serve` therefore refuses ``workers > 1`` without a
shared ``replay_store`` (``sqlite:///path`` for one machine, ``redis://…`` for several),
and hands the setting to the workers: :class:`~provider.contract.settings.ContractSettings`
opens it by default (:func:`default_replay_store`), and
:func:`~provider.contract.create_app` refuses a store that is not shared inside a
worker of a multi-worker :func:`serve`.
"""

from __future__ import annotations

import logging
import os
import socket
import sys
from pathlib import Path
from typing import Any, SupportsIndex

from .registrations import ConfigurationError
from .replay import REPLACEMENT_ENV, MemoryReplayStore, ReplayStore, open_replay_store

__all__ = [
    "DEFAULT_MAX_CONNECTIONS",
    "MAX_HEAD_BYTES",
    "REPLAY_STORE_ENV",
    "WORKERS_ENV",
    "ReusePortListener",
    "default_replay_store",
    "reuse_port_supported",
    "serve",
    "serving_workers",
]

#: Environment variables :func:`serve` sets for the worker processes it starts.
WORKERS_ENV = "HELPTHREAD_PROVIDER_WORKERS"
REPLAY_STORE_ENV = "HELPTHREAD_PROVIDER_REPLAY_STORE"
#: Open connections per worker before new ones are refused (see ``httpserver``).
DEFAULT_MAX_CONNECTIONS = 512
#: Largest request head (request line and headers) read, in bytes.
MAX_HEAD_BYTES = 16 * 1024
#: Seconds an idle kept-alive connection stays open between requests.
KEEP_ALIVE_S = 5


def serving_workers() -> int:
    """How many worker processes the running :func:`serve` started (1 outside it)."""
    try:
        return max(1, int(os.environ.get(WORKERS_ENV, "1")))
    except ValueError:
        return 1


def default_replay_store() -> ReplayStore:
    """The replay store :class:`~provider.contract.settings.ContractSettings` uses when
    given none: the one :func:`serve` was told (``replay_store=``), else in-memory.

    Raises:
        ValueError: the setting handed down by :func:`serve` cannot be opened.
    """
    spec = os.environ.get(REPLAY_STORE_ENV)
    return open_replay_store(spec) if spec else MemoryReplayStore()


def is_shared(store: ReplayStore) -> bool:
    """Whether ``store`` is seen by every process (``shared = True`` on its class)."""
    return bool(getattr(store, "shared", False))


def check_replay_store_for_workers(store: ReplayStore, workers: int | None = None) -> None:
    """Refuse a per-process store when several workers serve (CONTRACT A5).

    Raises:
        ConfigurationError: ``workers`` (default: :func:`serving_workers`) is above 1
            and ``store`` is not shared.
    """
    count = serving_workers() if workers is None else workers
    if count > 1 and not is_shared(store):
        raise ConfigurationError(
            f"{type(store).__name__} is a per-process replay store, but {count} workers serve: a replay sent on "
            "another connection reaches another worker and is accepted. Use a shared store "
            "(open_replay_store('sqlite:///path') on one machine, 'redis://…' for several), or one worker"
        )


def serve(
    app: Any,
    *,
    host: str = "127.0.0.1",
    port: int = 8080,
    workers: int = 1,
    replay_store: str | None = None,
    max_connections: int = DEFAULT_MAX_CONNECTIONS,
    ssl_certfile: Path | str | None = None,
    ssl_keyfile: Path | str | None = None,
    factory: bool | None = None,
    graceful_shutdown_s: int = 10,
    log_config: dict[str, Any] | None = None,
    own_process: bool = False,
) -> None:
    """Serve ``app`` with uvicorn until stopped (SIGINT/SIGTERM), hardened.

    Args:
        app: an ASGI application (one worker only), or an import string
            ``"package.module:factory"`` naming a function that returns one (needed
            for ``workers > 1``: each worker imports it and builds its own).
        host, port: where to listen.
        workers: worker processes; above 1 needs a shared ``replay_store``.
        replay_store: ``sqlite:///path`` or ``redis://…`` (or ``memory`` for one
            worker), handed to every worker through :data:`REPLAY_STORE_ENV`.
        max_connections: open connections per worker; beyond it new connections may
            only ask ``GET /healthz`` and get ``503 overloaded`` otherwise; connections
            already open are never refused.
        ssl_certfile, ssl_keyfile: PEM files to terminate TLS here.
        factory: whether an import string names a factory (default) or the
            application itself.
        graceful_shutdown_s: seconds open requests get to finish on shutdown.
        log_config: uvicorn's logging configuration; default: leave logging as the
            caller set it up.
        own_process: serve even one worker in a child process, under uvicorn's
            supervisor (as several always are), so that the calling process's own
            threads — an index writer — never compete with searches for one GIL.
            Needs ``app`` as an import string.

    Raises:
        ConfigurationError: several workers without a shared replay store, or with an
            application object instead of an import string.
        ValueError: an unusable ``replay_store`` setting.
    """
    import uvicorn

    from .httpserver import PROTOCOL

    if (workers > 1 or own_process) and not isinstance(app, str):
        raise ConfigurationError("worker processes need the application as an import string "
                                 "('package.module:factory'): each worker builds its own")
    if workers > 1 and (replay_store is None or replay_store == "memory"):
        raise ConfigurationError(
            f"{workers} workers need a shared replay store: pass replay_store='sqlite:///path' (one machine) or "
            "'redis://host:port/db' (several); the in-memory store covers one process, and a replay sent on "
            "another connection would reach another worker and be accepted (CONTRACT A5)"
        )
    if replay_store is not None:
        os.environ[REPLAY_STORE_ENV] = replay_store
    os.environ[WORKERS_ENV] = str(workers)
    options: dict[str, Any] = dict(
        factory=isinstance(app, str) if factory is None else factory,
        host=host,
        port=port,
        log_config=log_config,
        access_log=False,
        server_header=False,
        http=PROTOCOL,
        h11_max_incomplete_event_size=MAX_HEAD_BYTES,
        limit_concurrency=max_connections,
        timeout_keep_alive=KEEP_ALIVE_S,
        ssl_certfile=str(ssl_certfile) if ssl_certfile else None,
        ssl_keyfile=str(ssl_keyfile) if ssl_keyfile else None,
        timeout_graceful_shutdown=graceful_shutdown_s,
    )
    if workers > 1 or own_process:
        # What uvicorn.run does with several workers — its supervisor: signals, restart of a
        # dead worker — for one worker too when asked (uvicorn.run would serve it in the
        # calling process), and with a listener per worker where the kernel spreads them.
        from uvicorn.supervisors import Multiprocess

        config = uvicorn.Config(app, workers=workers, **options)
        sock = (ReusePortListener.create(host, port) if workers > 1 and reuse_port_supported()
                else config.bind_socket())
        os.environ.pop(REPLACEMENT_ENV, None)
        try:
            _supervisor(Multiprocess)(config, sockets=[sock]).run()
        finally:
            os.environ.pop(REPLACEMENT_ENV, None)
            sock.close()
        return
    uvicorn.run(app, **options)


def _supervisor(base: Any) -> Any:
    """uvicorn's supervisor, marking the workers it starts after the first ones as
    replacements (:data:`~provider.contract.replay.REPLACEMENT_ENV`): their in-memory
    replay store refuses what was signed before it began, which the dead worker may
    have seen (CONTRACT A5)."""

    class Supervisor(base):  # type: ignore[misc]
        def init_processes(self) -> None:
            super().init_processes()
            # Spawned processes inherit the environment as it is when they start: every
            # worker started from now on (a crash's replacement, SIGHUP) is a replacement.
            os.environ[REPLACEMENT_ENV] = "1"

    return Supervisor


def reuse_port_supported() -> bool:
    """Whether the kernel spreads connections over the ``SO_REUSEPORT`` listeners of one
    port (Linux does, by a hash of each connection's addresses; macOS and the BSDs
    accept the option but hand every connection to one listener)."""
    return sys.platform.startswith("linux") and hasattr(socket, "SO_REUSEPORT")


class ReusePortListener(socket.socket):
    """The address every worker of :func:`serve` listens on, each with its own socket.

    uvicorn binds one socket in the parent and every worker accepts from it: one accept
    queue, whose waiting workers the kernel wakes last-come first-served, so the worker
    that accepted last accepts again — all 16 keep-alive connections of a client were
    seen on one worker of two for a whole run, the other idle. This socket is bound in
    the parent with ``SO_REUSEPORT`` (so the port is taken, and a busy one fails at
    once) but never listens; passed to a worker process, it arrives as a *new* socket
    bound to the same address with ``SO_REUSEPORT``, which that worker listens on. The
    kernel then assigns each new connection to one worker's queue by a hash of its
    addresses: evenly, whichever worker is awake. (A worker that stops takes the
    connections still waiting in its queue with it; restarts are rare.)
    """

    @classmethod
    def create(cls, host: str, port: int) -> ReusePortListener:
        """Bind ``host:port`` (port 0: a free port, then kept for every worker).

        Raises:
            SystemExit: the address cannot be bound (uvicorn's startup failure code).
        """
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = cls(family, socket.SOCK_STREAM)
        try:
            _set_reuse(sock)
            sock.bind((host, port))
        except OSError as exc:
            sock.close()
            logging.getLogger("uvicorn.error").error(exc)
            raise SystemExit(3) from None
        return sock

    def __reduce_ex__(self, protocol: SupportsIndex) -> tuple[Any, ...]:
        # multiprocessing duplicates a plain socket (one queue for all); this one is
        # rebuilt in the worker instead, bound anew to the same address.
        host, port = self.getsockname()[:2]
        return _worker_listener, (self.family, host, port)


def _set_reuse(sock: socket.socket) -> None:
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)


def _worker_listener(family: int, host: str, port: int) -> socket.socket:
    """A worker's own socket on the address of a :class:`ReusePortListener` (not yet
    listening: uvicorn calls ``listen`` with its backlog)."""
    sock = socket.socket(family, socket.SOCK_STREAM)
    _set_reuse(sock)
    sock.bind((host, port))
    return sock
