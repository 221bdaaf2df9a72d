"""Serving a provider: :func:`serve` runs any :func:`~helpthread_kit.create_app`
application with **stock uvicorn**, configured through its public settings only, on one
or several worker processes (CONTRACT W4, W7, A5).

::

    from helpthread_kit.serving import serve
    serve("my_adapter.app:make_app", workers=2, replay_store="sqlite:///var/lib/my-adapter/replay.db")

What uvicorn is told (:func:`uvicorn_options`): its C parser (``httptools``) when
installed, which refuses ambiguous framing (two ``Content-Length``, ``Content-Length``
with ``Transfer-Encoding``, bad chunk sizes) before the application runs; the largest
request head; ``limit_concurrency`` (beyond it uvicorn answers ``503``); the keep-alive
timeout; no ``Server`` header. What uvicorn cannot do — the envelope on requests it
refuses itself, a deadline on slow request heads, TLS for the internet — is the
reverse proxy's duty (``docs/explanation/litestar.md``).

Several workers (or one in its own process, ``own_process``) are started here, not by
uvicorn's supervisor: each worker process builds its application, then serves it with
``uvicorn.Server(...).run(sockets=[its own listener])`` and tells this process when it
accepts connections. So

* start-up cannot be mistaken for a hang: nothing pings a worker while it opens its
  index (uvicorn's supervisor killed and restarted workers whose start-up took more
  than its 5 s health-check timeout on a busy machine, in a loop);
* the address answers from the start: until the first worker serves, this process
  serves :func:`~helpthread_kit.starting.starting_app` on it (``/healthz`` 200, every other
  request ``503 index_unavailable`` with ``Retry-After``; :class:`_StartingState`). The
  first worker serves on the very listening socket the starting state accepted from,
  and only once the starting state has stopped accepting and every connection it
  accepted is answered and closed: whoever sees a worker's ``/readyz`` 200, no
  connection is answered by the starting state any more (connections arriving during
  the hand-over wait in the socket's queue, none is reset);
* a worker that cannot start (a per-process replay store under several workers, a bad
  setting) stops the whole server once, with its error (:class:`WorkerStartFailed`);
  a worker that dies after it started is replaced, and replacements are marked
  (:data:`~helpthread_kit.replay.REPLACEMENT_ENV`);
* each worker has its own ``SO_REUSEPORT`` listener where the kernel spreads new
  connections over them (:class:`ReusePortListener`).

With several workers every process must see every nonce (A5): :func:`serve` refuses
``workers > 1`` without a shared ``replay_store`` (``sqlite:///path`` for one machine,
``redis://…`` for several) and hands the setting to the workers through the
environment; :func:`~helpthread_kit.create_app` refuses a store that is not shared
inside a worker of a multi-worker :func:`serve`.
"""

from __future__ import annotations

import asyncio
import errno
import importlib
import importlib.util
import logging
import multiprocessing
import os
import signal
import socket
import sys
import threading
import time
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any, SupportsIndex

from .registrations import ConfigurationError
from .replay import REPLACEMENT_ENV, MemoryReplayStore, ReplayStore, open_replay_store

__all__ = [
    "DEFAULT_MAX_CONNECTIONS",
    "KEEP_ALIVE_S",
    "MAX_HEAD_BYTES",
    "REPLAY_STORE_ENV",
    "WORKERS_ENV",
    "ReusePortListener",
    "WorkerStartFailed",
    "default_replay_store",
    "http_implementation",
    "reuse_port_supported",
    "serve",
    "serving_workers",
    "uvicorn_options",
]

log = logging.getLogger("provider.serving")
#: uvicorn's own logger: "Received SIGTERM" there is what ``logsetup`` reads the stop from.
uvicorn_log = logging.getLogger("uvicorn.error")

#: Environment variables :func:`serve` sets for the worker processes it starts.
WORKERS_ENV = "HELPTHREAD_PROVIDER_WORKERS"
REPLAY_STORE_ENV = "HELPTHREAD_PROVIDER_REPLAY_STORE"
#: Open connections per worker before uvicorn answers ``503`` (its ``limit_concurrency``).
DEFAULT_MAX_CONNECTIONS = 512
#: Largest request head (request line and headers) read, in bytes.
MAX_HEAD_BYTES = 16 * 1024
#: Seconds an idle kept-alive connection stays open between requests.
KEEP_ALIVE_S = 5
#: Deaths of started workers within :data:`CRASH_WINDOW_S` after which the server stops
#: instead of starting one more (a worker that crashes on every request).
MAX_CRASHES = 5
CRASH_WINDOW_S = 60.0


