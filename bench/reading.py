"""Reading and preparing one document at a time: CPU per document, and a digest of all
it produces. Prints figures, asserts nothing (compare the digests by eye or with --baseline).

    python bench/reading.py                          # bench wiki + hetzner-tutorials, this tree
    python bench/reading.py --baseline /tmp/before   # the same for another checkout, side by side
    python bench/reading.py --digest all --baseline /tmp/before   # every corpus: equal or not

What is read is what a reader process of the indexer does per file
(``load_document`` + ``prepare``); the digest covers everything that produces: the
document's metadata (warnings, errors, sketches, audience and withholding decisions
included), its passages and public passages with every field, a skipped file's reason,
and the prepared units and postings (unpickled, so only their content counts). Each
corpus is read with its operator configuration (bench/corpora/NAME.yaml; the Hetzner
tutorials as tests/wiki/test_real_corpus.py reads them).

CPU: each trial is a fresh process that warms the parsers on one small file (as a reader
process does) and reads every file once, so the per-word caches fill as they do in a
build; the minimum of ``--trials`` is printed, the trials of both trees interleaved.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import pickle
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# Beside the repository, as CI lays it out; KP_CORPORA names another folder (as in tests/corpora.py).
CORPORA = Path(os.environ.get("KP_CORPORA") or ROOT.parent / "shared" / "corpora")
CONFIGURED = ("astro-docs", "kaia-docs", "ms-officedocs-support")
NAMES = ("bench", "hetzner-tutorials", *CONFIGURED)


def _settings(name: str, bench_dir: Path) -> Any:
    from provider.wiki.document import WikiSettings
    if name == "bench":
        return WikiSettings(root=bench_dir)
    if name == "hetzner-tutorials":
        from provider.wiki.classify import PUBLIC, AudienceRule
        return WikiSettings(root=CORPORA / name, default_locale="en",
                            locales=("en", "de", "ru", "it", "bg", "fi", "pt"),
                            audience_rules=(AudienceRule("tutorials/**", PUBLIC),))
    from dataclasses import replace

    from provider.config import load_config
    settings = load_config(ROOT / "bench" / "corpora" / f"{name}.yaml").wiki_settings()
    # A worktree is not beside ../shared: the corpus of that name under CORPORA.
    return settings if settings.root.is_dir() else replace(settings, root=CORPORA / name)


def _files(settings: Any, limit: int) -> list[str]:
    root = settings.root
    exts = tuple(e.lower() for e in settings.file_extensions)
    found = sorted(str(p.relative_to(root)).replace(os.sep, "/") for p in root.rglob("*")
                   if p.is_file() and p.suffix.lower() in exts)
    return found[:limit] if limit else found


def _canonical(document: Any, made: bytes | None) -> bytes:
    from dataclasses import asdict
    if not hasattr(document, "meta"):  # Skipped, or None
        return repr(document).encode()
    meta = asdict(document.meta)
    for volatile in ("mtime_ns", "ctime_ns", "inode"):
        meta.pop(volatile, None)
    parts = [sorted(meta.items()), [repr(p) for p in document.passages], [repr(p) for p in document.public_passages]]
    if made is not None:
        parts.append(repr(pickle.loads(made)))  # noqa: S301 - made by this process
    return repr(parts).encode()


def worker(tree: Path, name: str, limit: int, mode: str, bench_dir: Path) -> None:
    sys.path.insert(0, str(tree))
    import provider
    assert Path(provider.__file__).resolve().is_relative_to(tree.resolve()), provider.__file__
    from provider.indexing.units import prepare
    from provider.wiki.document import WikiDocument, load_document, parse_document
    settings = _settings(name, bench_dir)
    files = _files(settings, limit)
    sample = b"---\nlocale: de-AT\ntitle: Warm-up\n---\n# Heading\n\nSome *text* with a [link](https://x.invalid).\n"
    parse_document(settings, "warm-up.md", sample, size=len(sample), mtime_ns=0)
    digests: dict[str, str] = {}
    started = time.process_time()
    for relpath in files:
        document = load_document(settings, relpath)
        made = prepare(settings, document) if isinstance(document, WikiDocument) else None
        if mode == "digest":
            digests[relpath] = hashlib.sha1(_canonical(document, made), usedforsecurity=False).hexdigest()
    cpu = time.process_time() - started
    whole = hashlib.sha1("".join(f"{k}={v}\n" for k, v in digests.items()).encode(),
                         usedforsecurity=False).hexdigest()
    print(json.dumps({"files": len(files), "cpu_ms": cpu * 1000 / max(1, len(files)), "digest": whole,
                      "per_file": digests}))


def _run(tree: Path, name: str, limit: int, mode: str, bench_dir: Path) -> dict[str, Any]:
    out = subprocess.run([sys.executable, __file__, "--worker", str(tree), "--corpus", name, "--limit", str(limit),
                          "--mode", mode, "--bench-dir", str(bench_dir)], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout whose code reads (default: this one)")
    parser.add_argument("--baseline", type=Path, help="another checkout, measured side by side")
    parser.add_argument("--cpu", default="bench,hetzner-tutorials", help="corpora whose CPU per document is measured")
    parser.add_argument("--digest", default="", help="corpora digested ('all': every one)")
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--bench-docs", type=int, default=1000, help="documents of the synthetic bench wiki")
    parser.add_argument("--limit", type=int, default=0, help="files per corpus (0: all)")
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--corpus", help=argparse.SUPPRESS)
    parser.add_argument("--mode", default="cpu", help=argparse.SUPPRESS)
    parser.add_argument("--bench-dir", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker is not None:
        worker(args.worker, args.corpus, args.limit, args.mode, args.bench_dir)
        return
    trees = [args.tree, *([args.baseline] if args.baseline else [])]
    print(f"python {sys.version.split()[0]}, load {os.getloadavg()}; trees {', '.join(map(str, trees))}")
    with tempfile.TemporaryDirectory(prefix="kp-reading-") as where:
        bench_dir = Path(where) / "wiki"
        sys.path.insert(0, str(ROOT / "bench"))
        from reindex import generate
        generate(bench_dir, args.bench_docs)
        digest = NAMES if args.digest == "all" else tuple(filter(None, args.digest.split(",")))
        for name in digest:
            found = [_run(tree, name, args.limit, "digest", bench_dir) for tree in trees]
            same = "" if len(found) == 1 else (" EQUAL" if found[0]["digest"] == found[1]["digest"] else " DIFFERENT")
            print(f"digest {name:22s} {found[0]['files']:5d} files: "
                  + " | ".join(f["digest"][:16] for f in found) + same, flush=True)
            if same == " DIFFERENT":
                differ = [k for k, v in found[0]["per_file"].items() if found[1]["per_file"].get(k) != v]
                print(f"  {len(differ)} files differ, e.g. {differ[:5]}")
        for name in filter(None, args.cpu.split(",")):
            best: dict[Path, list[float]] = {tree: [] for tree in trees}
            files = 0
            for _ in range(args.trials):
                for tree in trees:
                    found = _run(tree, name, args.limit, "cpu", bench_dir)
                    best[tree].append(found["cpu_ms"])
                    files = found["files"]
            line = " | ".join(f"{min(best[t]):6.2f} ms ({', '.join(f'{v:.2f}' for v in best[t])})" for t in trees)
            ratio = f"  ratio {min(best[trees[0]]) / min(best[trees[1]]):.2f}x" if len(trees) > 1 else ""
            print(f"cpu    {name:22s} {files:5d} files, CPU per document, min of {args.trials}: {line}{ratio} "
                  f"(load {os.getloadavg()[0]:.2f})", flush=True)


if __name__ == "__main__":
    main()
