"""Requests malformed at the HTTP level, sent byte for byte over a socket to a real
server: every answer still carries the envelope (CONTRACT W4), and ambiguous framing is
refused and the connection closed, so nothing can be smuggled behind a proxy."""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from provider.contract.testing import signed_headers
from tests.conftest import CUSTOMER_SECRET, start_provider
from tests.support import ProviderProcess


def exchange(server: ProviderProcess, raw: bytes, read_s: float = 3.0) -> bytes:
    """Send ``raw`` and read until the server closes the connection (or ``read_s``)."""
    parts = urlsplit(server.base_url)
    with socket.create_connection((parts.hostname, parts.port), timeout=read_s) as sock:
        sock.sendall(raw)
        chunks = []
        try:
            while chunk := sock.recv(65536):
                chunks.append(chunk)
        except TimeoutError:
            pass
    return b"".join(chunks)


def responses(data: bytes) -> list[tuple[int, dict[str, str], bytes]]:
    """Split ``data`` into (status, headers, body) answers (Content-Length framed)."""
    found = []
    while data.startswith(b"HTTP/1.1 "):
        head, _, rest = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
        length = int(headers.get("content-length", "0"))
        found.append((int(lines[0].split()[1]), headers, rest[:length]))
        data = rest[length:]
    return found


def envelope_code(body: bytes) -> str:
    document = json.loads(body)
    assert document["contractVersion"] == 1
    return str(document["error"]["code"])


def signed_request(body: bytes, *extra: str) -> bytes:
    headers = signed_headers(body, CUSTOMER_SECRET)
    lines = ["POST /retrieve HTTP/1.1", "Host: provider", *(f"{k}: {v}" for k, v in headers.items()), *extra]
    return ("\r\n".join(lines) + "\r\n").encode()


def test_content_length_with_transfer_encoding_is_refused_and_the_connection_closed(
    sample_server: ProviderProcess,
) -> None:
    smuggled = b"GET /healthz HTTP/1.1\r\nHost: provider\r\n\r\n"
    chunk = b'{"query":"reset password"}'
    raw = (
        signed_request(b"", f"Content-Length: {4 + len(chunk)}", "Transfer-Encoding: chunked")
        + b"\r\n" + f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n0\r\n\r\n" + smuggled
    )
    answers = responses(exchange(sample_server, raw))
    assert len(answers) == 1, "the smuggled request behind the body must not be answered"
    status, headers, body = answers[0]
    assert status == 400 and envelope_code(body) == "invalid_request"
    assert headers.get("connection") == "close"


@pytest.mark.parametrize(
    "raw",
    [
        b"POST /retrieve HTTP/1.1\r\nHost: p\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",  # bad chunk size
        b"POST /retrieve HTTP/1.1\r\nHost: p\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\nhello",
        b"POST /retrieve HTTP/1.1\r\nHost: p\r\nContent-Length: -1\r\n\r\n",
        b"GET /healthz HTTP/1.1\r\nHost: p\r\nX-Bad: a\x00b\r\n\r\n",
        b"GET /healthz HTTP/1.1\r\nBad Name: x\r\nHost: p\r\n\r\n",
        b"GET /healthz HTTP/1.1\r\n\r\n",  # no Host
        b"FOO@BAR /healthz HTTP/1.1\r\nHost: p\r\n\r\n",
    ],
)
def test_w4_unparseable_http_gets_the_envelope(sample_server: ProviderProcess, raw: bytes) -> None:
    answers = responses(exchange(sample_server, raw))
    assert len(answers) == 1
    status, headers, body = answers[0]
    assert status == 400 and envelope_code(body) == "invalid_request"
    assert headers["content-type"].startswith("application/json")


@pytest.mark.parametrize("repeated", ["X-Helpthread-Knowledge-Version: 2", "Content-Type: text/plain"])
def test_w2_w3_a_repeated_version_or_media_type_header_is_refused(
    sample_server: ProviderProcess, repeated: str
) -> None:
    """A proxy and the provider could each read a different one of the two."""
    body = b'{"query":"reset password"}'
    raw = signed_request(body, repeated, f"Content-Length: {len(body)}") + b"\r\n" + body
    [(status, _, answer)] = responses(exchange(sample_server, raw + b""))
    assert status == 400 and envelope_code(answer) == "invalid_request"


