"""Start-up wiring: what ``knowledge-provider serve`` and ``index`` put together, in order,
and what each serving worker process does when it starts.

The process model (docs/explanation): the process that runs ``serve`` is the one index
writer (watcher, corpus rules, Whoosh writer, reader processes) and the supervisor of
the serving workers (:mod:`helpthread_kit.serving`); each worker is started by
uvicorn with :func:`worker_app`, which rebuilds the application from the settings the
parent validated — handed down as :meth:`ProviderConfig.to_json` in a file that
:data:`WORKER_ENV` names (secrets stay in their own variables) — and runs
``serving_niceness`` steps below the writer, so an edit is indexed on its own GIL and
at a higher CPU priority than the searches (CONTRACT X7 under load).

Errors: :class:`~helpthread_kit.registrations.ConfigurationError` for an unusable
setting (the CLI exits 2), :class:`StartupError` for anything else that stops a start
(a port taken, the index locked by another writer, a worker that cannot start; exit 1).
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from helpthread_kit.errors import ContractError
from helpthread_kit.registrations import ConfigurationError, Exposure, Registration

from . import allocator
from .config import SECRET_ENV, ProviderConfig, registrations_from_env
from .interrupts import interrupt
from .logsetup import received_signal, setup_logging

# The server stack (Litestar, uvicorn, Whoosh) is imported when it is used, so the CLI's
# `query`, `check` and --help start quickly.
if TYPE_CHECKING:
    from helpthread_kit.app import ASGIApp

    from .indexing import Indexer, SyncReport
    from .reload import ConfigFollower
    from .watch import LiveIndexer

__all__ = [
    "CONTAINER_ENV",
    "RUN_FILES",
    "SERVING_STATE",
    "STOPPED_MESSAGE",
    "WORKER_ENV",
    "StartupError",
    "announcer",
    "live_indexer",
    "open_indexer",
    "prepare_serving",
    "progress",
    "remove_run_files",
    "serve",
    "serving_url",
    "worker_app",
]

log = logging.getLogger("provider")

#: Environment variable naming the file through which ``serve`` hands its settings to
#: worker processes (:func:`_hand_down`).
WORKER_ENV = "KNOWLEDGE_PROVIDER_WORKER_SETTINGS"
#: That file, in the index's state folder.
WORKER_SETTINGS = "worker-settings.json"
#: Set by the Dockerfile: ``serve`` runs in a container.
CONTAINER_ENV = "KNOWLEDGE_PROVIDER_IN_CONTAINER"
#: Where ``serve`` says where it listens (in the index's state folder), for ``healthcheck``.
SERVING_STATE = "serving.json"
#: The line a stop by signal ends with (also after uvicorn's own shutdown with --workers).
STOPPED_MESSAGE = "stopped (%s): the index is consistent and no process is left running"


class StartupError(Exception):
    """Something other than a setting stops the start: a port taken, the index locked,
    a worker that cannot start. The message says what to do."""


class _Stopped(BaseException):
    """SIGINT or SIGTERM, raised in the main thread like KeyboardInterrupt (so ``except
    Exception`` does not swallow it)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@contextmanager
