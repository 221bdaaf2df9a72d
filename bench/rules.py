"""Corpus-rules benchmark: prints figures, asserts nothing.

    nice python bench/rules.py                         # 10,000 and 50,000 documents
    python bench/rules.py --docs 2000 --trials 5       # quick

The corpus-wide rules alone (no files, no Whoosh), on synthetic metadata shaped like a
Hugo site: 50 sections with an ``_index.md`` each (a third cascade an audience, one a
publication date), one document in five internal, one in five with a German
translation, some with publication dates and shared ``documentId`` values, every text
with a near-copy sketch. For each size it prints

  * the whole derivation (:func:`provider.wiki.corpus.resolve` with a kept
    :class:`~provider.wiki.copies.CopyGraph`: what every batch cost before the rules were
    incremental);
  * a one-file edit through :class:`provider.wiki.incremental.CorpusRules` (p50 / p95);
  * a 500-file batch (450 edits, 50 public → internal) through it;
  * an edit of a section page (its subtree derived again).

Every incremental answer is checked against the whole derivation (the bench stops if
one differs).

    nice python bench/rules.py --index-dir /tmp/kp-b/index-10000 --wiki-dir /tmp/kp-b/wiki-10000

replays instead, on the metadata of an index ``bench/build.py --workdir /tmp/kp-b`` kept
(its random-word wiki), what that bench's restart, one-file updates and 500-file change
ask of the corpus rules — the same files changed the same way, read again here — and
prints the CPU the rules alone spent (``bench/build.py`` prints wall times, which a loaded
machine stretches). ``--wiki tutorials`` (or a kept ``docs-N`` directory of ``bench/build.py
--wiki tutorials``, found by its layout) replays that wiki's paths instead. Each step prints
a digest of every decision; ``--baseline TREE`` runs another checkout's rules on the same
metadata first and says whether each digest matches. ``--bulk 0`` skips the 500-file
change, whose check against a fresh resolve compares every pair (slow at 50,000
near-copies; a fresh :class:`~provider.wiki.copies.CopyGraph` is the reference past
20,000 documents).

    nice python bench/rules.py --index-dir /tmp/kp/docs-50000/index-minimum \
        --wiki-dir /tmp/kp/docs-50000/wiki --baseline /tmp/before --trials 3 --bulk 0
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import os
import random
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(os.environ.get("KP_RULES_TREE") or Path(__file__).resolve().parent.parent)
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from common import percentile  # noqa: E402

from provider.wiki.copies import CopyGraph, sketch  # noqa: E402
from provider.wiki.corpus import resolve  # noqa: E402
from provider.wiki.document import DocumentMeta  # noqa: E402
from provider.wiki.incremental import CorpusRules  # noqa: E402
from provider.wiki.layouts import get_layout  # noqa: E402

NOW = dt.datetime(2026, 6, 1, tzinfo=dt.UTC)
#: A vocabulary large enough that unrelated texts do not look alike (as in a real wiki).
WORDS = [f"{stem}{n}" for stem in ("invoice", "refund", "account", "export", "report", "plan") for n in range(500)]
LAYOUT = get_layout("hugo")


def corpus(count: int, seed: int = 1) -> dict[str, DocumentMeta]:
    rng = random.Random(seed)
    docs: dict[str, DocumentMeta] = {}
    for section in range(50):
        relpath = f"section-{section:02d}/_index.md"
        cascade = {"audience": "internal"} if section % 3 == 0 else {}
        if section == 7:
            cascade["publishDate"] = (NOW + dt.timedelta(days=30)).isoformat()
        docs[relpath] = DocumentMeta(relpath=relpath, size=1, mtime_ns=0, revision=f"s{section}",
                                     doc_id=f"section-{section}", title=f"Section {section}", audience="public",
                                     draft=False, locale="en", translation_group=f"section-{section}", section=True,
                                     cascade=cascade, has_text=False, public_text=False)
    previous = ""
    for i in range(count - 50):
        text = " ".join(rng.choice(WORDS) for _ in range(80))
        if i % 50 == 7 and previous:  # a near-copy of an earlier article now and then
            text = " ".join(rng.choice(WORDS) if k % 10 == 0 else word for k, word in enumerate(previous.split()))
        previous = text
        translated = i % 5 == 1
        stem = f"section-{i % 50:02d}/article-{i:05d}"
        publication = {"publishDate": (NOW + dt.timedelta(days=rng.choice([-300, -30, 30]))).isoformat()} \
            if i % 10 == 3 else {}
        common = dict(size=1, mtime_ns=0, title=f"Article {i}", draft=i % 97 == 0,
                      audience="internal" if i % 5 == 0 else "public", audience_own=i % 2 == 0,
                      translation_group=stem, doc_id=f"doc-{i}" if i % 211 else "shared", publication=publication,
                      text_hash=f"h{i}", sketch=sketch(text))
        docs[stem + ".md"] = DocumentMeta(relpath=stem + ".md", revision=f"r{i}", locale="en",
                                          **common)  # type: ignore[arg-type]
        if translated:
            relpath = f"de/{stem}.md"
            docs[relpath] = DocumentMeta(relpath=relpath, revision=f"d{i}", locale="de",
                                         sync={"source_revision": f"r{i}"},
                                         **{**common, "text_hash": f"g{i}"})  # type: ignore[arg-type]
        if len(docs) >= count:
            break
    return docs


def _check(rules: CorpusRules, docs: dict[str, DocumentMeta], now: dt.datetime, changed: set[str]) -> float:
    """Times one call (told which paths changed, as the indexer tells it) and checks it."""
    started = time.perf_counter()
    kept, _ = rules.resolve(docs, default_locale="en", now=now, layout=LAYOUT, changed=changed)
    took = time.perf_counter() - started
    fresh = resolve(dict(docs), default_locale="en", now=now, layout=LAYOUT)
    if kept != fresh:
        raise SystemExit("the incremental rules differ from a fresh resolve")
    return took


def bench(count: int, trials: int) -> None:
    label = f"[{count:>6} docs]"
    docs = corpus(count)
    graph = CopyGraph()
    resolve(docs, default_locale="en", now=NOW, layout=LAYOUT, copies=graph)
    whole = []
    for _ in range(3):
        started = time.perf_counter()
        resolve(docs, default_locale="en", now=NOW, layout=LAYOUT, copies=graph)
        whole.append(time.perf_counter() - started)
    print(f"{label} whole derivation (every batch before): median {statistics.median(whole) * 1000:6.0f} ms "
          f"(load {os.getloadavg()[0]:.2f})")
    rules = CorpusRules()
    started = time.perf_counter()
    rules.resolve(docs, default_locale="en", now=NOW, layout=LAYOUT)
    print(f"{label} first call of the kept rules (whole corpus, copy graph built from scratch): "
          f"{(time.perf_counter() - started) * 1000:6.0f} ms")
    paths = sorted(p for p in docs if "/article-" in p and not p.startswith("de/"))
    rng = random.Random(2)
    timings = []
    for trial in range(trials):
        relpath = rng.choice(paths)
        docs[relpath] = dataclasses.replace(docs[relpath], revision=f"edit{trial}", audience="internal")
        timings.append(_check(rules, docs, NOW + dt.timedelta(seconds=trial), {relpath}))
    print(f"{label} one-file edit: p50 {statistics.median(timings) * 1000:6.1f} ms, p95 "
          f"{percentile(timings, 0.95) * 1000:6.1f} ms, {rules.last_derived} documents derived "
          f"({trials} trials, load {os.getloadavg()[0]:.2f})")
    bulk = rng.sample(paths, 500)
    for number, relpath in enumerate(bulk):
        docs[relpath] = dataclasses.replace(docs[relpath], revision=f"bulk{number}",
                                            audience="internal" if number % 10 == 0 else docs[relpath].audience)
    took = _check(rules, docs, NOW + dt.timedelta(seconds=trials), set(bulk))
    print(f"{label} 500 files in one batch: {took * 1000:6.0f} ms, {rules.last_derived} documents derived, "
          f"whole corpus: {rules.last_full}")
    section = "section-04/_index.md"
    docs[section] = dataclasses.replace(docs[section], cascade={"audience": "internal"}, revision="cascade")
    took = _check(rules, docs, NOW + dt.timedelta(seconds=trials + 1), {section})
    print(f"{label} a section's cascade edited: {took * 1000:6.0f} ms, {rules.last_derived} documents derived, "
          f"whole corpus: {rules.last_full}")


def _digest(resolved: object) -> str:
    """A digest of every decision (by relative path, in path order): each field of
    :class:`~provider.wiki.corpus.Resolved` but the file's metadata (whose times and
    inode differ between two runs' copies of an edited file)."""
    import hashlib
    digest = hashlib.sha256()
    for relpath, item in sorted(dict(resolved).items()):  # type: ignore[call-overload]
        fields = {name: value for name, value in vars(item).items() if name != "meta"}
        digest.update(repr((relpath, sorted(fields.items()))).encode("utf-8"))
    return digest.hexdigest()[:16]


