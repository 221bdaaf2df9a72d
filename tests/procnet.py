"""Which process holds which TCP sockets, read from Linux's ``/proc`` (stdlib only):
shared by the tests and the benchmarks (``bench/`` imports it; tests never import
``bench``)."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

__all__ = ["socket_inodes", "sockets_by_process", "tcp_sockets"]


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


def tcp_sockets(port: int, state: str = "01") -> set[str]:
    """Inodes of the TCP sockets on local ``port`` in ``state`` (``01`` established,
    ``0A`` listening), IPv4 and IPv6."""
    inodes: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if fields[3] == state and int(fields[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(fields[9])
    return inodes


def sockets_by_process(pids: Iterable[int], port: int, state: str = "01") -> Counter[int]:
    """How many TCP sockets on local ``port`` in ``state`` (``01`` established, ``0A``
    listening) each of ``pids`` holds open (a process holding none is not counted)."""
    owner: dict[str, int] = {}
    for pid in pids:
        owner.update(dict.fromkeys(socket_inodes(pid), pid))
    return Counter(owner[inode] for inode in tcp_sockets(port, state) if inode in owner)
