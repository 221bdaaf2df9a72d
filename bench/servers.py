"""Which ASGI server (issue 25): the signed no-op as a Litestar route (bench/peers.py's
``litestar_noop_app``) under uvicorn with httptools (what ``serve()`` runs), uvicorn with
h11, and Granian, one worker each; prints figures, asserts nothing.

    python bench/servers.py [--requests 3000] [--rounds 3]

Each round sends ``--requests`` signed requests over 16 keep-alive connections to each
server in turn (bench/common.raw_load) and reads the CPU time of the process that
answers (Granian's worker is a child of its main process). Printed: CPU µs per request
and requests per second, the median of the rounds. Granian must be installed
(``pip install granian``) for its row.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent))
sys.path.insert(0, str(BENCH))

from common import Call, free_port, raw_load  # noqa: E402
from peers import SECRET  # noqa: E402

#: The module each server imports: the no-op with its own verifier.
APP_MODULE = f"""
import sys
sys.path[:0] = [{str(BENCH)!r}, {str(BENCH.parent)!r}]
import peers
from helpthread_kit.registrations import Exposure, Registration
from helpthread_kit.replay import MemoryReplayStore
from helpthread_kit.signature import Verifier
peers.NOOP_VERIFIER = Verifier([Registration.from_values("bench", Exposure.CUSTOMER_SAFE, [peers.SECRET])],
                               MemoryReplayStore())
app = peers.litestar_noop_app()
"""


def start(kind: str, folder: Path) -> tuple[str, subprocess.Popen[bytes]]:
    port = free_port()
    if kind == "granian":
        granian = shutil.which("granian") or str(Path(sys.executable).parent / "granian")
        command = [granian, "--interface", "asgi", "--host", "127.0.0.1", "--port", str(port), "--workers", "1",
                   "--no-ws", "--log-level", "warning", "noop_app:app"]
    else:
        http = kind.split("+")[1]
        command = [sys.executable, "-c", f"import uvicorn, noop_app; uvicorn.run(noop_app.app, port={port}, "
                   f"http={http!r}, log_level='warning', access_log=False, server_header=False)"]
    proc = subprocess.Popen(command, cwd=folder, env={**os.environ, "PYTHONPATH": str(folder)},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            httpx.get(base + "/", timeout=1)
            return base, proc
        except httpx.TransportError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError(f"{kind} did not start")


def answering_pid(proc: subprocess.Popen[bytes]) -> int:
    children = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout.split()
    return int(children[0]) if children else proc.pid


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    kinds = ["uvicorn+httptools", "uvicorn+h11"]
    if shutil.which("granian") or (Path(sys.executable).parent / "granian").exists():
        kinds.append("granian")
    calls: list[Call] = [("POST", "/retrieve", json.dumps({"query": f"q {i % 20}"}).encode())
                         for i in range(args.requests)]
    rows: dict[str, list[tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory(prefix="kp-servers-") as tmp:
        folder = Path(tmp)
        (folder / "noop_app.py").write_text(APP_MODULE, "utf-8")
        servers = {kind: start(kind, folder) for kind in kinds}
        try:
            for base, _ in servers.values():
                asyncio.run(raw_load(base, calls[:200], 16, SECRET))
            for round_ in range(args.rounds):
                for kind, (base, proc) in servers.items():
                    pid = answering_pid(proc)
                    before = cpu_s(pid)
                    seconds, latencies, errors = asyncio.run(raw_load(base, calls, 16, SECRET))
                    if errors:
                        print(f"  {kind}: {errors} errors", flush=True)
                    rows.setdefault(kind, []).append(((cpu_s(pid) - before) / len(latencies) * 1e6,
                                                      len(latencies) / seconds))
                print(f"  round {round_ + 1} done, load average {os.getloadavg()[0]:.2f}", flush=True)
        finally:
            for _, proc in servers.values():
                proc.terminate()
                proc.wait(10)
    print("\n| server (Litestar signed no-op, 1 worker) | CPU µs/request (rounds) | median | req/s |")
    print("|---|---|---|---|")
    for kind, values in rows.items():
        print(f"| {kind} | {' '.join(f'{c:.0f}' for c, _ in values)} | {statistics.median(c for c, _ in values):.0f} "
              f"| {statistics.median(r for _, r in values):.0f} |")


if __name__ == "__main__":
    main()
