"""Save-to-effect time of a sitemap change (CONTRACT X7, issue 24): prints figures, asserts nothing.

    python bench/sitemap_x7.py             # 6 changes
    python bench/sitemap_x7.py --changes 20

Starts the real server (``knowledge-provider serve``) on a three-page wiki whose
``sitemap:`` is a file, then replaces that file by an atomic rename, alternately without
and with one page, and polls ``customer_safe`` every 20 ms until the page has left (or
come back). Printed: each change's seconds from the rename to the effect, the median and
the maximum.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.conftest import CUSTOMER_SECRET, start_provider  # noqa: E402
from tests.e2e.test_sitemap import BASE, results, write_wiki  # noqa: E402
from tests.wiki.test_sitemap import urlset  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--changes", type=int, default=6)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="kp-sitemap-x7-"))
    sitemap = tmp / "site" / "sitemap.xml"
    sitemap.parent.mkdir()

    def publish(*names: str) -> None:
        staged = sitemap.with_name(".sitemap.tmp")
        staged.write_text(urlset(*[f"{BASE}/{name}" for name in names]), "utf-8")
        os.replace(staged, sitemap)

    publish("alpha", "bravo", "charlie")
    server = start_provider(tmp / "run", content=write_wiki(tmp / "wiki"),
                            config={"citation_base_url": BASE, "sitemap": str(sitemap), "sitemap_refresh_s": 3600})
    took = []
    try:
        for number in range(args.changes):
            leaving = number % 2 == 0
            publish("alpha", "charlie") if leaving else publish("alpha", "bravo", "charlie")
            started = time.monotonic()
            while ("bravo" in results(server, CUSTOMER_SECRET)) == leaving:
                time.sleep(0.02)
            took.append(time.monotonic() - started)
            time.sleep(1.5)
    finally:
        server.stop()
    print("save-to-effect seconds:", " ".join(f"{t:.2f}" for t in took))
    print(f"median {statistics.median(took):.2f} s, max {max(took):.2f} s over {len(took)} changes")


if __name__ == "__main__":
    main()