class WorkerStartFailed(RuntimeError):
    """A worker process could not start (its application could not be built, or it
    could not listen); the server was stopped. The message is the worker's error."""


def serving_workers() -> int:
    """How many worker processes the running :func:`serve` started (1 outside it)."""
    try:
        return max(1, int(os.environ.get(WORKERS_ENV, "1")))
    except ValueError:
        return 1


def default_replay_store() -> ReplayStore:
    """The replay store :class:`~helpthread_kit.settings.ContractSettings` uses when
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


def http_implementation() -> str:
    """``"httptools"`` (uvicorn's C parser: less CPU per request, strict framing) when
    installed, else ``"h11"``."""
    return "httptools" if importlib.util.find_spec("httptools") is not None else "h11"


def uvicorn_options(
    *,
    max_connections: int = DEFAULT_MAX_CONNECTIONS,
    ssl_certfile: Path | str | None = None,
    ssl_keyfile: Path | str | None = None,
    graceful_shutdown_s: int = 10,
    log_config: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The keyword arguments of ``uvicorn.Config`` every provider is served with (all
    public settings): parser, limits, timeouts, TLS files, quiet access log."""
    return dict(
        log_config=log_config,
        access_log=False,  # the contract's access log (provider.access) says more, and never the query
        server_header=False,
        http=http_implementation(),
        h11_max_incomplete_event_size=MAX_HEAD_BYTES,
        limit_concurrency=max_connections,
        timeout_keep_alive=KEEP_ALIVE_S,
        ssl_certfile=str(ssl_certfile) if ssl_certfile else None,
        ssl_keyfile=str(ssl_keyfile) if ssl_keyfile else None,
        timeout_graceful_shutdown=graceful_shutdown_s,
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
    """Serve ``app`` with uvicorn until stopped (SIGINT/SIGTERM).

    Args:
        app: an ASGI application (one worker only), or an import string
            ``"package.module:factory"`` naming a function that returns one (needed
            for ``workers > 1``: each worker imports it and builds its own).
        host, port: where to listen.
        workers: worker processes; above 1 needs a shared ``replay_store``.
        replay_store: ``sqlite:///path`` or ``redis://…`` (or ``memory`` for one
            worker), handed to every worker through :data:`REPLAY_STORE_ENV`.
        max_connections: open connections per worker; beyond it uvicorn answers
            ``503`` (``limit_concurrency``).
        ssl_certfile, ssl_keyfile: PEM files to terminate TLS here.
        factory: whether an import string names a factory (default) or the
            application itself.
        graceful_shutdown_s: seconds open requests get to finish on shutdown.
        log_config: uvicorn's logging configuration; default: leave logging as the
            caller set it up.
        own_process: serve even one worker in a child process (as several always
            are), so that the calling process's own threads — an index writer — never
            compete with searches for one GIL. Needs ``app`` as an import string.

    Raises:
        ConfigurationError: several workers without a shared replay store, or with an
            application object instead of an import string.
        WorkerStartFailed: a worker could not start; every worker was stopped.
        ValueError: an unusable ``replay_store`` setting.
    """
    import uvicorn

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
    options = uvicorn_options(max_connections=max_connections, ssl_certfile=ssl_certfile, ssl_keyfile=ssl_keyfile,
                              graceful_shutdown_s=graceful_shutdown_s, log_config=log_config)
    is_factory = isinstance(app, str) if factory is None else factory
    if workers == 1 and not own_process:
        uvicorn.Server(uvicorn.Config(app, host=host, port=port, factory=is_factory, **options)).run()
        return
    listener = (ReusePortListener.create(host, port) if reuse_port_supported() else _shared_listener(host, port))
    os.environ.pop(REPLACEMENT_ENV, None)
    try:
        _Supervisor(app, is_factory, options, listener, workers, graceful_shutdown_s).run()
    finally:
        os.environ.pop(REPLACEMENT_ENV, None)
        listener.close()


def _load(app: str, is_factory: bool) -> Any:
    """The application an import string names (calling it if it is a factory)."""
    module_name, _, attribute = app.partition(":")
    if not attribute:
        raise ConfigurationError(f"{app!r} is not an import string of the form 'package.module:attribute'")
    found: Any = importlib.import_module(module_name)
    for part in attribute.split("."):
        found = getattr(found, part)
    return found() if is_factory else found


def _worker_main(app: str, is_factory: bool, options: dict[str, Any], listener: socket.socket,
                 channel: Connection) -> None:
    """A worker process: build the application, tell the supervisor ``("built",)`` and
    wait for its ``("go",)``, then serve it on ``listener`` and tell ``("started",)``
    once uvicorn accepts connections; ``("failed", message)`` if the application cannot
    be built (then exit 3, as when the supervisor is gone before its ``go``)."""
    import uvicorn

    # Ctrl-C reaches the whole process group: the supervisor stops the workers (SIGTERM).
    # Ignored here, a SIGINT can no longer interrupt a build with a traceback, nor be
    # re-raised as KeyboardInterrupt after uvicorn's graceful shutdown.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        application = _load(app, is_factory)
    except Exception as exc:
        channel.send(("failed", f"{type(exc).__name__}: {exc}"))
        channel.close()
        sys.exit(3)
    # Accept nothing before the supervisor says so: until then its starting state may
    # still accept from this listener, and a client that saw this worker ready must
    # never be answered by it.
    channel.send(("built",))
    try:
        go = channel.recv()
    except EOFError:
        sys.exit(3)  # the supervisor is gone
    if go != ("go",):
        sys.exit(3)
    server = uvicorn.Server(uvicorn.Config(application, **options))

    def announce() -> None:
        while not server.started and not server.should_exit:
            time.sleep(0.02)
        if server.started:
            channel.send(("started",))

    threading.Thread(target=announce, name="announce-start", daemon=True).start()
    server.run(sockets=[listener])


class _Supervisor:
    """Starts the workers, waits for each to say it serves, replaces one that dies, and
    stops them all on SIGINT/SIGTERM (module docstring)."""

    def __init__(self, app: str, is_factory: bool, options: dict[str, Any], listener: socket.socket, workers: int,
                 graceful_shutdown_s: int) -> None:
        self.app, self.is_factory, self.options = app, is_factory, options
        self.listener, self.count, self.grace_s = listener, workers, graceful_shutdown_s
        self.context = multiprocessing.get_context("spawn")
        # Spawned workers start as `python -c`, whose module path begins with the working
        # directory: a module there named like one a worker imports (`http.py`) would run in
        # every worker. Python 3.11's safe path keeps that directory off.
        os.environ["PYTHONSAFEPATH"] = "1"
        self.processes: list[multiprocessing.process.BaseProcess] = []
        self.stop_signal: int | None = None
        self.crashes: list[float] = []
        self.starting: _StartingState | None = None

    def _start(self, listener: socket.socket | None = None) -> multiprocessing.process.BaseProcess:
        """One worker (on ``listener``, default the supervisor's), returned once it serves.
        When it has built its application it is told to serve only after the starting
        state, if still there, has stopped (:meth:`_StartingState.stop`).

        Raises:
            WorkerStartFailed: it exited first, or sent its error.
        """
        ours, theirs = self.context.Pipe()
        process = self.context.Process(target=_worker_main, name="provider-worker",
                                       args=(self.app, self.is_factory, self.options, listener or self.listener,
                                             theirs))
        process.start()
        theirs.close()
        self.processes.append(process)
        try:
            while self.stop_signal is None:
                # No time limit: opening an index on a busy machine may take long, and a
                # worker is never killed for it. Only its exit or its word counts.
                ready = wait([ours, process.sentinel], timeout=0.5)
                if ours in ready:
                    try:
                        message = ours.recv()
                    except EOFError:
                        process.join(1)
                        message = ("failed", f"exited with status {process.exitcode}")
                    if message[0] == "built":
                        if self.starting is not None:
                            self.starting.stop()
                            self.starting = None
                        ours.send(("go",))
                        continue
                    if message[0] == "started":
                        return process
                    raise WorkerStartFailed(f"a worker could not start: {message[1]}")
                if process.sentinel in ready:
                    process.join()
                    raise WorkerStartFailed(f"a worker could not start: it exited with status {process.exitcode} "
                                            "(see its error above)")
            return process
        finally:
            ours.close()

    def _on_signal(self, signum: int, frame: object) -> None:
        if self.stop_signal is None:
            self.stop_signal = signum
            # Formatted here: provider.logsetup reads the signal's name from the message.
            uvicorn_log.info(f"Received {signal.Signals(signum).name}, stopping the workers.")

    def run(self) -> None:
        previous = {sig: signal.signal(sig, self._on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
        self.starting = _StartingState(self.listener, self.options)
        try:
            # The first worker serves on the socket the starting state accepted from.
            self._start(self.starting.listener)
            for _ in range(self.count - 1):
                self._start()
            # Spawned processes take the environment as it is when they start: every
            # worker from now on replaces one that died, and refuses what was signed
            # before it began (its in-memory replay store cannot know those nonces, A5).
            os.environ[REPLACEMENT_ENV] = "1"
            while self.stop_signal is None:
                wait([p.sentinel for p in self.processes], timeout=0.5)
                for process in [p for p in self.processes if not p.is_alive()]:
                    self.processes.remove(process)
                    if self.stop_signal is not None:
                        break
                    self._replace(process)
        except WorkerStartFailed as exc:
            log.error("%s; stopping the server", exc)
            raise
        finally:
            if self.starting is not None:
                self.starting.stop()
                self.starting = None
            self._stop_all()
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    def _replace(self, dead: multiprocessing.process.BaseProcess) -> None:
        now = time.monotonic()
        self.crashes = [t for t in self.crashes if now - t < CRASH_WINDOW_S] + [now]
        if len(self.crashes) > MAX_CRASHES:
            raise WorkerStartFailed(f"{len(self.crashes)} workers died within {CRASH_WINDOW_S:g} s "
                                    f"(the last with status {dead.exitcode})")
        log.error("worker %s died (exit status %s); starting a replacement", dead.pid, dead.exitcode)
        self._start()

    def _stop_all(self) -> None:
        for process in self.processes:
            if process.is_alive() and process.pid is not None:
                os.kill(process.pid, signal.SIGTERM)
        deadline = time.monotonic() + self.grace_s + 5
        for process in self.processes:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                process.kill()
                process.join()
        self.processes.clear()


class _StartingState:
    """The address answers while no worker serves yet: :func:`~helpthread_kit.starting.starting_app`
    (``/healthz`` 200, everything else ``503 index_unavailable``), served by stock uvicorn
    with the workers' own options (TLS included) in a thread of the supervising process,
    from before the first worker is started until that worker has built its application.

    It accepts from :attr:`listener`, the listening socket the first worker then serves
    on: with ``SO_REUSEPORT`` a socket of its own on the address (the later workers add
    theirs), with one shared listening socket that one. The hand-over (:meth:`stop`)
    finishes before the first worker accepts anything, so a client that has seen a
    worker's ``/readyz`` 200 is never answered by the starting state; connections that
    arrive meanwhile wait in the socket's queue, which is never closed (closing a
    listening socket resets the connections queued on it).
    """

    def __init__(self, listener: socket.socket, options: dict[str, Any]) -> None:
        import uvicorn

        from .starting import starting_app

        if isinstance(listener, ReusePortListener):
            host, port = listener.getsockname()[:2]
            self.listener = _worker_listener(listener.family, host, port)
            self._own_listener = True
        else:
            self.listener, self._own_listener = listener, False
        self._accepting = _HandOverListener.duplicate(self.listener)
        # The asyncio loop, whatever the workers use: uvloop would accept on the file
        # descriptor itself, past _HandOverListener.accept.
        config = uvicorn.Config(starting_app(), **{**options, "loop": "asyncio"})
        self._server = uvicorn.Server(config)
        # uvicorn installs no signal handlers outside the main thread: the supervisor's stay.
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [self._accepting]},
                                        name="starting-state", daemon=True)
        self._thread.start()

    def stop(self, drain_s: float = KEEP_ALIVE_S) -> None:
        """Stop for good; returns once no connection it accepted is open.

        In order: it accepts no more; the connections it accepted get their answer and
        are closed (each answer says ``Connection: close``) — a connection still open
        after ``drain_s`` seconds (a client that sent no request) is closed unanswered,
        as uvicorn closes an idle kept-alive connection; then its uvicorn shuts down and
        its thread ends. Its own ``SO_REUSEPORT`` socket is closed here only after the
        first worker holds a duplicate of it (the worker's process received it when it
        started), so the socket keeps listening and its queue is kept.
        """
        self._accepting.stop_accepting()
        self._accepting.wait_drained(drain_s)
        self._server.should_exit = True
        self._thread.join()
        self._accepting.close_left_open()
        if self._own_listener:
            self.listener.close()


class _HandOverListener(socket.socket):
    """The starting state's duplicate of a listening socket: :meth:`stop_accepting` stops
    its accepting for good from any thread, and :meth:`wait_drained` waits until every
    connection it accepted is closed — at the socket, so a connection still in its TLS
    handshake or not yet seen by uvicorn counts. Closing this duplicate leaves the
    listening socket and its queue to the other holders (the first worker)."""

    @classmethod
    def duplicate(cls, listener: socket.socket) -> _HandOverListener:
        """A duplicate of ``listener`` (its file descriptor ``dup``-ed)."""
        return cls(listener.family, listener.type, listener.proto, fileno=os.dup(listener.fileno()))

    def __init__(self, family: int, type: int, proto: int, fileno: int) -> None:
        super().__init__(family, type, proto, fileno=fileno)
        self._state = threading.Condition()
        self._stopped = False
        self._open: set[_AcceptedConnection] = set()

    def accept(self) -> tuple[socket.socket, Any]:
        """What :meth:`socket.socket.accept` does (asyncio's server calls it on its event
        loop when the socket is readable), unless stopped: then nothing is taken from the
        queue, and the socket is no longer watched (``BlockingIOError``, which asyncio
        reads as an empty queue)."""
        with self._state:
            if self._stopped:
                asyncio.get_running_loop().remove_reader(self.fileno())
                raise BlockingIOError(errno.EAGAIN, "the starting state has stopped accepting")
            fd, address = self._accept()  # type: ignore[attr-defined]  # socket.accept's own primitive
            connection = _AcceptedConnection(self.family, self.type, self.proto, fileno=fd, owner=self)
            self._open.add(connection)
        return connection, address

    def stop_accepting(self) -> None:
        """From now on :meth:`accept` takes nothing (an accept under way finishes first)."""
        with self._state:
            self._stopped = True

    def closed(self, connection: _AcceptedConnection) -> None:
        """``connection`` was closed (by uvicorn once it answered, or by the client)."""
        with self._state:
            self._open.discard(connection)
            self._state.notify_all()

    def wait_drained(self, timeout_s: float) -> bool:
        """Whether every accepted connection was closed within ``timeout_s`` seconds."""
        with self._state:
            return self._state.wait_for(lambda: not self._open, timeout_s)

    def close_left_open(self) -> None:
        """Close what is still open once the server's event loop has ended."""
        with self._state:
            left = list(self._open)
        for connection in left:
            connection.close()


class _AcceptedConnection(socket.socket):
    """A connection :class:`_HandOverListener` accepted: tells it when it is closed."""

    def __init__(self, family: int, type: int, proto: int, fileno: int,
                 owner: _HandOverListener) -> None:
        super().__init__(family, type, proto, fileno=fileno)
        self._owner: _HandOverListener | None = owner

    def close(self) -> None:
        super().close()
        owner, self._owner = self._owner, None
        if owner is not None:
            owner.closed(self)


def _shared_listener(host: str, port: int) -> socket.socket:
    """One listening socket every worker accepts from (where ``SO_REUSEPORT`` does not
    spread connections)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP, not 0: asyncio sets TCP_NODELAY only on sockets that say so, and
    # accepted sockets inherit it (without, every keep-alive answer waited ~40 ms for
    # the client's delayed ACK; uvicorn issue #3149).
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        uvicorn_log.error(exc)
        raise SystemExit(3) from None
    sock.set_inheritable(True)
    return sock


def reuse_port_supported() -> bool:
    """Whether the kernel spreads connections over the ``SO_REUSEPORT`` listeners of one
    port (Linux does, by a hash of each connection's addresses; macOS and the BSDs
    accept the option but hand every connection to one listener)."""
    return sys.platform.startswith("linux") and hasattr(socket, "SO_REUSEPORT")


class ReusePortListener(socket.socket):
    """The address every worker of :func:`serve` listens on, each with its own socket.

    With one shared listening socket every worker accepts from one queue, whose waiting
    workers the kernel wakes last-come first-served, so the worker that accepted last
    accepts again — all 16 keep-alive connections of a client were seen on one worker
    of two for a whole run, the other idle. This socket is bound in the parent with
    ``SO_REUSEPORT`` (so the port is taken, and a busy one fails at once) but never
    listens; passed to a worker process, it arrives as a *new* socket bound to the same
    address with ``SO_REUSEPORT``, which that worker listens on. The kernel then
    assigns each new connection to one worker's queue by a hash of its addresses.
    """

    @classmethod
    def create(cls, host: str, port: int) -> ReusePortListener:
        """Bind ``host:port`` (port 0: a free port, then kept for every worker).

        Raises:
            SystemExit: the address cannot be bound (uvicorn's startup failure code).
        """
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = cls(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        try:
            _set_reuse(sock)
            sock.bind((host, port))
        except OSError as exc:
            sock.close()
            uvicorn_log.error(exc)
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
    listening: asyncio's server calls ``listen`` with uvicorn's backlog)."""
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    _set_reuse(sock)
    sock.bind((host, port))
    return sock
