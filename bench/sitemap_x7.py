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
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from xml.sax.saxutils import escape

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from common import running_server  # noqa: E402

from helpthread_kit.testing import signed_headers  # noqa: E402

BASE = "https://help.example.com"
SECRET = "sitemap-x7-bench-secret-" + "s" * 32
#: Three public pages that all answer "refund".
PAGES = {
    "alpha": "A refund for a duplicate charge is requested from the order page.",
    "bravo": "A refund reaches the card five days after an order is cancelled.",
    "charlie": "Some refund exceptions are granted by the support team.",
}


def write_wiki(folder: Path) -> Path:
    folder.mkdir(parents=True)
    for name, text in PAGES.items():
        (folder / f"{name}.md").write_text(f"---\ntitle: {name.title()}\naudience: public\n---\n\n{text}\n", "utf-8")
    return folder


def sitemap_of(*urls: str) -> str:
    """A sitemap (the sitemaps.org ``urlset``) listing ``urls``."""
    body = "".join(f"<url><loc>{escape(url)}</loc></url>" for url in urls)
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{body}</urlset>'


def customer_safe_ids(base: str) -> set[str]:
    """The documentIds a ``customer_safe`` search for "refund" finds now."""
    body = json.dumps({"query": "refund", "limit": 50}).encode()
    reply = httpx.post(f"{base}/retrieve", content=body, headers=signed_headers(body, SECRET), timeout=10)
    reply.raise_for_status()
    return {result["documentId"] for result in reply.json()["results"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--changes", type=int, default=6)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="kp-sitemap-x7-"))
    sitemap = tmp / "site" / "sitemap.xml"
    sitemap.parent.mkdir()

    def publish(*names: str) -> None:
        staged = sitemap.with_name(".sitemap.tmp")
        staged.write_text(sitemap_of(*[f"{BASE}/{name}" for name in names]), "utf-8")
        os.replace(staged, sitemap)

    publish("alpha", "bravo", "charlie")
    config = {"content": str(write_wiki(tmp / "wiki")), "index": str(tmp / "index"), "citation_base_url": BASE,
              "sitemap": str(sitemap), "sitemap_refresh_s": 3600}
    took = []
    with running_server(config, tmp, SECRET) as (base, _):
        for number in range(args.changes):
            leaving = number % 2 == 0
            publish("alpha", "charlie") if leaving else publish("alpha", "bravo", "charlie")
            started = time.monotonic()
            while ("bravo" in customer_safe_ids(base)) == leaving:
                time.sleep(0.02)
            took.append(time.monotonic() - started)
            time.sleep(1.5)
    print("save-to-effect seconds:", " ".join(f"{t:.2f}" for t in took))
    print(f"median {statistics.median(took):.2f} s, max {max(took):.2f} s over {len(took)} changes")


if __name__ == "__main__":
    main()