def _stops_cleanly(*, long_running: bool) -> Iterator[None]:
    """Make SIGINT (Ctrl-C) and SIGTERM (``docker stop``, systemd) unwind the stack —
    stopping the file watcher, closing the reader processes, releasing the writer lock —
    then log one line. A long-running command (``serve``, ``index --watch``) then ends
    with status 0, as after any planned stop; a one-shot ``index`` that was interrupted
    ends with 128 + the signal number (130, 143), since its work is not done.

    Why: uvicorn re-raises the signal it caught after its graceful shutdown; with
    Python's handlers the process then died at once (SIGTERM: leaving the parser
    processes to init and multiprocessing's semaphores to the resource tracker, which
    warned about them) or printed a KeyboardInterrupt traceback. A second signal while
    stopping is ignored: the cleanup is bounded (seconds).
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    stopping = False

    def stopped(signum: int, frame: object) -> None:
        nonlocal stopping
        if not stopping:
            stopping = True
            interrupt(_Stopped(signum))

    handled = (signal.SIGINT, signal.SIGTERM)
    previous = {sig: signal.signal(sig, stopped) for sig in handled}
    caught: int | None = None
    try:
        yield
    except _Stopped as stop:
        caught = stop.signum
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if caught is not None:
        log.info(STOPPED_MESSAGE, signal.Signals(caught).name)
        if not long_running:
            sys.exit(128 + caught)


def _check_content(config: ProviderConfig) -> None:
    if not config.content.is_dir():
        raise ConfigurationError(
            f"content folder {config.content} does not exist; set `content:` in the configuration or pass --content"
        )


@contextmanager
def open_indexer(config: ProviderConfig, *, long_running: bool = False) -> Iterator[Indexer]:
    """The index writer for a command, stopped cleanly by SIGINT and SIGTERM (see
    :func:`_stops_cleanly`).

    Raises:
        ConfigurationError: no content folder.
        StartupError: another process holds the index's writer lock.
    """
    from .indexing import Indexer
    from .search.layout import IndexLayout, WriterLockHeld

    _check_content(config)
    indexer = Indexer(config.wiki_settings(), IndexLayout(config.index), parse_timeout_s=config.parse_timeout_s)
    with _stops_cleanly(long_running=long_running):
        try:
            # A server listens first (answering /healthz, 503 on /readyz): its indexing
            # thread reads the sitemap before the startup scan (issue 27).
            indexer.open(read_sitemap=not long_running)
        except WriterLockHeld as exc:
            raise StartupError(str(exc)) from None
        try:
            yield indexer
        finally:
            indexer.close()


class _ProgressBar:
    """A progress bar on stderr for large wikis, created on first use: one for reading,
    one for writing (a pass that reads again after its first total goes on counting on a
    bar of the new total), and a line for each step in between."""

    def __init__(self, label: str, threshold: int = 200) -> None:
        self.label, self.threshold = label, threshold
        self._bar: Any = None
        self._at = 0
        self._large = False
        self._step = "reading"

    def __call__(self, done: int, total: int) -> None:
        if total < self.threshold or not sys.stderr.isatty():
            return
        self._large = True
        if self._bar is None or self._bar.length != total:
            self._close()
            label = self.label if self._step == "reading" else f"{self.label}: {self._step}"
            self._bar = click.progressbar(length=total, label=label, file=sys.stderr)
            self._bar.__enter__()
        self._bar.update(done - self._at)
        self._at = done
        if done >= total:
            self._close()

    def phase(self, step: str, total: int = 0) -> None:
        """The pass went on to ``step`` (see :func:`provider.indexing.report.stage`)."""
        self._close()
        self._step = step
        if self._large and step != "done" and sys.stderr.isatty():
            click.echo(f"{self.label}: {step}", err=True)

    def _close(self) -> None:
        if self._bar is not None:
            self._bar.__exit__(None, None, None)
        self._bar, self._at = None, 0


def progress(config: ProviderConfig) -> Callable[[str], Callable[[int, int], None]]:
    """Progress of a long pass: a bar on a terminal; log lines (structured in JSON) when
    stderr is not a terminal or logs are JSON (Docker, systemd, a log collector)."""
    from .logsetup import ProgressLog

    if sys.stderr.isatty() and config.log_format != "json":
        return _ProgressBar
    return lambda label: ProgressLog(label, log, beat=True)


def announcer(config: ProviderConfig) -> Callable[[str], None]:
    """Operator messages: plain lines on stderr, or log records when logs are JSON (so
    the stream stays one JSON object per line)."""
    if config.log_format == "json":
        return lambda text: log.info("%s", text)
    return lambda text: click.echo(text, err=True)


def live_indexer(
    indexer: Indexer, config: ProviderConfig, *, describe: Callable[[SyncReport], str], poll: bool = False,
    metrics: Any = None, ready_marker: Path | None = None, rebuild_first: bool = False,
) -> LiveIndexer:
    """A live indexer that announces the first report (as ``describe`` writes it), logs
    the rest and updates the index metrics. ``poll`` (``--poll``) adds to ``config.poll``."""
    from .watch import LiveIndexer

    first = threading.Event()
    say = announcer(config)

    def report(result: SyncReport) -> None:
        if not first.is_set():
            first.set()
            say(describe(result))
        if metrics is not None:
            metrics.observe_index(generation=result.generation, by_audience=dict(result.by_audience),
                                  last_scan=result.last_scan)

    return LiveIndexer(
        indexer,
        poll=poll or config.poll,
        poll_delay_ms=config.poll_delay_ms,
        reconcile_interval_s=config.reconcile_interval_s,
        on_report=report,
        ready_marker=ready_marker,
        rebuild_first=rebuild_first,
        progress=progress(config),
    )


def _check_port_free(host: str, port: int, option: str) -> None:
    """Fail before indexing when the address is taken, naming the option to change."""
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError as exc:
            raise StartupError(
                f"cannot listen on {host}:{port} ({exc.strerror or exc}): another process uses it; "
                f"stop it or choose another {option}"
            ) from None


def _warn_loopback_in_container(config: ProviderConfig) -> None:
    """In a container, a loopback address cannot be reached from outside: say so (a mounted
    configuration without ``host: 0.0.0.0`` would otherwise fail silently)."""
    if not os.environ.get(CONTAINER_ENV):
        return
    loopback = ("127.0.0.1", "localhost", "::1")
    for key, host, used in (("host", config.host, True), ("metrics_host", config.metrics_host, config.metrics_port)):
        if used and host in loopback:
            log.warning("%s is %s inside a container: nothing outside the container can reach it; set `%s: 0.0.0.0` "
                        "in the configuration", key, host, key)


def serving_url(config: ProviderConfig) -> str:
    """The base URL ``serve`` answers on."""
    return f"{'https' if config.ssl_certfile else 'http'}://{config.host}:{config.port}"


def prepare_serving(config: ProviderConfig) -> None:
    """What ``serve`` checks and sets up before it creates secrets or indexes anything:
    the serving settings, logging, the content folder, free ports.

    Raises:
        ConfigurationError: an unusable setting or no content folder.
        StartupError: a port is taken.
    """
    config.check_serving()
    setup_logging(config.log_level, config.log_format)
    _warn_loopback_in_container(config)
    _check_content(config)
    _check_port_free(config.host, config.port, "--port")
    if config.metrics_port:
        _check_port_free(config.metrics_host, config.metrics_port, "--metrics-port (or 0 to turn metrics off)")


def _check_application(config: ProviderConfig, registrations: Sequence[Registration]) -> None:
    """Refuse here, before anything starts, what a worker would refuse; say when the
    replay store cannot be reached (requests get 503 until it can)."""
    from helpthread_kit.replay import open_replay_store

    from .app import build_app

    if not any(r.exposure is Exposure.CUSTOMER_SAFE for r in registrations):
        log.warning("no customer_safe registration is configured (%s is not set): customer-facing searches "
                    "cannot use this provider", SECRET_ENV[Exposure.CUSTOMER_SAFE])
    try:
        store = open_replay_store(config.replay_store_spec, state_dir=config.state_dir)
        ping = getattr(store, "ping", None)
        if callable(ping):
            ping()
    except ValueError as exc:
        raise ConfigurationError(str(exc)) from None
    except ContractError as exc:
        log.error("the replay store %s cannot be reached (%s): every request will be refused with 503 until it "
                  "can", config.replay_store_spec.split("@")[-1], exc.message)
    try:
        build_app(config, registrations, replay_store=store)
    except ValueError as exc:
        raise ConfigurationError(str(exc)) from None


def _metrics(config: ProviderConfig) -> Any:
    """The parent's metrics, or ``None`` when ``metrics_port`` is 0. Metrics are
    per-process files added up by the /metrics listener of this process; the folder must
    be set before prometheus_client is first imported."""
    if not config.metrics_port:
        return None
    from . import metrics as metrics_module

    metrics_module.prepare(config.state_dir / "metrics")
    return metrics_module.Metrics()


def _start_metrics_listener(config: ProviderConfig, say: Callable[[str], None]) -> None:
    from . import metrics as metrics_module

    try:
        metrics_module.start_server(config.metrics_host, config.metrics_port)
        say(f"Metrics on http://{config.metrics_host}:{config.metrics_port}/metrics")
    except OSError as exc:
        log.error("metrics listener not started on %s:%s (%s): choose another --metrics-port, or 0 for none",
                  config.metrics_host, config.metrics_port, exc.strerror or exc)


def _write_atomically(path: Path, data: bytes) -> None:
    """Replace ``path`` by ``data`` so no reader ever sees half of it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def _write_serving_state(config: ProviderConfig) -> None:
    """Record the address, port and scheme this server listens on, whatever options or
    configuration set them, so ``healthcheck`` probes the right place."""
    state = {"scheme": "https" if config.ssl_certfile else "http", "host": config.host, "port": config.port,
             "pid": os.getpid()}
    _write_atomically(config.state_dir / SERVING_STATE, json.dumps(state).encode("utf-8"))


