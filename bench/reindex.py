"""Re-indexing benchmark: prints figures, asserts nothing.

    python bench/reindex.py                 # 1,000 and 10,000 synthetic documents
    python bench/reindex.py --sizes 1000    # quicker

Measures, on synthetic wikis of ~300-word documents:
  * full build time and documents per second;
  * single-file update time (one batch, both commits) in process;
  * restart with unchanged content (open + reconcile scan);
and, on the shipped sample wiki with a real `serve` process over HTTP:
  * file-save-to-effect latency of a plain edit and of a public → internal
    reclassification (median and p95), as a customer_safe client observes it;
and open file descriptors of the searching process over 10,000 queries with commits.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from common import percentile, running_server  # noqa: E402

from helpthread_kit.backend import SearchQuery  # noqa: E402
from helpthread_kit.capabilities import MINIMUM  # noqa: E402
from helpthread_kit.registrations import Exposure  # noqa: E402
from helpthread_kit.testing import signed_headers  # noqa: E402
from provider.indexing import Indexer  # noqa: E402
from provider.search.backend import WhooshBackend  # noqa: E402
from provider.search.layout import IndexLayout  # noqa: E402
from provider.wiki.document import WikiSettings  # noqa: E402

VOCABULARY = (
    "invoice payment refund account password export report customer reminder tax bank card plan team "
    "role token webhook limit receipt mobile sync archive settings email address number currency credit "
    "note draft send recurring schedule integration stripe paypal datev csv pdf template logo signature "
    "discount due date overdue balance statement client project hours expense category vat rate country"
).split()
SECRET = "bench-secret-" + "x" * 32


def generate(root: Path, count: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    for i in range(count):
        words = [rng.choice(VOCABULARY) for _ in range(300)]
        paragraphs = [" ".join(words[j:j + 60]) + "." for j in range(0, 300, 60)]
        audience = "public" if i % 5 else "internal"
        path = root / f"section-{i % 50:02d}" / f"article-{i:05d}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        body = "\n\n## Details\n\n".join(paragraphs)
        path.write_text(f"---\ntitle: Article {i}\naudience: {audience}\n---\n{body}\n", "utf-8")



def bench_synthetic(count: int, work: Path) -> None:
    content, index = work / f"wiki-{count}", work / f"index-{count}"
    generate(content, count)
    settings = WikiSettings(root=content)
    started = time.perf_counter()
    with Indexer(settings, IndexLayout(index)) as indexer:
        indexer.sync()
        build_s = time.perf_counter() - started
        print(f"[{count:>6} docs] full build: {build_s:7.2f} s  ({count / build_s:6.0f} docs/s)")
        timings = []
        for trial in range(10):
            path = content / "section-00" / "article-00000.md"
            path.write_text(path.read_text("utf-8") + f"\nEdit {trial}.\n", "utf-8")
            t0 = time.perf_counter()
            indexer.sync(["section-00/article-00000.md"])
            timings.append(time.perf_counter() - t0)
        print(f"[{count:>6} docs] single-file update (one batch, both commits): "
              f"median {statistics.median(timings) * 1000:6.1f} ms, p95 {percentile(timings, 0.95) * 1000:6.1f} ms")
    started = time.perf_counter()
    with Indexer(settings, IndexLayout(index)) as indexer:
        report = indexer.sync()
    print(f"[{count:>6} docs] restart with unchanged content: {time.perf_counter() - started:6.2f} s "
          f"(files read: {report.read}, rebuilt: {report.rebuilt})")



def bench_latency(work: Path, trials: int) -> None:
    content = work / "sample"
    shutil.copytree(ROOT / "content", content)
    config = {"content": str(content), "index": str(work / "sample-index"), "locales": ["en", "de"]}
    with running_server(config, work, SECRET) as (base, _):

        def ids(query: str) -> list[str]:
            body = json.dumps({"query": query, "limit": 50}).encode()
            reply = httpx.post(f"{base}/retrieve", content=body, headers=signed_headers(body, SECRET), timeout=10)
            return [r["documentId"] for r in reply.json()["results"]]

        def until(predicate: object) -> float:
            t0 = time.perf_counter()
            while not predicate():  # type: ignore[operator]
                if time.perf_counter() - t0 > 30:
                    raise RuntimeError("timed out")
                time.sleep(0.01)
            return time.perf_counter() - t0

        path = content / "en/billing/requesting-a-refund.md"
        original = path.read_text("utf-8")
        edits, reclassifications = [], []
        for trial in range(trials):
            word = f"wombat{trial}x"
            path.write_text(original + f"\n{word}\n", "utf-8")
            edits.append(until(lambda w=word: "en/billing/requesting-a-refund" in ids(w)))
            tmp = path.with_name(".swap")
            tmp.write_text(original.replace("audience: public", "audience: internal", 1), "utf-8")
            os.replace(tmp, path)
            reclassifications.append(until(lambda: "en/billing/requesting-a-refund" not in ids("refund")))
            path.write_text(original, "utf-8")
            until(lambda: "en/billing/requesting-a-refund" in ids("refund"))
        for label, values in (("plain edit", edits), ("public → internal", reclassifications)):
            print(f"[sample wiki] save-to-effect, {label:<17}: median {statistics.median(values) * 1000:5.0f} ms, "
                  f"p95 {percentile(values, 0.95) * 1000:5.0f} ms  ({len(values)} trials, real server, inotify)")


def bench_file_handles(work: Path) -> None:
    content, index = work / "fd-wiki", work / "fd-index"
    generate(content, 200, seed=3)
    backend = WhooshBackend(index)
    query = SearchQuery(text="invoice refund", limit=10, reach=Exposure.AGENT_ONLY, capabilities=MINIMUM)
    with Indexer(WikiSettings(root=content), IndexLayout(index)) as indexer:
        indexer.sync()
        counts = []
        for i in range(10_000):
            if i % 200 == 0:
                relpath = f"section-{i % 50:02d}/article-{i % 200:05d}.md"
                path = content / relpath
                if path.exists():
                    path.write_text(path.read_text("utf-8") + "\nmore\n", "utf-8")
                    indexer.sync([relpath])
            backend.search(query)
            if i % 1000 == 0:
                counts.append(len(os.listdir("/proc/self/fd")))
    print(f"[fd] open file descriptors every 1,000 of 10,000 queries (50 commits): {counts}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1000,10000", help="comma-separated document counts")
    parser.add_argument("--trials", type=int, default=20, help="latency trials on the sample wiki")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory(prefix="kp-bench-") as tmp:
        work = Path(tmp)
        for size in (int(s) for s in args.sizes.split(",") if s):
            bench_synthetic(size, work)
        bench_latency(work, args.trials)
        bench_file_handles(work)


if __name__ == "__main__":
    main()
