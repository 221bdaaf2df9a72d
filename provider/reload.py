"""Configuration changes while serving: the file is read again when it changes or on
``SIGHUP``, and what can change safely is applied without a restart.

Each setting says whether it is applied while serving (``setting(reload=True)`` in
:mod:`provider.config`; the table is in docs/reference/configuration.md). Those are the
settings that change how the index writer reads and classifies the wiki — every one that
can make a page less public among them (audience rules, skips, the audience key and its
values, ``withhold_noindex``, the sitemap, the layout and locale patterns, accepted
findings). A change of them gives the writer a new
:class:`~provider.indexing.Indexer` with the new settings, then a full scan: when the
settings change how files are classified, that scan builds the index afresh aside and
swaps it in, the old build serving meanwhile (as after a restart with changed settings).
Before that, and before the line saying the change is applied, a quick pass
(:mod:`provider.indexing.stricter`: the pages' headers and the corpus rules, no body
parsed) takes out of the old build's public index every page the new settings may make
less public, so no ``customer_safe`` request finds one from that line on (CONTRACT X2,
X7); a page made more public waits for the swap. The serving workers pick up the new build as after any rebuild.

Everything else (ports, workers, TLS, capabilities, limits, caches, logging…) is read
by processes that are already running; a change of it is logged once, as one line
naming the keys, and waits for a restart — the running values stay in force. A file
that no longer parses is logged and changes nothing. A setting given as a command-line
option keeps the option's value (options override the file).
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import msgspec

from helpthread_kit.registrations import ConfigurationError

from .config import SETTINGS, ProviderConfig, load_config

__all__ = ["CONFIG_CHECK_S", "SETTLE_S", "ConfigFollower", "Reload", "compare"]

log = logging.getLogger("provider")

#: Seconds between looks at the configuration file (a ``stat``).
CONFIG_CHECK_S = 1.0
#: A changed file is read once it has not changed for this many seconds.
SETTLE_S = 0.3


@dataclass(frozen=True)
class Reload:
    """What reading the configuration file again found.

    Attributes:
        config: the settings in force now: the running ones with the applied keys'
            new values.
        applied: keys (as written in the file) whose new values are now in force.
        restart: keys whose new values wait for a restart.
    """

    config: ProviderConfig
    applied: tuple[str, ...]
    restart: tuple[str, ...]


def compare(running: ProviderConfig, read: ProviderConfig) -> Reload:
    """Split the differences between the ``running`` settings and those ``read`` from
    the file into the keys applied while serving and those that need a restart. A key
    set by a command-line option (``running.overridden``) keeps its running value."""
    applied, restart, values = [], [], {}
    for key, item in SETTINGS.items():
        new = getattr(read, item.attr)
        if item.attr in running.overridden or new == getattr(running, item.attr):
            continue
        if item.reloadable:
            applied.append(key)
            values[item.attr] = new
        else:
            restart.append(key)
    config = msgspec.structs.replace(running, **values) if values else running
    return Reload(config, tuple(applied), tuple(restart))


def _stamp(path: Path) -> tuple[int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_ino, st.st_mtime_ns, st.st_size


class ConfigFollower:
    """Reads the configuration file again when it changes (checked every
    :data:`CONFIG_CHECK_S`) or when :meth:`request` is called (``SIGHUP``), in a thread
    of its own.

    Args:
        config: the running settings (``config.source`` is the file followed).
        apply: called with each :class:`Reload` that applied keys; it makes the new
            settings take effect (the writer's new indexer) and must not raise.
        check_s: seconds between looks at the file.
        prepare: called with such a :class:`Reload` before the line saying it is
            applied, and before ``apply``: the quick part — what makes anything less
            public takes effect there (the early withdrawal, CONTRACT X7), so no
            ``customer_safe`` answer given after that line holds a page the new settings
            withhold. Must not raise.
    """

    def __init__(self, config: ProviderConfig, apply: Callable[[Reload], None], *,
                 check_s: float = CONFIG_CHECK_S, prepare: Callable[[Reload], None] | None = None) -> None:
        self.config = config
        self.apply = apply
        self.prepare = prepare
        self.check_s = check_s
        self._asked = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._stamp = _stamp(config.source) if config.source is not None else None
        #: the restart-only keys already reported for the file as it is (one line per change)
        self._reported: tuple[str, ...] = ()

    def request(self) -> None:
        """Read the file again now (what ``SIGHUP`` does). Safe from a signal handler."""
        self._asked.set()

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="config-follower", daemon=True)
        self._thread.start()

    def stop(self, timeout_s: float = 5.0) -> None:
        self._stop.set()
        self._asked.set()
        if self._thread is not None:
            self._thread.join(timeout_s)

    def _run(self) -> None:
        while not self._stop.is_set():
            asked = self._asked.wait(self.check_s)
            if self._stop.is_set():
                return
            self._asked.clear()
            source = self.config.source
            stamp = _stamp(source) if source is not None else None
            if asked or stamp != self._stamp:
                # An editor may still be writing: read the file once it stopped changing,
                # never a half-written one (rules missing from it would apply, for a while).
                while source is not None and not self._stop.wait(SETTLE_S):
                    settled = _stamp(source)
                    if settled == stamp:
                        break
                    stamp = settled
                self._stamp = stamp
                try:
                    self.reload("SIGHUP" if asked else "the file changed")
                except Exception:  # never expected: the thread must outlive a bug in one reload
                    log.exception("reading the configuration again failed; the running settings stay")

    def reload(self, reason: str) -> Reload | None:
        """Read the file now and apply what can be applied; log what waits for a
        restart. Returns what was found (``None``: no file, or it is not valid)."""
        source = self.config.source
        if source is None:
            log.warning("%s: no configuration file was given at start, so there is nothing to read again", reason)
            return None
        try:
            read = load_config(source)
        except ConfigurationError as exc:
            log.error("configuration not reloaded (%s): %s; the running settings stay", reason, exc)
            return None
        found = compare(self.config, read)
        if found.restart and (found.restart != self._reported or reason == "SIGHUP"):
            log.warning("configuration %s changed (%s): %s %s read at start only; restart the provider to "
                        "apply (the running values stay)", source, reason, ", ".join(found.restart),
                        "is" if len(found.restart) == 1 else "are")
        self._reported = found.restart
        if found.applied:
            self.config = found.config
            if self.prepare is not None:
                self.prepare(found)
            log.info("configuration %s changed (%s): applying %s while serving", source, reason,
                     ", ".join(found.applied))
            self.apply(found)
        elif not found.restart and reason == "SIGHUP":
            log.info("configuration %s read again (SIGHUP): nothing changed", source)
        return found
