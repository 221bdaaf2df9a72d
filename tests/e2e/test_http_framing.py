"""Requests malformed at the HTTP level, sent byte for byte over a socket to a real
server (stock uvicorn, as ``serve`` runs it): ambiguous framing is refused and the
connection closed, so nothing can be smuggled behind a proxy; what reaches the
application (repeated headers, encoded bodies) gets the envelope (CONTRACT W4).

The envelope on requests uvicorn's parser refuses before the application runs, and a
deadline on slow request heads, are the reverse proxy's duties since issue 25:
tests/e2e/test_reverse_proxy.py checks them through the proxy."""

from __future__ import annotations

import json
import socket
from urllib.parse import urlsplit

import pytest

from helpthread_kit.testing import signed_headers
from tests.conftest import CUSTOMER_SECRET
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
    status, headers, _ = answers[0]
    assert status == 400  # by uvicorn's parser, before the application: no envelope (the proxy's duty)
    assert headers.get("connection") == "close"


@pytest.mark.parametrize(
    "raw",
    [
        b"POST /retrieve HTTP/1.1\r\nHost: p\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",  # bad chunk size
        b"POST /retrieve HTTP/1.1\r\nHost: p\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\nhello",
        b"POST /retrieve HTTP/1.1\r\nHost: p\r\nContent-Length: -1\r\n\r\n",
        b"GET /healthz HTTP/1.1\r\nHost: p\r\nX-Bad: a\x00b\r\n\r\n",
        b"GET /healthz HTTP/1.1\r\nBad Name: x\r\nHost: p\r\n\r\n",
        b"FOO@BAR /healthz HTTP/1.1\r\nHost: p\r\n\r\n",
        # Two identical Content-Length values: refused too (issue 25 found them accepted).
        b"POST /retrieve HTTP/1.1\r\nHost: p\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello",
    ],
)
def test_unparseable_http_is_refused_and_the_connection_closed(sample_server: ProviderProcess, raw: bytes) -> None:
    """Refused by the server's parser, one answer, the connection closed (the envelope
    on these is the reverse proxy's, test_reverse_proxy.py)."""
    answers = responses(exchange(sample_server, raw))
    assert len(answers) == 1
    status, headers, _ = answers[0]
    assert status == 400
    assert headers.get("connection") == "close"


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


@pytest.mark.parametrize("trailers", [(), ("X-Helpthread-Signature",),
                                      ("X-Helpthread-Signature", "X-Helpthread-Request")])
def test_a1_a2_a_signature_sent_only_as_a_chunked_trailer_is_not_accepted(
    sample_server: ProviderProcess, trailers: tuple[str, ...]
) -> None:
    """A1, A2: the signature is read from the request head only. uvicorn's httptools
    protocol adds a chunked body's trailer fields to the scope's header list, where the
    application cannot tell them from the head's (measured: a signature sent only as a
    trailer was answered 200). So a chunked body is refused — ``411`` with the envelope,
    the connection closed — whether its signature is in the head or only in trailers."""
    body = b'{"query":"refund"}'
    headers = signed_headers(body, CUSTOMER_SECRET)
    head = [f"{k}: {v}" for k, v in headers.items() if k not in trailers]
    tail = "".join(f"{k}: {headers[k]}\r\n" for k in trailers)
    declared = ["Trailer: " + ", ".join(trailers)] if trailers else []
    raw = ("\r\n".join(["POST /retrieve HTTP/1.1", "Host: provider", *head, "Transfer-Encoding: chunked",
                        *declared]) + "\r\n\r\n").encode()
    raw += f"{len(body):x}\r\n".encode() + body + b"\r\n0\r\n" + tail.encode() + b"\r\n"
    answers = responses(exchange(sample_server, raw, read_s=2.0))
    assert [status for status, _, _ in answers] == [411], answers
    _, answer_headers, answer = answers[0]
    assert envelope_code(answer) == "invalid_request"
    assert answer_headers.get("connection") == "close"
    # The same request with Content-Length is answered.
    framed = signed_request(body, f"Content-Length: {len(body)}") + b"\r\n" + body
    [(status, _, answer)] = responses(exchange(sample_server, framed, read_s=2.0))[:1]
    assert status == 200, (status, answer)