def replay(index_dir: Path, wiki_dir: Path, trials: int, bulk: int = 500, wiki_kind: str | None = None,
           flip: int = 0) -> None:
    """bench/build.py's restart, one-file updates and 500-file change, rules only."""
    import shutil
    import tempfile

    from provider.indexing.manifest import Manifest
    from provider.wiki.document import WikiSettings, load_document

    found = sorted(index_dir.glob("builds/*/manifest.json"))
    manifest = Manifest.load(found[-1]) if found else None
    if manifest is None:
        raise SystemExit(f"no readable manifest under {index_dir}/builds")
    docs = dict(manifest.docs)
    count = len(docs)
    tutorials = wiki_kind == "tutorials" or (wiki_kind is None and "t01/doc-00001.md" in docs)
    if tutorials:  # bench/build.py --wiki tutorials (bench/search.py's wiki)
        wiki = WikiSettings(root=wiki_dir, locales=("en", "de"))
        edited_path = "t01/doc-00001.md"

        def path_of(number: int) -> str:
            return f"t{number % 100:02d}/doc-{number:05d}.md"
    else:
        wiki = WikiSettings(root=wiki_dir)
        edited_path = "section-01/article-00001.md"

        def path_of(number: int) -> str:
            return f"section-{number % 50:02d}/article-{number:05d}.md"
    options = dict(default_locale=wiki.default_locale, layout=wiki.preset)
    # Fixed, so that two trees' runs compare the same decisions.
    now = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)
    scratch = Path(tempfile.mkdtemp(prefix="kp-rules-"))
    settings = WikiSettings(root=scratch, locales=wiki.locales)
    label = f"[{count:>6} docs]"

    def edited(relpath: str, extra: str, *, internal: bool = False) -> DocumentMeta:
        target = scratch / relpath
        target.parent.mkdir(parents=True, exist_ok=True)
        text = (wiki_dir / relpath).read_text("utf-8")
        if internal:
            text = text.replace("audience: public", "audience: internal", 1)
        target.write_text(text + extra, "utf-8")
        return load_document(settings, relpath).meta  # type: ignore[union-attr]

    try:
        rules = CorpusRules()
        cpu, wall = time.process_time(), time.perf_counter()
        kept, _ = rules.resolve(docs, now=now, **options)  # type: ignore[arg-type]
        print(f"{label} first call after a start (whole corpus): {time.process_time() - cpu:6.2f} s CPU, "
              f"{time.perf_counter() - wall:6.2f} s wall, peak RSS "
              f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB (load {os.getloadavg()[0]:.2f})",
              flush=True)
        print(f"{label} digest first call: {_digest(kept)}", flush=True)
        timings = []
        for trial in range(trials):
            docs[edited_path] = edited(edited_path, f"\nEdit {trial} wombat{trial} replay.\n")
            cpu = time.process_time()
            kept, _ = rules.resolve(docs, now=now, changed=[edited_path], **options)  # type: ignore[arg-type]
            timings.append(time.process_time() - cpu)
        if timings:
            print(f"{label} one-file update: CPU p50 {statistics.median(timings) * 1000:6.1f} ms")
            print(f"{label} digest one-file updates: {_digest(kept)}", flush=True)
        if flip:
            # Public documents made internal: their public near-copies follow (rule 6).
            public = [relpath for relpath, item in sorted(kept.items()) if item.public and item.meta.sketch]
            changed = public[:: max(1, len(public) // flip)][:flip]
            for relpath in changed:
                docs[relpath] = edited(relpath, "\nMade internal.\n", internal=True)
            cpu = time.process_time()
            kept, _ = rules.resolve(docs, now=now, changed=changed, **options)  # type: ignore[arg-type]
            took = time.process_time() - cpu
            print(f"{label} {len(changed)} public documents made internal: {took:6.2f} s CPU, "
                  f"{rules.last_derived} derived, {sum(1 for item in kept.values() if item.public)} public after")
            print(f"{label} digest public made internal: {_digest(kept)}", flush=True)
        if not bulk:
            return
        changed = []
        for i in range(1, bulk + 1):  # bench/build.py's bulk change
            relpath = path_of((i * 19) % count)
            if not (wiki_dir / relpath).is_file():
                continue
            docs[relpath] = edited(relpath, f"\nBulk change {i} replay replayx.\n", internal=i % 10 == 0)
            changed.append(relpath)
        cpu = time.process_time()
        kept, _ = rules.resolve(docs, now=now, changed=changed, **options)  # type: ignore[arg-type]
        took = time.process_time() - cpu
        reference = resolve(dict(docs), now=now, copies=CopyGraph() if count > 20_000 else None,
                            **options)  # type: ignore[arg-type]
        if dict(kept) != reference:
            raise SystemExit("the incremental rules differ from a fresh resolve")
        print(f"{label} {len(changed)}-file change: {took:6.2f} s CPU, {rules.last_derived} derived, whole corpus: "
              f"{rules.last_full} (load {os.getloadavg()[0]:.2f}); equal to a fresh resolve")
        print(f"{label} digest {len(changed)}-file change: {_digest(kept)}", flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--docs", default="10000,50000", help="comma-separated document counts")
    parser.add_argument("--trials", type=int, default=20, help="one-file edits per size")
    parser.add_argument("--index-dir", type=Path, help="replay bench/build.py's changes on this kept index")
    parser.add_argument("--wiki-dir", type=Path, help="the wiki of --index-dir")
    parser.add_argument("--wiki", choices=("random", "tutorials"),
                        help="with --index-dir: bench/build.py's wiki kind (default: found by its paths)")
    parser.add_argument("--bulk", type=int, default=500, help="with --index-dir: files of the bulk change (0: none)")
    parser.add_argument("--flip", type=int, default=0,
                        help="with --index-dir: then make this many public documents internal (one batch)")
    parser.add_argument("--baseline", type=Path, help="with --index-dir: run this checkout's rules first")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load {os.getloadavg()}", flush=True)
    if args.index_dir is not None:
        if args.wiki_dir is None:
            parser.error("--index-dir needs --wiki-dir")
        baseline: dict[str, str] = {}
        if args.baseline is not None:
            import subprocess
            print(f"baseline {args.baseline}:", flush=True)
            # This script, importing the baseline's provider package (KP_RULES_TREE).
            command = [sys.executable, str(Path(__file__).resolve()), "--index-dir", str(args.index_dir),
                       "--wiki-dir", str(args.wiki_dir), "--trials", str(args.trials), "--bulk", str(args.bulk),
                       "--flip", str(args.flip)]
            if args.wiki:
                command += ["--wiki", args.wiki]
            run = subprocess.run(command, check=True, stdout=subprocess.PIPE, text=True,
                                 env={**os.environ, "KP_RULES_TREE": str(args.baseline)})
            for line in run.stdout.splitlines()[1:]:
                print("  " + line)
                step, marker, digest = line.partition(" digest ")[2].rpartition(": ")
                if marker:
                    baseline[step] = digest
            print(f"this tree {ROOT}:", flush=True)
        import contextlib
        import io
        captured = io.StringIO()
        with contextlib.redirect_stdout(captured):
            replay(args.index_dir, args.wiki_dir, args.trials, args.bulk, args.wiki, args.flip)
        for line in captured.getvalue().splitlines():
            print("  " + line if baseline else line)
            step, marker, digest = line.partition(" digest ")[2].rpartition(": ")
            if marker and baseline:
                same = baseline.get(step) == digest
                print(f"  decisions after {step}: {'IDENTICAL to' if same else 'DIFFERENT from'} the baseline's")
        return
    for size in (int(s) for s in args.docs.split(",") if s):
        bench(size, args.trials)


if __name__ == "__main__":
    main()
