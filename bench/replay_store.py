"""Memory and speed of the in-memory replay store (issue 14): a burst of N nonces, each
signed and verified as a request would be, then the same N replayed.

    nice .venv/bin/python bench/replay_store.py [N ...]

Prints, per N: bytes held per live nonce (tracemalloc), verifications per second, and
whether every fresh nonce was accepted and every replay refused.
"""

from __future__ import annotations

import sys
import time
import tracemalloc

from helpthread_kit import Exposure, Registration, ReplayedNonce, Verifier
from helpthread_kit.replay import MemoryReplayStore
from helpthread_kit.testing import signature_header

SECRET = "bench-replay-secret-0123456789-abcdefghijkl"  # noqa: S105 - a benchmark's throwaway
BODY = b'{"query":"reset password","limit":3}'


def run(count: int) -> None:
    registration = Registration.from_values("cs", Exposure.CUSTOMER_SAFE, [SECRET])
    now = int(time.time())
    headers = [signature_header(BODY, SECRET, timestamp=now, nonce=f"burst-{i:09d}")[0] for i in range(count)]
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    store = MemoryReplayStore()
    verifier = Verifier([registration], store)
    started = time.perf_counter()
    for header in headers:
        verifier.verify(header, BODY)
    elapsed = time.perf_counter() - started
    held = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    refused = 0
    for header in headers[:: max(1, count // 1000)]:
        try:
            verifier.verify(header, BODY)
        except ReplayedNonce:
            refused += 1
    sampled = len(headers[:: max(1, count // 1000)])
    print(f"{count:>9,} nonces: {held / count:6.1f} bytes per live nonce ({held / 2**20:6.1f} MiB), "
          f"{count / elapsed:8,.0f} verifications/s, live {len(store):,}, "
          f"replays refused {refused}/{sampled}")


if __name__ == "__main__":
    for arg in sys.argv[1:] or ["250000", "1000000"]:
        run(int(arg))