def _hand_down(config: ProviderConfig) -> None:
    """Give the worker processes these settings, as the model's own JSON, in a file of the
    state folder that :data:`WORKER_ENV` names. A file rather than the variable's value:
    one variable of a spawned process is limited to 128 KiB on Linux, which a long list
    of accepted findings or rules could pass. Called with the writer lock held, so a
    second ``serve`` of the same index cannot replace the file."""
    path = config.state_dir / WORKER_SETTINGS
    _write_atomically(path, config.to_json())
    os.environ[WORKER_ENV] = str(path)


#: Files of the state folder that describe one run of ``serve`` and mean nothing after it:
#: where it listens (``healthcheck``), the settings handed to its workers, and the marker
#: that its start-up sync is done. The index, the writer lock, the last good sitemap and a
#: ``sqlite`` replay store (outside ``--dev``) are kept: the next start reuses them.
RUN_FILES = (SERVING_STATE, WORKER_SETTINGS, "ready")


def remove_run_files(config: ProviderConfig, *, metrics: bool, dev: bool = False) -> list[Path]:
    """Remove :data:`RUN_FILES` from the state folder, and ``metrics/`` (this run's
    per-process Prometheus files, emptied again at every start) when ``metrics``; with
    ``dev``, the ``sqlite`` replay store and its journal files as well.

    Returns:
        the paths removed.
    """
    state = config.state_dir
    paths = [state / name for name in RUN_FILES]
    if dev and config.replay_store_spec == "sqlite":
        paths += [state / f"replay.sqlite3{suffix}" for suffix in ("", "-wal", "-shm", "-journal")]
    removed = [path for path in paths if path.is_file()]
    for path in removed:
        path.unlink(missing_ok=True)
    if metrics and (state / "metrics").is_dir():
        shutil.rmtree(state / "metrics", ignore_errors=True)
        removed.append(state / "metrics")
    return removed


