"""Hidden-text findings on the corpus pages that carry CSS: prints figures, asserts nothing.

    nice python bench/overlays.py                       # this tree, every corpus
    nice python bench/overlays.py --tree ../kp-baseline   # another checkout (git worktree add)

Reads every Markdown file (``.md``, ``.mdx``, ``.markdown``) of each corpus in
``../shared/corpora`` whose text has an inline ``style=``, a ``<style`` element or a
``::before``/``::after``, and lists each element :func:`provider.wiki.sections.hidden_spans`
reports (file, line, reason), with the tree's own code (``--tree``: another checkout's,
imported from there), so the lists of two trees can be compared line by line with diff.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_STYLED = re.compile(r"style=|<style|::?(?:before|after)\b", re.IGNORECASE)


def main() -> None:
    """Print one line per finding and a total per corpus."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, default=ROOT)
    parser.add_argument("--corpora", type=Path, default=Path(os.environ.get("KP_CORPORA")
                                                                 or ROOT.parent / "shared" / "corpora"))
    args = parser.parse_args()
    sys.path.insert(0, str(args.tree.resolve()))
    from provider.wiki.hidden_html import hidden_elements

    for corpus in sorted(p for p in args.corpora.iterdir() if p.is_dir()):
        files = sorted(p for p in corpus.rglob("*") if p.suffix in (".md", ".mdx", ".markdown") and p.is_file())
        styled = found = 0
        started = time.process_time()
        for path in files:
            body = path.read_text(encoding="utf-8", errors="replace")
            if not _STYLED.search(body):
                continue
            styled += 1
            for hidden in hidden_elements(body, lambda spans: set()):
                found += 1
                line = body.count("\n", 0, hidden.start) + 1
                print(f"{corpus.name}/{path.relative_to(corpus)}:{line}: {hidden.reason[:160]}")
        print(f"== {corpus.name}: {styled} styled files, {found} findings, "
              f"{time.process_time() - started:.2f} CPU s")


if __name__ == "__main__":
    main()
