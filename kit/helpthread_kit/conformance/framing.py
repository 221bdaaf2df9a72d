"""HTTP framing checks, sent byte for byte over a socket (CONTRACT W4; issue 14).

A provider served by a bare ASGI server answers a request it cannot frame — two
``Content-Length`` values, ``Content-Length`` with ``Transfer-Encoding``, a bad chunk
size, a NUL in a header — with the server's own plain-text ``400``, and a request that
is ambiguous about where its body ends may let a second request be smuggled behind it
by a proxy. Two checks:

* nothing behind an ambiguous body is answered and every such request is refused
  ``4xx`` — wherever the provider runs (a parser that accepts them is a hole);
* every refusal carries the contract's envelope (W4). Such requests never reach the
  application: the envelope is the **deployment's** duty — the reverse proxy in front
  answers them (``docs/explanation/litestar.md``). Checked by default; a run with
  ``application_only`` (the ``--application-only`` switch of ``conformance``, for an
  application served without its proxy, as in a test) skips it and says so.

These checks need a real connection: against an in-process app (the test kit) they are
skipped.
"""

from __future__ import annotations

import json
import socket
import ssl

from .expect import Tally
from .model import CheckGroup, Skipped
from .session import Session
from .target import RawTarget

__all__ = ["RawTarget", "checks"]

checks = CheckGroup()

#: Seconds to wait for an answer (and for the connection to close) per raw request.
READ_S = 5.0


def _exchange(target: RawTarget, raw: bytes) -> bytes:
    with socket.create_connection((target.host, target.port), timeout=READ_S) as plain:
        sock = target.tls.wrap_socket(plain, server_hostname=target.host) if target.tls else plain
        with sock:  # the TLS socket too: closed however the exchange ends
            sock.sendall(raw)
            chunks = []
            try:
                while chunk := sock.recv(65536):
                    chunks.append(chunk)
            except (TimeoutError, ConnectionError, ssl.SSLError):
                pass
    return b"".join(chunks)


def _answers(data: bytes) -> list[tuple[int, bytes]]:
    """``(status, body)`` of each Content-Length framed answer in ``data``."""
    found = []
    while data.startswith(b"HTTP/1."):
        head, _, rest = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
        length = int(headers.get("content-length", "0") or 0)
        try:
            status = int(lines[0].split()[1])
        except (IndexError, ValueError):
            break
        found.append((status, rest[:length]))
        data = rest[length:]
    return found


def _is_envelope(body: bytes) -> bool:
    try:
        data = json.loads(body)
    except ValueError:
        return False
    return isinstance(data, dict) and data.get("contractVersion") == 1 and isinstance(data.get("error"), dict)


def _cases(target: RawTarget) -> dict[str, bytes]:
    path = target.base_path.rstrip("/") + "/retrieve"
    host = f"Host: {target.host}\r\n".encode()
    smuggled = f"GET {target.base_path.rstrip('/')}/healthz HTTP/1.1\r\n".encode() + host + b"\r\n"
    return {
        "two different Content-Length values": f"POST {path} HTTP/1.1\r\n".encode() + host
        + b"Content-Length: 5\r\nContent-Length: 7\r\n\r\nhello",
        "a bad chunk size": f"POST {path} HTTP/1.1\r\n".encode() + host
        + b"Transfer-Encoding: chunked\r\n\r\nzz\r\n",
        "a NUL byte in a header": f"POST {path} HTTP/1.1\r\n".encode() + host
        + b"X-Bad: a\x00b\r\nContent-Length: 0\r\n\r\n",
        "Content-Length and Transfer-Encoding both, a request behind": f"POST {path} HTTP/1.1\r\n".encode() + host
        + b"Content-Length: 30\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n" + smuggled,
    }


def _each_answer(s: Session, tally: Tally) -> list[tuple[str, list[tuple[int, bytes]]]]:
    target = s.raw_target
    if target is None:
        raise Skipped("needs a real connection; run the checker against the provider's URL")
    found = []
    for label, raw in _cases(target).items():
        tally.tried += 1
        try:
            answers = _answers(_exchange(target, raw))
        except OSError as exc:
            tally.miss(f"{label}: no answer ({type(exc).__name__})")
            continue
        if not answers:
            tally.miss(f"{label}: no HTTP answer")
            continue
        found.append((label, answers))
    return found


@checks.register("W4", "malformed HTTP framing is refused, nothing smuggled")
def framing(s: Session) -> str:
    """Requests an HTTP parser must refuse are answered ``4xx``, and a request smuggled
    behind an ambiguous body (``Content-Length`` and ``Transfer-Encoding`` both) is never
    answered — by the application's server or the proxy in front, whichever parses."""
    tally = Tally()
    for label, answers in _each_answer(s, tally):
        status, body = answers[0]
        if not 400 <= status < 500:
            tally.miss(f"{label}: answered {status} {body[:60]!r}, expected a 4xx refusal")
        if len(answers) > 1:
            tally.miss(f"{label}: {len(answers)} answers — a request behind the body was answered (smuggling)")
    return tally.verdict("all 4 malformed requests refused 4xx, nothing smuggled")


@checks.register("W4", "malformed HTTP framing is answered with the envelope (deployment: the proxy)")
def framing_envelope(s: Session) -> str:
    """W4 for requests that never reach the application: every refusal of malformed HTTP
    carries the contract's envelope. The deployment's duty (module docstring)."""
    if s.application_only:
        raise Skipped("application only: requests the HTTP parser refuses never reach the application; their "
                      "envelope is the reverse proxy's duty — check the deployment's URL without --application-only")
    tally = Tally()
    for label, answers in _each_answer(s, tally):
        status, body = answers[0]
        if not _is_envelope(body):
            tally.miss(f"{label}: answered {status} {body[:60]!r}, expected a 4xx error envelope (put the "
                       "reverse proxy of docs/explanation/litestar.md in front; to check the application "
                       "alone, pass --application-only)")
    return tally.verdict("all 4 malformed requests answered with a 4xx envelope")