def _replay_store_setting(config: ProviderConfig) -> str:
    """The replay store as :func:`~helpthread_kit.serving.serve` takes it (``sqlite``
    resolved to its file in the state folder)."""
    spec = config.replay_store_spec
    return f"sqlite://{config.state_dir / 'replay.sqlite3'}" if spec == "sqlite" else spec


def serve(config: ProviderConfig, registrations: Sequence[Registration], *, describe: Callable[[SyncReport], str],
          poll: bool = False, rebuild: bool = False, dev: bool = False) -> None:
    """Index and serve until SIGTERM or Ctrl-C (after :func:`prepare_serving`): this
    process writes the index and supervises ``config.workers`` serving processes.

    On the way out (a signal, or a worker that failed to start) it removes the files of
    the state folder that describe this run only (:func:`remove_run_files`; ``dev``: the
    ``sqlite`` replay store too, whose nonces were signed with this run's secrets).

    Raises:
        ConfigurationError: what a worker would refuse (capabilities, replay store).
        StartupError: the index is locked, or a worker could not start.
    """
    from helpthread_kit.serving import WorkerStartFailed
    from helpthread_kit.serving import serve as supervise

    _check_application(config, registrations)
    # Before the indexing thread, the reader processes and the workers start: each of
    # their threads would otherwise get a malloc arena of its own, which keeps its
    # high-water mark (provider.allocator).
    allocator.limit_arenas()
    say = announcer(config)
    stopped_by: str | None = None
    with open_indexer(config, long_running=True) as indexer:
        # Only under the writer lock: emptying the metrics folder earlier let a second
        # `serve` of the same index, refused on the lock, wipe the running server's files.
        metrics = _metrics(config)
        _hand_down(config)
        live = live_indexer(indexer, config, describe=describe, poll=poll, metrics=metrics,
                            ready_marker=config.state_dir / "ready", rebuild_first=rebuild)
        if metrics is not None:
            _start_metrics_listener(config, say)
        say(f"Serving {len(registrations)} registration(s) ({', '.join(r.exposure.value for r in registrations)}) "
            f"on {serving_url(config)} with {config.workers} worker(s), replay store "
            f"{config.replay_store_spec.split('://')[0]}")
        _write_serving_state(config)
        live.start()
        follower = _follow_configuration(config, live)
        try:
            supervise("provider.startup:worker_app", own_process=True, workers=config.workers,
                      replay_store=_replay_store_setting(config), host=config.host, port=config.port,
                      max_connections=config.max_connections, ssl_certfile=config.ssl_certfile,
                      ssl_keyfile=config.ssl_keyfile)
            # Here: the supervisor took the signal, stopped the workers and returned.
            stopped_by = received_signal() or "signal"
        except WorkerStartFailed as exc:
            # Logged once by the supervisor, which stopped every worker: exit 1, no traceback.
            raise StartupError(str(exc)) from None
        finally:
            follower.stop()
            live.stop()
            # Still under the writer lock: a second `serve` refused on it never gets here,
            # so the files of the server that holds the lock stay.
            remove_run_files(config, metrics=metrics is not None, dev=dev)
    # Said last: only now have the indexing thread and its reader processes ended and the
    # index been closed (said earlier, the last indexing lines came after it).
    if stopped_by is not None:
        log.info(STOPPED_MESSAGE, stopped_by)


