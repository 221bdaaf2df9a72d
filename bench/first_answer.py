"""How soon a starting server answers (issue 27): prints figures, asserts nothing.

    python bench/first_answer.py                       # this tree, 3 starts
    python bench/first_answer.py --tree ../base42 --python ../base42/.venv/bin/python

Starts ``knowledge-provider serve`` (a fresh index each time) on a copy of the shipped
sample wiki whose ``sitemap:`` is a 50,000-URL file of about 47 MiB (the protocol's
limits), and polls ``/healthz`` and ``/readyz`` on new connections every 0.1 s from the
moment the process is started. Printed per start: seconds to the first ``/healthz`` 200,
the first answer of any kind, and the first ``/readyz`` 200; then the medians.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from common import launch_server, stop_server  # noqa: E402

BASE = "https://help.example.com"
SECRET = "first-answer-bench-secret-" + "s" * 32


def write_sitemap(path: Path, urls: int = 50_000, pad_languages: int = 7) -> None:
    """A sitemap of ``urls`` URLs, each with ``pad_languages`` hreflang alternates (about
    47 MiB with the defaults): the sample wiki's own pages are not on it, so none is
    public, which changes nothing about how long reading it takes."""
    with path.open("w", encoding="utf-8") as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/'
                  'sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">')
        for n in range(urls):
            loc = f"{BASE}/docs/section-{n % 97}/a-rather-long-page-name-{n}/"
            links = "".join(f'<xhtml:link rel="alternate" hreflang="l{k}" href="{BASE}/l{k}/docs/section-{n % 97}/'
                            f'a-rather-long-page-name-{n}/"/>' for k in range(pad_languages))
            out.write(f"<url><loc>{loc}</loc><lastmod>2026-01-01</lastmod>{links}</url>")
        out.write("</urlset>")


def one_start(tree: Path, python: str, workdir: Path, sitemap: Path, limit_s: float) -> dict[str, float]:
    """Seconds from the process start to each first answer (``nan`` if never)."""
    content = workdir / "content"
    shutil.rmtree(content, ignore_errors=True)
    shutil.rmtree(workdir / "index", ignore_errors=True)
    shutil.copytree(ROOT / "content", content)
    started = time.monotonic()
    base, proc = launch_server({"content": str(content), "index": str(workdir / "index"),
                                "citation_base_url": BASE, "sitemap": str(sitemap)},
                               workdir, SECRET, tree=tree, python=python)
    first: dict[str, float] = {}
    try:
        while "readyz" not in first and time.monotonic() - started < limit_s and proc.poll() is None:
            for path in ("/healthz", "/readyz"):
                try:
                    status = httpx.get(base + path, timeout=5).status_code
                except httpx.TransportError:
                    continue
                first.setdefault("answer", time.monotonic() - started)
                if status == 200:
                    first.setdefault(path.strip("/"), time.monotonic() - started)
            time.sleep(0.1)
    finally:
        stop_server(proc)
    return {key: first.get(key, float("nan")) for key in ("healthz", "answer", "readyz")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout whose server is started")
    parser.add_argument("--python", default=sys.executable, help="its interpreter")
    parser.add_argument("--starts", type=int, default=3)
    parser.add_argument("--sitemap-urls", type=int, default=50_000, help="URLs on the sitemap")
    parser.add_argument("--limit-s", type=float, default=600, help="give up on a start after this long")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="first-answer-") as tmp:
        workdir = Path(tmp)
        sitemap = workdir / "sitemap.xml"
        write_sitemap(sitemap, args.sitemap_urls)
        print(f"tree {args.tree}, sitemap {sitemap.stat().st_size / 2**20:.1f} MiB, "
              f"load {os.getloadavg()[0]:.1f}", flush=True)
        rows = []
        for n in range(args.starts):
            row = one_start(args.tree.resolve(), args.python, workdir, sitemap, args.limit_s)
            rows.append(row)
            print(f"start {n + 1}: first /healthz 200 {row['healthz']:.1f} s, first answer {row['answer']:.1f} s, "
                  f"first /readyz 200 {row['readyz']:.1f} s (load {os.getloadavg()[0]:.1f})", flush=True)
        for key in ("healthz", "answer", "readyz"):
            print(f"median {key}: {statistics.median(r[key] for r in rows):.1f} s")


if __name__ == "__main__":
    main()
