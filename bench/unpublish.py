"""How long a public → internal edit takes to leave the public index when the same batch
holds pathological files (issue 11, CONTRACT X7).

Builds a small wiki in a temporary folder, then, in one batch, reclassifies one public
page as internal and adds N files of ``"![" * 900_000`` (each takes the reader its whole
``parse_timeout``). Prints the time until the page left the public index and the time
the whole batch took. In-process, the real :class:`~provider.indexing.indexer.Indexer`.

    python bench/unpublish.py [--slow 6] [--parse-timeout 30]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from whoosh import index as whoosh_index  # noqa: E402 - after the path set-up above

from provider.indexing import Indexer  # noqa: E402
from provider.search.layout import PUBLIC, IndexLayout  # noqa: E402
from provider.wiki.document import WikiSettings  # noqa: E402


def _public_paths(index: Path) -> set[str]:
    layout = IndexLayout(index)
    name = layout.current_name()
    assert name is not None
    with whoosh_index.open_dir(str(layout.build_dir(name) / PUBLIC)).searcher() as searcher:
        return {fields["path"] for fields in searcher.all_stored_fields()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--slow", type=int, default=6, help="pathological files in the batch")
    parser.add_argument("--parse-timeout", type=float, default=30.0, help="seconds (the default setting)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        content, index = Path(tmp) / "content", Path(tmp) / "index"
        content.mkdir()
        for i in range(50):
            (content / f"page-{i}.md").write_text(f"---\naudience: public\n---\nPage {i} about invoices.\n", "utf-8")
        indexer = Indexer(WikiSettings(root=content), IndexLayout(index), parse_timeout_s=args.parse_timeout)
        indexer.open()
        try:
            indexer.sync()
            (content / "page-0.md").write_text("---\naudience: internal\n---\nPage 0 about invoices.\n", "utf-8")
            slow = [f"slow-{i}.md" for i in range(args.slow)]
            for name in slow:
                (content / name).write_text("---\naudience: public\n---\n" + "![" * 900_000, "utf-8")
            started = time.monotonic()
            worker = threading.Thread(target=indexer.sync, args=(["page-0.md", *slow],))
            worker.start()
            while "page-0.md" in _public_paths(index):
                time.sleep(0.01)
            left = time.monotonic() - started
            worker.join()
            total = time.monotonic() - started
        finally:
            indexer.close()
    print(f"{args.slow} pathological files (parse_timeout {args.parse_timeout:g} s) in the batch: "
          f"public -> internal left the public index after {left * 1000:.0f} ms; the batch took {total:.1f} s")


if __name__ == "__main__":
    main()
