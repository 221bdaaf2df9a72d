"""ASGI wrappers that break one wire duty of an otherwise correct provider.

Each wraps the real ``create_app`` application, so everything but the one broken duty
behaves exactly as our provider does.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterable
from typing import Any

from helpthread_kit.app import ASGIApp, Message, Receive, Scope, Send
from helpthread_kit.signature import compute_signature, parse_signature_header

SIGNATURE = b"x-helpthread-signature"


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return None


def _with_header(scope: Scope, name: bytes, value: str | None) -> Scope:
    headers = [(k, v) for k, v in scope.get("headers", ()) if k != name]
    if value is not None:
        headers.append((name, value.encode("latin-1")))
    return {**scope, "headers": headers}


async def _read_body(receive: Receive) -> bytes:
    chunks = []
    while True:
        message = await receive()
        chunks.append(message.get("body", b""))
        if not message.get("more_body"):
            return b"".join(chunks)


def _replay(body: bytes) -> Receive:
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return receive


async def _answer(send: Send, status: int, payload: dict[str, Any]) -> None:
    body = json.dumps(payload).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


def _valid_for(scope: Scope, body: bytes, secrets: Iterable[str]) -> str | None:
    """The secret whose signature the request carries, if any (no clock, no replay)."""
    try:
        parsed = parse_signature_header(_header(scope, SIGNATURE))
    except Exception:
        return None
    for secret in secrets:
        if compute_signature(secret, parsed.timestamp_text, parsed.nonce, body) in parsed.v1:
            return secret
    return None


def rewrite_json_responses(app: ASGIApp, transform: Callable[[int, Any], Any]) -> ASGIApp:
    """Pass every JSON answer through ``transform(status, data) -> data``."""

    async def wrapper(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        start: Message = {}
        chunks: list[bytes] = []

        async def capture(message: Message) -> None:
            if message["type"] == "http.response.start":
                start.update(message)
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))
                if not message.get("more_body"):
                    body = b"".join(chunks)
                    with contextlib.suppress(ValueError):  # not JSON: passed on unchanged
                        body = json.dumps(transform(start["status"], json.loads(body))).encode()
                    headers = [(k, v) for k, v in start.get("headers", []) if k.lower() != b"content-length"]
                    headers.append((b"content-length", str(len(body)).encode()))
                    await send({**start, "headers": headers})
                    await send({"type": "http.response.body", "body": body})

        await app(scope, receive, capture)

    return wrapper


def add_score(status: int, data: Any) -> Any:
    """Give every result a ``score``, whatever the declared capabilities."""
    for result in data.get("results", []) if isinstance(data, dict) else []:
        result["score"] = 0.5
    return data


def drop_version_from_errors(status: int, data: Any) -> Any:
    """Error envelopes without ``contractVersion``."""
    if status >= 400 and isinstance(data, dict):
        data.pop("contractVersion", None)
    return data


def ignore_version_header(app: ASGIApp) -> ASGIApp:
    """Treat every request as ``X-Helpthread-Knowledge-Version: 1``."""

    async def wrapper(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            scope = _with_header(scope, b"x-helpthread-knowledge-version", "1")
        await app(scope, receive, send)

    return wrapper


def burn_every_nonce(app: ASGIApp) -> ASGIApp:
    """Record each nonce before anything is verified: a forged request burns it."""
    seen: set[str] = set()

    async def wrapper(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            try:
                nonce = parse_signature_header(_header(scope, SIGNATURE)).nonce
            except Exception:
                nonce = None
            if nonce is not None:
                if nonce in seen:
                    await _answer(send, 401, {"contractVersion": 1, "error": {
                        "code": "replayed_nonce", "message": "this nonce was already used"}})
                    return
                seen.add(nonce)
        await app(scope, receive, send)

    return wrapper


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [key for key, _ in pairs]
    if len(keys) != len(set(keys)):
        raise ValueError("duplicate key")
    return dict(pairs)


def reserialize_body(app: ASGIApp) -> ASGIApp:
    """Hand the app a re-serialization of the JSON body instead of the bytes received,
    so the signature is checked over the wrong bytes."""

    async def wrapper(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        body = await _read_body(receive)
        try:
            value = json.loads(body.decode("utf-8"), object_pairs_hook=_no_duplicates)
            body = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        except (ValueError, RecursionError, UnicodeError):
            pass
        scope = _with_header(scope, b"content-length", str(len(body)))
        await app(scope, _replay(body), send)

    return wrapper


def crash_on_invalid_json(app: ASGIApp, secrets: Iterable[str]) -> ASGIApp:
    """Answer 500 to an authenticated body Python's json module cannot parse."""
    keys = list(secrets)

    async def wrapper(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        body = await _read_body(receive)
        if scope["path"] == "/retrieve" and _valid_for(scope, body, keys):
            try:
                json.loads(body)
            except (ValueError, RecursionError):
                await _answer(send, 500, {"contractVersion": 1, "error": {
                    "code": "internal_error", "message": "internal error"}})
                return
        await app(scope, _replay(body), send)

    return wrapper


def honour_audience_field(app: ASGIApp, customer_secret: str, agent_secret: str) -> ASGIApp:
    """Serve a customer_safe request asking for ``"audience": "internal"`` as if the
    agent_only registration had signed it."""

    async def wrapper(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        body = await _read_body(receive)
        try:
            wants = json.loads(body).get("audience")
        except (ValueError, AttributeError, RecursionError):
            wants = None
        if ("internal" in wants if isinstance(wants, (str, list)) else False) and \
                _valid_for(scope, body, [customer_secret]):
            parsed = parse_signature_header(_header(scope, SIGNATURE))
            signature = compute_signature(agent_secret, parsed.timestamp_text, parsed.nonce, body)
            scope = _with_header(scope, SIGNATURE, f"t={parsed.timestamp_text}, n={parsed.nonce}, v1={signature}")
        await app(scope, _replay(body), send)

    return wrapper
