"""The few pieces of ASGI the contract application needs, without a web framework.

The contract has four fixed routes and answers nothing but JSON, so a framework adds
little — and the one used before (Litestar) imports PyYAML unconditionally, which the
contract layer must run without (issue 14). What a framework would have done is here:
reading a body within a size and time limit, and sending a JSON answer.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from typing import Any

import anyio

from .errors import InvalidRequest, PayloadTooLarge

__all__ = ["ASGIApp", "HTTPRequest", "Message", "Receive", "Scope", "Send", "encode_json", "send_json"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

JSON = b"application/json"


def _on_asyncio() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


class ClientGone(Exception):
    """The client disconnected before its request body was complete."""


class HTTPRequest:
    """An HTTP request as an ASGI scope and its ``receive`` channel.

    Args:
        scope: the ASGI ``http`` scope.
        receive: the ASGI receive callable.
    """

    def __init__(self, scope: Scope, receive: Receive) -> None:
        self.scope = scope
        self._receive = receive
        self.method = str(scope.get("method", "GET"))
        self.path = str(scope.get("path", "/"))
        self._headers: Sequence[tuple[bytes, bytes]] = scope.get("headers", ())
        self._by_name: dict[bytes, list[bytes]] | None = None

    def header_values(self, name: str) -> list[str]:
        """Every value of header ``name`` (lowercase), in order, decoded as Latin-1."""
        by_name = self._by_name
        if by_name is None:  # one pass over the headers, for every look-up of this request
            by_name = self._by_name = {}
            for key, value in self._headers:
                by_name.setdefault(key.lower(), []).append(value)
        return [value.decode("latin-1") for value in by_name.get(name.encode("latin-1"), ())]

    def header(self, name: str) -> str | None:
        """The first value of header ``name``, or ``None``."""
        values = self.header_values(name)
        return values[0] if values else None

    async def _read(self, max_bytes: int) -> bytes:
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await self._receive()
            if message["type"] == "http.disconnect":
                raise ClientGone()
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > max_bytes:
                raise PayloadTooLarge()
            chunks.append(chunk)
            if not message.get("more_body", False):
                return chunks[0] if len(chunks) == 1 and isinstance(chunks[0], bytes) else b"".join(chunks)

    async def body(self, *, max_bytes: int, timeout_s: float) -> bytes:
        """The whole body, at most ``max_bytes`` bytes, within ``timeout_s`` seconds.

        Raises:
            PayloadTooLarge: ``Content-Length`` or the bytes received exceed ``max_bytes``
                (nothing more is read).
            InvalidRequest: ``body`` — not complete within ``timeout_s``, or the client
                went away first.
        """
        declared = self.header("content-length")
        if declared is not None and declared.strip().isdigit() and int(declared) > max_bytes:
            raise PayloadTooLarge()
        try:
            # asyncio's own timeout under asyncio (uvicorn): anyio's cancel scope cost
            # more CPU than the rest of reading a small body.
            if _on_asyncio():
                async with asyncio.timeout(timeout_s):
                    return await self._read(max_bytes)
            with anyio.fail_after(timeout_s):
                return await self._read(max_bytes)
        except TimeoutError:
            raise InvalidRequest("body", f"not received within {timeout_s:g} s") from None
        except ClientGone:
            raise InvalidRequest("body", "the client disconnected before sending the whole body") from None


def encode_json(payload: object) -> bytes:
    """``payload`` as the compact UTF-8 JSON :func:`send_json` sends."""
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


async def send_json(
    send: Send, status: int, payload: object, headers: dict[str, str] | None = None, *, close: bool = False
) -> None:
    """Send ``payload`` as compact UTF-8 JSON with ``Cache-Control: no-store``.

    Args:
        send: the ASGI send callable.
        status: the HTTP status.
        payload: any JSON-serializable value, or ``bytes`` already encoded so
            (:func:`encode_json`), sent as they are.
        headers: extra headers (``Retry-After``…).
        close: add ``Connection: close``.
    """
    body = payload if isinstance(payload, bytes) else encode_json(payload)
    raw = [(b"content-type", JSON), (b"content-length", str(len(body)).encode()), (b"cache-control", b"no-store")]
    raw += [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in (headers or {}).items()]
    if close:
        raw.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body, "more_body": False})
