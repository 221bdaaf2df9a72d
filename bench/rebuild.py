"""`serve --rebuild` benchmark: prints figures, asserts nothing.

    python bench/rebuild.py                 # 1,000 synthetic documents
    python bench/rebuild.py --docs 3000

On a synthetic wiki (see bench/reindex.py) with a current build, starts a real
`serve --rebuild` process and, while one customer_safe client queries without pause:

  * seconds until /readyz answers 200 (the current build serves at once);
  * seconds until the new build is swapped in (``CURRENT`` changes);
  * answers during the rebuild, by HTTP status (no 503 expected), and their latency
    (median, p95) during and after the rebuild;
  * save-to-effect latency of a public → internal edit made during the rebuild, and
    whether it took effect before the swap.
"""

from __future__ import annotations

import argparse
import json
import shutil
import signal
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common import launch_server, percentile, wait_ready  # noqa: E402
from reindex import SECRET, generate  # noqa: E402

from helpthread_kit.testing import signed_headers  # noqa: E402
from provider.indexing import Indexer  # noqa: E402
from provider.search.layout import IndexLayout  # noqa: E402
from provider.wiki.document import WikiSettings  # noqa: E402

#: A public article of the generated wiki (every fifth is internal) and a query finding it.
ARTICLE = "section-01/article-00001.md"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--docs", type=int, default=1000)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-rebuild-"))
    try:
        run(work, args.docs)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run(work: Path, docs: int) -> None:
    content, index = work / "content", work / "index"
    generate(content, docs)
    started = time.monotonic()
    with Indexer(WikiSettings(root=content), IndexLayout(index)) as indexer:
        indexer.sync()
    print(f"{docs} documents; first build in process: {time.monotonic() - started:.1f} s")
    first = IndexLayout(index).current_name()
    launched = time.monotonic()
    base, proc = launch_server({"content": str(content), "index": str(index)}, work, SECRET, options=["--rebuild"])
    answers: list[tuple[float, int, float, bool]] = []  # (sent, status, seconds, article found)
    stop = threading.Event()

    def customer(client: httpx.Client) -> None:
        body = json.dumps({"query": "article 1", "limit": 50}).encode()
        while not stop.is_set():
            sent = time.monotonic()
            try:
                reply = client.post(f"{base}/retrieve", content=body, headers=signed_headers(body, SECRET))
            except httpx.TransportError:
                continue
            found = reply.status_code == 200 and any(r["documentId"] == ARTICLE[:-3] for r in reply.json()["results"])
            answers.append((sent, reply.status_code, time.monotonic() - sent, found))

    try:
        wait_ready(base, proc, timeout_s=3600, every_s=0.05)
        ready_s = time.monotonic() - launched
        with httpx.Client(timeout=15) as client:
            thread = threading.Thread(target=customer, args=(client,))
            thread.start()
            time.sleep(1.0)
            path = content / ARTICLE
            saved = time.monotonic()
            path.write_text(path.read_text("utf-8").replace("audience: public", "audience: internal"), "utf-8")
            effect = None
            swapped = None
            while swapped is None or (effect is None and time.monotonic() - saved < 60):
                if effect is None and answers and answers[-1][0] > saved and not answers[-1][3]:
                    effect = time.monotonic()
                if swapped is None and IndexLayout(index).current_name() != first:
                    swapped = time.monotonic()
                time.sleep(0.02)
            time.sleep(3.0)
            stop.set()
            thread.join()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
    during = [a for a in answers if a[0] < swapped]
    after = [a for a in answers if a[0] >= swapped]
    print(f"serve --rebuild: ready after {ready_s:.1f} s; new build swapped in after {swapped - launched:.1f} s")
    print(f"answers during the rebuild by status: {dict(Counter(a[1] for a in during))}")
    for label, sample in (("during", during), ("after", after)):
        if sample:
            times = [a[2] * 1000 for a in sample]
            print(f"latency {label} the rebuild: median {statistics.median(times):.1f} ms, "
                  f"p95 {percentile(times, 0.95):.1f} ms ({len(times)} queries)")
    if effect is not None:
        before = "before" if effect < swapped else "after"
        print(f"public → internal edit during the rebuild: gone from customer_safe {effect - saved:.2f} s after the "
              f"save ({before} the swap)")
    print(f"the article reappeared after it was gone: {any(a[3] for a in answers if effect and a[0] > effect)}")


if __name__ == "__main__":
    main()
