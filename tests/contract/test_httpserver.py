"""provider.contract.httpserver: every connection gets TCP_NODELAY, including on a
listening socket made the way uvicorn makes it for ``--workers N`` (``proto`` 0; uvicorn
issue #3149) — without it each keep-alive response waits ~40 ms for the client's delayed
ACK — and the uvicorn internals the protocol relies on are still there."""

from __future__ import annotations

import asyncio
import socket

from uvicorn.config import Config
from uvicorn.server import ServerState

from provider.contract.httpserver import PROTOCOL, HardenedH11Protocol


async def _app(scope: object, receive: object, send: object) -> None:  # never called
    raise AssertionError("no request is sent")


def _nodelay_of_accepted(protocol_class: type[asyncio.Protocol]) -> int:
    async def run() -> int:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)  # proto 0, as uvicorn binds it
        listener.bind(("127.0.0.1", 0))
        config = Config(app=_app, http=protocol_class)
        config.load()
        made: list[asyncio.Protocol] = []

        def factory() -> asyncio.Protocol:
            protocol = protocol_class(config=config, server_state=ServerState(), app_state={})  # type: ignore[call-arg]
            made.append(protocol)
            return protocol

        server = await asyncio.get_running_loop().create_server(factory, sock=listener)
        try:
            _, writer = await asyncio.open_connection(*listener.getsockname())
            for _ in range(100):
                if made and getattr(made[0], "transport", None) is not None:
                    break
                await asyncio.sleep(0.01)
            accepted = made[0].transport.get_extra_info("socket")  # type: ignore[attr-defined]
            value = int(accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            writer.close()
            made[0].transport.close()  # type: ignore[attr-defined]
            return value
        finally:
            server.close()

    return asyncio.run(run())


def test_connections_on_a_proto_zero_listener_get_tcp_nodelay() -> None:
    assert _nodelay_of_accepted(HardenedH11Protocol) != 0


def test_serve_uses_the_protocol_by_an_import_string_workers_can_load() -> None:
    config = Config(app=_app, http=PROTOCOL)
    config.load()
    assert config.http_protocol_class is HardenedH11Protocol


def test_the_old_import_path_still_works() -> None:
    from provider import httpserver

    assert httpserver.PROTOCOL == PROTOCOL and httpserver.NoDelayH11Protocol is HardenedH11Protocol


def test_the_uvicorn_internals_the_protocol_uses_are_unchanged() -> None:
    """HardenedH11Protocol relies on these parts of uvicorn's H11Protocol (see its module
    docstring; the version range is pinned in pyproject.toml). A uvicorn release that
    renames or moves one of them fails here, not silently in production: the limit on
    new connections would turn back into uvicorn's refusal of every request, or parse
    errors into plain text."""
    import inspect

    from uvicorn.protocols.http.h11_impl import H11Protocol

    init = inspect.getsource(H11Protocol.__init__)
    assert "self.limit_concurrency = config.limit_concurrency" in init
    assert "self.app = config.loaded_app" in init
    assert "self.connections = server_state.connections" in init
    events = inspect.getsource(H11Protocol.handle_events)
    assert "if self.limit_concurrency is not None" in events  # the check we switch off
    assert "app = self.app" in events  # read per request: our over-limit app takes effect
    assert "self.send_400_response(" in events
    assert "self.connections.add(self)" in inspect.getsource(H11Protocol.connection_made)
    assert "on_response=self.on_response_complete" in events
    for name in ("send_400_response", "on_response_complete", "connection_lost", "data_received"):
        assert callable(getattr(H11Protocol, name))


def test_the_pinned_uvicorn_range_holds_the_installed_version() -> None:
    """The range in pyproject.toml is the one the internals test above was run with."""
    import re
    from importlib.metadata import version

    from tests.support import REPO_ROOT

    pinned = re.search(r'"uvicorn>=([0-9.]+),<([0-9.]+)"', (REPO_ROOT / "pyproject.toml").read_text("utf-8"))
    assert pinned, "uvicorn must be pinned to a range in pyproject.toml"
    low, high = (tuple(int(p) for p in v.split(".")) for v in pinned.groups())
    installed = tuple(int(p) for p in version("uvicorn").split(".")[:2])
    assert low[:2] <= installed < high[:2]


class _Recording(asyncio.Transport):
    """A transport that keeps what is written to it (each ``write`` call separately)."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[bytes] = []
        self.closed = False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.writes.append(bytes(data))

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed

    def get_extra_info(self, name: str, default: object = None) -> object:
        return {"peername": ("127.0.0.1", 50000), "sockname": ("127.0.0.1", 8080)}.get(name, default)

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


def _answer_with(app: object, request: bytes, *, settle_s: float = 0.05,
                 transport: _Recording | None = None) -> list[bytes]:
    """The non-empty writes HardenedH11Protocol makes answering ``request`` with ``app``."""
    transport = transport or _Recording()

    async def run() -> list[bytes]:
        config = Config(app=app, http=HardenedH11Protocol)
        config.load()
        protocol = HardenedH11Protocol(config=config, server_state=ServerState(), app_state={})  # type: ignore[call-arg]
        protocol.connection_made(transport)
        protocol.data_received(request)
        await asyncio.sleep(settle_s)
        protocol.connection_lost(None)
        return [w for w in transport.writes if w]

    return asyncio.run(run())


_GET = b"GET /x HTTP/1.1\r\nHost: provider\r\n\r\n"


def test_a_response_head_and_its_body_leave_in_one_write() -> None:
    """One ``send`` per answer (py-spy: the socket's write was 24 % of a worker's busy
    samples under cached /retrieve, two per answer); the bytes are the same answer."""

    async def app(scope: dict, receive: object, send: object) -> None:  # type: ignore[type-arg]
        body = b'{"contractVersion":1,"results":[]}'
        await send({"type": "http.response.start", "status": 200,  # type: ignore[operator]
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})  # type: ignore[operator]

    writes = _answer_with(app, _GET)
    assert len(writes) == 1
    assert writes[0].startswith(b"HTTP/1.1 200 ") and writes[0].endswith(b'\r\n\r\n{"contractVersion":1,"results":[]}')


def test_a_head_whose_body_comes_later_is_not_held_back() -> None:
    """An application that waits between its head and its body (or streams) still gets
    the head out at once, and every chunk as it is sent."""
    seen: list[int] = []
    transport = _Recording()

    async def app(scope: dict, receive: object, send: object) -> None:  # type: ignore[type-arg]
        await send({"type": "http.response.start", "status": 200,  # type: ignore[operator]
                    "headers": [(b"content-type", b"text/plain")]})
        await asyncio.sleep(0.02)
        seen.append(len([w for w in transport.writes if w]))
        await send({"type": "http.response.body", "body": b"one", "more_body": True})  # type: ignore[operator]
        await asyncio.sleep(0.02)
        seen.append(len([w for w in transport.writes if w]))
        await send({"type": "http.response.body", "body": b"two"})  # type: ignore[operator]

    writes = _answer_with(app, _GET, settle_s=0.2, transport=transport)
    assert seen == [1, 2]  # the head alone while the body waits; then the first chunk
    assert writes[0].startswith(b"HTTP/1.1 200 ") and writes[0].endswith(b"\r\n\r\n")
    assert b"".join(writes).endswith(b"3\r\none\r\n3\r\ntwo\r\n0\r\n\r\n")


def test_a_held_head_is_written_before_the_connection_closes() -> None:
    """An application that fails after its head: uvicorn closes the connection, and the
    head it had written is not lost on the way."""

    async def app(scope: dict, receive: object, send: object) -> None:  # type: ignore[type-arg]
        await send({"type": "http.response.start", "status": 200, "headers": []})  # type: ignore[operator]
        raise RuntimeError("failed after the head")

    writes = _answer_with(app, _GET)
    assert writes and writes[0].startswith(b"HTTP/1.1 200 ")