def _follow_configuration(config: ProviderConfig, live: LiveIndexer) -> ConfigFollower:
    """Follow the configuration file while serving (:mod:`provider.reload`): read it
    again when it changes or on ``SIGHUP``; the settings applied while serving go to the
    writer's live indexer (and to the worker settings file, for a worker started later):
    first the quick early withdrawal and the new indexer (:meth:`LiveIndexer.switch`),
    then the scan or rebuild that applies the rest."""
    from .reload import ConfigFollower, Reload

    def prepare(found: Reload) -> None:
        # Quick: what the new settings may make less public leaves customer_safe now.
        live.switch(found.config.wiki_settings(), parse_timeout_s=found.config.parse_timeout_s)

    def apply(found: Reload) -> None:
        _hand_down(found.config)
        live.scan()

    follower = ConfigFollower(config, apply, prepare=prepare)
    if hasattr(signal, "SIGHUP") and threading.current_thread() is threading.main_thread():
        # Without a handler SIGHUP would end the server (its default action).
        signal.signal(signal.SIGHUP, lambda signum, frame: follower.request())
    follower.start()
    return follower


def _stop_with_parent() -> None:
    """SIGTERM this worker when the process that started it ends — even by SIGKILL or a
    crash, when its supervisor cannot stop the workers — so no serving process is left
    answering from an index nobody writes any more. A thread waiting on the parent's
    sentinel (readable once the parent is gone)."""
    import multiprocessing
    from multiprocessing.connection import wait

    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        wait([parent.sentinel])
        log.info("the parent process %s is gone; stopping this worker", parent.pid)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def worker_app() -> ASGIApp:
    """uvicorn factory for one serving worker process of ``serve``.

    Reads the settings from the file :data:`WORKER_ENV` names, the secrets from their variables, and
    builds the application with the writer's readiness marker. Before that it lowers
    this process's CPU priority by ``serving_niceness`` (Unix nice; the threads it starts
    later inherit it), so the index writer in the parent wins the CPU when both want it
    (CONTRACT X7 under load).
    """
    from .app import MarkerGate, build_app
    from .metrics import MULTIPROC_ENV, Metrics
    from .search.analysis import SERVING_CACHE_WORDS, limit_word_caches

    config = ProviderConfig.from_json(Path(os.environ[WORKER_ENV]).read_bytes())
    setup_logging(config.log_level, config.log_format)
    _stop_with_parent()
    if config.serving_niceness and hasattr(os, "nice"):
        try:
            os.nice(config.serving_niceness)
        except OSError as exc:
            log.warning("serving_niceness %d not applied (%s): the index writer shares the CPU equally with "
                        "searches", config.serving_niceness, exc)
    # Query words come from requests: memory bounded, not the writer's 200,000 words a cache.
    limit_word_caches(SERVING_CACHE_WORDS)
    metrics = Metrics() if os.environ.get(MULTIPROC_ENV) else None
    app, backend = build_app(
        config,
        registrations_from_env(),
        ready=MarkerGate(config.state_dir / "ready"),
        observer=metrics.observe_request if metrics else None,
    )
    # Open and warm each build CURRENT names as it appears (the first before this worker is
    # ready), while the writer's start-up sync runs, not during the first requests.
    backend.open_ahead()
    return app
