"""provider.httpserver: every connection gets TCP_NODELAY, including on a listening socket
made the way uvicorn makes it for ``--workers N`` (``proto`` 0; uvicorn issue #3149).
Without it each keep-alive response waits ~40 ms for the client's delayed ACK."""

from __future__ import annotations

import asyncio
import socket

from uvicorn.config import Config
from uvicorn.server import ServerState

from provider.httpserver import PROTOCOL, NoDelayH11Protocol


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
    assert _nodelay_of_accepted(NoDelayH11Protocol) != 0


def test_serve_uses_the_protocol_by_an_import_string_workers_can_load() -> None:
    config = Config(app=_app, http=PROTOCOL)
    config.load()
    assert config.http_protocol_class is NoDelayH11Protocol


def test_uvicorn_still_picks_its_503_application_by_the_name_we_replace() -> None:
    """The limit_concurrency answer is looked up as h11_impl.service_unavailable: if a
    uvicorn release renames it, the plain-text 503 would come back silently."""
    import inspect

    from uvicorn.protocols.http import h11_impl

    from provider import httpserver

    assert h11_impl.service_unavailable is httpserver._over_connection_limit  # type: ignore[attr-defined]
    assert "app = service_unavailable" in inspect.getsource(h11_impl.H11Protocol.handle_events)
