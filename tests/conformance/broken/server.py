"""Serve an ASGI app with a real uvicorn server on a free port, in a background thread."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn

from helpthread_kit.app import ASGIApp
from helpthread_kit.serving import uvicorn_options


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def serving(app: ASGIApp, *, startup_timeout_s: float = 10.0, hardened: bool = True) -> Iterator[str]:
    """Run ``app`` on 127.0.0.1 until the block ends; yields its base URL. ``hardened``:
    with the settings serve() gives uvicorn; else a bare uvicorn, as ``uvicorn.run(app)`` gives."""
    port = _free_port()
    settings: dict[str, object] = {**uvicorn_options(), "lifespan": "off"} if hardened else \
        {"log_config": None, "access_log": False, "lifespan": "off"}
    config = uvicorn.Config(app, host="127.0.0.1", port=port, **settings)  # type: ignore[arg-type]
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name=f"uvicorn-{port}", daemon=True)
    thread.start()
    deadline = time.monotonic() + startup_timeout_s
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError(f"uvicorn did not start on port {port}")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
