"""What rule 6d's secret forms cost per document and per corpus: prints figures, asserts nothing.

    nice python bench/secret_cost.py                          # 300 Microsoft Learn files, this tree
    nice python bench/secret_cost.py --baseline ../baseline-1183a69 --files 300 ms-officedocs-support

Reads the first ``--files`` files of the corpus (sorted paths) as the indexer does
(:func:`provider.wiki.document.parse_document`) and prints the CPU seconds spent in
:func:`provider.wiki.containment.block_shingles` (all three calls per file), the characters
its entries store, and the share of them a public page's secret forms take (``j:``
entries). In this tree it then times what the corpus pays instead: looking for
``--secrets`` synthetic secrets' skeletons in every page
(:class:`provider.wiki.containment.Skeletons`). With ``--baseline`` the other tree is
measured the same way in a child process.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TREE = Path(os.environ.get("KP_TREE") or ROOT)
sys.path.insert(0, str(TREE))

CORPORA = Path(os.environ.get("KP_CORPORA") or ROOT.parent / "shared" / "corpora")


def measure(name: str, files: int, secrets: int) -> dict[str, float]:
    """``{figure: value}`` for this tree (the one on ``sys.path``)."""
    from provider.config import load_config
    from provider.wiki import containment, document

    config = load_config(ROOT / "bench" / "corpora" / f"{name}.yaml")
    settings = dataclasses.replace(config.wiki_settings(), root=CORPORA / name)
    spent = [0.0]
    original = document.block_shingles

    def timed(*args, **kwargs):  # type: ignore[no-untyped-def]
        blocks = list(args[0])
        started = time.process_time()
        found = original(blocks, *args[1:], **kwargs)
        spent[0] += time.process_time() - started
        return found

    document.block_shingles = timed  # type: ignore[assignment]
    paths = sorted(p for p in settings.root.rglob("*.md") if p.is_file())[:files]
    metas = []
    for path in paths:
        data = path.read_bytes()
        parsed = document.parse_document(settings, path.relative_to(settings.root).as_posix(), data,
                                         size=len(data), mtime_ns=0)
        meta = getattr(parsed, "meta", None)
        if meta is not None:
            metas.append(meta)
    stored = sum(len(e) for m in metas for f in (m.block_shingles, m.internal_block_shingles,
                                                   m.label_block_shingles) for e in f)
    joined = sum(len(e) for m in metas for e in m.block_shingles if e.startswith("j:"))
    out = {"files": len(metas), "block_shingles_cpu_s": spent[0], "stored_chars": stored, "j_chars": joined}
    if hasattr(containment, "Skeletons"):
        rng = random.Random(1)
        words = "amber falcon lighthouse marmalade copper heron velvet orbit quartz tundra".split()
        lines = [f"Passphrase: {' '.join(rng.sample(words, 2))} {rng.randint(10, 9999)}" for _ in range(secrets)]
        units = [u for line in lines for u in containment._units_of(containment.block_shingles([line], page=False))
                 if u.forms]
        started = time.process_time()
        skeletons = containment.Skeletons(units)
        hits = sum(bool(skeletons.hits(containment.page_skeleton_of(m))) for m in metas)
        out |= {"secrets": len(units), "forms": len(skeletons.values),
                "corpus_scan_cpu_s": time.process_time() - started, "pages_hit": hits}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus", nargs="?", default="ms-officedocs-support")
    parser.add_argument("--files", type=int, default=300)
    parser.add_argument("--secrets", type=int, default=20)
    parser.add_argument("--baseline", type=Path, help="another checkout of the project")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON (the child's output)")
    args = parser.parse_args()
    mine = measure(args.corpus, args.files, args.secrets)
    if args.json:
        print(json.dumps(mine))
        return
    rows = [("this tree", mine)]
    if args.baseline is not None:
        done = subprocess.run([sys.executable, str(Path(__file__).resolve()), args.corpus, "--files", str(args.files),
                               "--json"], check=True, capture_output=True, text=True,
                              env={**os.environ, "KP_TREE": str(args.baseline.resolve()),
                                   "PYTHONPATH": str(args.baseline.resolve())})
        rows.insert(0, ("baseline", json.loads(done.stdout.strip().splitlines()[-1])))
    for label, figures in rows:
        print(f"{label}: " + ", ".join(f"{k} {v:.2f}" if isinstance(v, float) else f"{k} {v}"
                                       for k, v in figures.items()))


if __name__ == "__main__":
    main()
