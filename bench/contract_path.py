"""The contract path in process, without HTTP (issue 15): prints figures, asserts nothing.

    python bench/contract_path.py INDEX                 # an index folder (knowledge-provider index)
    python bench/contract_path.py INDEX --profile       # and cProfile's view of cached /retrieve

Calls the wiki provider's ASGI application (``build_app``) directly — no socket, no
h11 — with pre-signed requests, one after the other on one event loop, and reads this
process's CPU time per request for: ``POST /retrieve`` repeating five queries (answered
from the answer cache once warm), ``GET /capabilities``, and a bare signed endpoint (the
same HMAC check and in-memory replay store, a fixed answer). Three rounds, the median
printed, and each route's CPU above the bare endpoint. Run it from another source tree
(``cd /tmp/before && python /path/to/bench/contract_path.py INDEX``) for before/after: the
tree in the current directory is the one measured.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import pstats
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, os.getcwd())
# bench/common.py of this tree, whichever tree the provider is imported from
sys.path.insert(1, str(Path(__file__).resolve().parent))

from common import signed_request

from helpthread_kit.registrations import Exposure, Registration
from helpthread_kit.replay import MemoryReplayStore
from helpthread_kit.signature import Verifier
from helpthread_kit.testing import signed_headers
from provider.app import build_app
from provider.config import load_config

SECRET = "contract-path-bench-secret-" + "x" * 32
TEXTS = ["reset password", "refund request", "billing invoice", "account settings", "delete account"]
Request = tuple[dict[str, Any], bytes]


def signed(path: str, bodies: list[bytes]) -> list[Request]:
    out = []
    for body in bodies:
        headers = signed_headers(body, SECRET, content_type="application/json" if body else None)
        raw = [(b"host", b"provider")] + [(k.lower().encode(), v.encode()) for k, v in headers.items()]
        raw.append((b"content-length", str(len(body)).encode()))
        # The whole http scope a server gives (Litestar reads more of it than a bare ASGI app).
        out.append(({"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "scheme": "http",
                     "method": "POST" if body else "GET", "path": path, "raw_path": path.encode(), "root_path": "",
                     "headers": raw, "query_string": b"", "server": ("127.0.0.1", 8080),
                     "client": ("127.0.0.1", 50000), "state": {}}, body))
    return out


async def run(app: Any, requests: list[Request]) -> list[int]:
    statuses: list[int] = []
    for scope, body in requests:
        async def receive(body: bytes = body) -> dict[str, Any]:
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                statuses.append(message["status"])

        await app(scope, receive, send)
    return statuses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("index", type=Path)
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    registrations = [Registration.from_values("bench", Exposure.CUSTOMER_SAFE, [SECRET])]
    config = load_config(None).with_overrides(index=args.index, content=args.index.parent / "wiki",
                                              log_level="warning")
    app, _ = build_app(config, registrations, replay_store=MemoryReplayStore())
    verifier = Verifier(registrations, MemoryReplayStore())

    async def bare(scope: dict[str, Any], receive: Any, send: Any) -> None:
        header, body = await signed_request(scope, receive)
        verifier.verify(header, body)
        answer = b'{"contractVersion":1,"results":[]}'
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(answer)).encode())]})
        await send({"type": "http.response.body", "body": answer})

    def bodies(n: int) -> list[bytes]:
        return [json.dumps({"query": TEXTS[i % len(TEXTS)]}).encode() for i in range(n)]

    async def measure() -> dict[str, list[float]]:
        await run(app, signed("/retrieve", bodies(len(TEXTS))))
        time.sleep(5)  # the spelling indexes are built in a thread once a build is opened
        rows: dict[str, list[float]] = {}
        for _ in range(3):
            for name, target, path, made in (("bare signed endpoint", bare, "/retrieve", bodies(args.requests)),
                                             ("/retrieve (cached)", app, "/retrieve", bodies(args.requests)),
                                             ("/capabilities", app, "/capabilities", [b""] * args.requests)):
                requests = signed(path, made)
                started = time.process_time()
                statuses = await run(target, requests)
                rows.setdefault(name, []).append((time.process_time() - started) / len(requests) * 1e6)
                if set(statuses) != {200}:
                    raise SystemExit(f"{name}: statuses {sorted(set(statuses))}")
        if args.profile:
            profile = cProfile.Profile()
            profile.enable()
            await run(app, signed("/retrieve", bodies(args.requests)))
            profile.disable()
            pstats.Stats(profile).sort_stats("tottime").print_stats(25)
        return rows

    rows = asyncio.run(measure())
    bare_cpu = statistics.median(rows["bare signed endpoint"])
    print(f"{os.getcwd()}: load average {os.getloadavg()[0]:.2f}")
    print("| route | CPU µs/request (3 rounds) | median | above the bare endpoint |")
    print("|---|---|---|---|")
    for name, values in rows.items():
        median = statistics.median(values)
        print(f"| {name} | {' '.join(f'{v:.0f}' for v in values)} | {median:.0f} | {median - bare_cpu:+.0f} |")


if __name__ == "__main__":
    main()