def test_an_encoded_body_is_refused(sample_server: ProviderProcess) -> None:
    body = b'{"query":"reset password"}'
    raw = signed_request(body, "Content-Encoding: gzip", f"Content-Length: {len(body)}") + b"\r\n" + body
    [(status, _, answer)] = responses(exchange(sample_server, raw))
    assert status == 415 and envelope_code(answer) == "unsupported_media_type"


def _connect(server: ProviderProcess, timeout: float = 20) -> socket.socket:
    parts = urlsplit(server.base_url)
    return socket.create_connection((parts.hostname, parts.port), timeout=timeout)


def _ask(sock: socket.socket, raw: bytes) -> tuple[int, dict[str, str], bytes]:
    """One request on an open keep-alive connection; its answer."""
    sock.sendall(raw)
    data = b""
    while True:
        found = responses(data)
        if found and len(found[0][2]) == int(found[0][1].get("content-length", "0")):
            return found[0]
        chunk = sock.recv(65536)
        if not chunk:
            raise AssertionError(f"connection closed after {data!r}")
        data += chunk


def test_w7_stalled_request_heads_are_cut_and_the_limit_answers_with_the_envelope(tmp_path: Path) -> None:
    """A slowloris: connections that never finish their request head used to hold every
    slot of max_connections for ever, and uvicorn's 503 was plain text. Beyond the limit
    a new connection's /retrieve gets the envelope with Retry-After; the stalled ones
    are cut after HEAD_TIMEOUT_S and the slots come back."""
    server = start_provider(tmp_path, config={"max_connections": 8})
    stalled = []
    try:
        for _ in range(8):
            sock = _connect(server)
            sock.sendall(b"POST /retrieve HTTP/1.1\r\nHost: x\r\n")  # and nothing more
            stalled.append(sock)
        time.sleep(0.5)
        body = b'{"query":"reset password"}'
        raw = signed_request(body, f"Content-Length: {len(body)}") + b"\r\n" + body
        [(status, headers, answer)] = responses(exchange(server, raw))
        assert status == 503 and envelope_code(answer) == "overloaded" and int(headers["retry-after"]) >= 1
        assert headers.get("connection") == "close"
        for sock in stalled:  # closed by the provider once HEAD_TIMEOUT_S has passed
            assert sock.recv(1024) == b""
        [(status, _, _)] = responses(exchange(server, raw.replace(b"n=", b"n=x")))  # a slot again: not 503
        assert status != 503
    finally:
        for sock in stalled:
            sock.close()
        server.stop()


def test_w7_beyond_max_connections_open_connections_and_healthz_still_answer(tmp_path: Path) -> None:
    """Issue 14: with 600 idle connections open — far beyond max_connections — a
    connection opened before them still gets its answers, a new connection's GET /healthz
    is answered 200 (liveness must not fail because the provider is busy), and only a
    new connection's other requests are refused 503 overloaded with Retry-After."""
    server = start_provider(tmp_path, config={"max_connections": 50})
    idle: list[socket.socket] = []
    early = _connect(server)
    try:
        healthz = b"GET /healthz HTTP/1.1\r\nHost: p\r\n\r\n"
        assert _ask(early, healthz)[0] == 200
        for _ in range(600):
            idle.append(_connect(server))
        time.sleep(0.5)  # let the provider accept them all
        body = b'{"query":"reset password"}'
        for _ in range(3):  # the connection opened before the crowd keeps being served
            raw = signed_request(body, f"Content-Length: {len(body)}") + b"\r\n" + body
            status, headers, answer = _ask(early, raw)
            assert status == 200, answer
            assert headers.get("connection") != "close"
        [(status, headers, answer)] = responses(exchange(server, healthz))
        assert status == 200 and json.loads(answer)["status"] == "ok"
        assert headers.get("connection") == "close"
        raw = signed_request(body, f"Content-Length: {len(body)}") + b"\r\n" + body
        [(status, headers, answer)] = responses(exchange(server, raw))
        assert status == 503 and envelope_code(answer) == "overloaded" and int(headers["retry-after"]) >= 1
    finally:
        early.close()
        for sock in idle:
            sock.close()
        server.stop()
