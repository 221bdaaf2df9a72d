"""Index build and update benchmark: prints figures, asserts nothing.

    nice python bench/build.py                      # 10,000 synthetic documents
    nice python bench/build.py --docs 10000,50000   # and 50,000 (slow)
    python bench/build.py --docs 2000 --no-floor    # quick
    nice python bench/build.py --workdir /tmp/kp-bench   # keep the wiki and index, reuse them next time
    nice python bench/build.py --docs 50000 --wiki tutorials --workdir /tmp/kp-50k
        # bench/search.py's wiki (paragraphs of the same Hetzner tutorials: many near-copies);
        # then `bench/search.py --large --index-dir /tmp/kp-50k` reuses the 50,000 index

For each size, on a synthetic wiki of ~300-word documents (one in five internal; random
words, or ``--wiki tutorials``: bench/search.py's, whose documents share paragraphs):
  * cold build: documents per second, each step's share of the time (reading and
    parsing in the reader processes, the corpus-wide rules, preparing the entries, the
    Whoosh writers' add_document and commit), the size of the index on disk and this
    process's peak RSS;
  * Whoosh's floor, CPU milliseconds per document (adding, committing) on 2,000 of the
    documents: the same entries written again by Whoosh's own writer analysing them, by
    Whoosh's writer given the analysed postings (Whoosh's floor for our schema: what it
    costs whatever the provider's analysis costs), by the provider's TermWriter given
    them, and a minimal one-field writer (StandardAnalyzer) over the same text;
  * one-file update in process (one batch, both indexes committed): p50 / p95 of 20, and
    per trial its wall and CPU time, the documents the corpus rules derived again, the
    garbage collections by generation, the segments of each index and each step's time
    (``--profile DIR``: a cProfile of each; ``--heap both``: first with the collector
    seeing the whole heap, then frozen as the indexer leaves it);
  * a bulk change of 500 files (a ``git checkout``: 450 edits, 50 public → internal)
    applied in one batch, in process.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import gc
import os
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from common import percentile  # noqa: E402
from reindex import generate  # noqa: E402
from whoosh import index as whoosh_index  # noqa: E402
from whoosh.analysis import StandardAnalyzer  # noqa: E402
from whoosh.fields import ID, TEXT, Schema  # noqa: E402

from provider.indexing import Indexer  # noqa: E402
from provider.indexing.entries import index_entries  # noqa: E402
from provider.search.layout import IndexLayout  # noqa: E402
from provider.search.schema import build_schema  # noqa: E402
from provider.wiki.document import WikiSettings, load_document  # noqa: E402

try:  # absent before the indexer froze the heap after a whole derivation (a --baseline checkout)
    from provider.indexing.heap import settle_heap
except ImportError:  # pragma: no cover
    def settle_heap() -> None:
        gc.collect()
        gc.freeze()
try:  # absent before the provider had its own writer (a --baseline checkout)
    from provider.search.writer import TermWriter
except ImportError:  # pragma: no cover
    TermWriter = None
try:  # absent before the reader processes analysed the text
    from provider.search.prepared import AnalysedOnce, postings_of
except ImportError:  # pragma: no cover
    AnalysedOnce = None


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def _steps(report: Any) -> str:
    steps: dict[str, float] = getattr(report, "timings", {}) or {}
    total = sum(steps.values())
    if not total:
        return "(no per-step timings in this version)"
    return ", ".join(f"{name} {seconds:.1f} s ({100 * seconds / total:.0f} %)" for name, seconds in steps.items())


def _steps_ms(report: Any) -> str:
    steps: dict[str, float] = getattr(report, "timings", {}) or {}
    return ", ".join(f"{name.split(' (')[0]} {1000 * seconds:.0f}" for name, seconds in steps.items())


def _segments(indexer: Indexer) -> tuple[int, ...]:
    """Segments of the served build's public and agent indexes (Whoosh's table of contents)."""
    build = getattr(indexer, "_build", None)
    if build is None:
        return ()
    found = []
    for sub in ("public", "all"):
        try:
            found.append(len(whoosh_index.open_dir(str(indexer.layout.build_dir(build) / sub))._segments()))
        except Exception:  # an older layout: say nothing rather than fail the bench
            found.append(-1)
    return tuple(found)


def _derived(indexer: Indexer) -> str:
    rules = getattr(indexer.manifest, "rules", None)
    if rules is None:
        return "?"
    return "all" if getattr(rules, "last_full", False) else str(getattr(rules, "last_derived", "?"))


class _Collections:
    """The garbage collections of a stretch of time: count and wall milliseconds per generation."""

    def __init__(self) -> None:
        self.found: dict[int, list[float]] = {}
        self._started = 0.0

    def __enter__(self) -> _Collections:
        gc.callbacks.append(self._callback)
        return self

    def __exit__(self, *exc_info: object) -> None:
        gc.callbacks.remove(self._callback)

    def clear(self) -> None:
        self.found = {}

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.found.setdefault(info["generation"], []).append(1000 * (time.perf_counter() - self._started))

    def summary(self) -> str:
        if not self.found:
            return "none"
        return " ".join(f"g{gen}: {len(times)}, {sum(times):.0f}" for gen, times in sorted(self.found.items()))


def _cpu_s(pid: int) -> float:
    """User + system CPU seconds of a live process (from /proc; 0.0 where there is none)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _floor(settings: WikiSettings, indexer: Indexer, work: Path, sample: list[str]) -> dict[str, tuple[float, float]]:
    """Whoosh's own cost for our schema, CPU milliseconds per document ``(adding,
    committing)`` of each writer, on the same entries as the build (both indexes):

    * ``whoosh``: Whoosh's ``SegmentWriter``, analysing every field value itself;
    * ``whoosh-preanalysed``: the same writer given the postings already analysed (as the
      build's writers are: :class:`~provider.search.prepared.AnalysedOnce`) — what Whoosh's
      writer costs for our schema whatever our analysis costs;
    * ``termwriter``: the provider's ``TermWriter`` given the same postings (the build's
      own writing);
    * ``one-field``: a bare index of one ``TEXT`` field (``StandardAnalyzer``) and an ``ID``
      over the same documents' text: Whoosh's minimum per document.
    """
    languages = indexer._languages
    assert indexer.manifest is not None
    from provider.wiki.copies import CopyGraph
    from provider.wiki.corpus import resolve
    resolved = resolve(indexer.manifest.docs, default_locale=settings.default_locale, copies=CopyGraph())
    docs = {relpath: load_document(settings, relpath) for relpath in sample}
    entries: list[tuple[bool, dict[str, Any]]] = []
    bodies: list[tuple[str, str]] = []
    for relpath, doc in docs.items():
        item = resolved[relpath]
        if doc is None or not hasattr(doc, "passages") or not item.served:
            continue
        for entry in index_entries(settings, languages, item, doc, public_view=False)[0]:  # type: ignore[arg-type]
            entries.append((False, entry))
        if item.public:
            for entry in index_entries(settings, languages, item, doc, public_view=True)[0]:  # type: ignore[arg-type]
                entries.append((True, entry))
        bodies.append((relpath, "\n".join(p.text for p in doc.passages)))  # type: ignore[union-attr]
    schema = build_schema(languages)
    analysed: dict[tuple[str, str], Any] = {}
    if AnalysedOnce is not None:
        for _, entry in entries:
            for name, value in entry.items():
                if name.startswith(("title_", "body_", "code_")) and value and (name, value) not in analysed:
                    analysed[(name, value)] = postings_of(schema[name], value)
    count = max(len(bodies), 1)

    def into(make: Any, preanalysed: bool) -> tuple[float, float]:
        folders = [work / "floor-public", work / "floor-all"]
        for folder in folders:
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
        writers = [make(whoosh_index.create_in(str(folder), schema)) for folder in folders]
        once = None
        if preanalysed:
            once = AnalysedOnce()
            once.postings.update(analysed)
            for writer in writers:
                once.attach(writer)
        c0 = time.process_time()
        for public, entry in entries:
            writers[0 if public else 1].add_document(**entry)
        c1 = time.process_time()
        for writer in writers:
            if once is not None:
                once.detach(writer)
            writer.commit()
        c2 = time.process_time()
        return 1000 * (c1 - c0) / count, 1000 * (c2 - c1) / count

    found = {"whoosh": into(lambda ix: ix.writer(limitmb=128), False)}
    if AnalysedOnce is not None:
        found["whoosh-preanalysed"] = into(lambda ix: ix.writer(limitmb=128), True)
        if TermWriter is not None:
            found["termwriter"] = into(lambda ix: TermWriter(ix, limitmb=128), True)
    minimal = work / "floor-minimal"
    shutil.rmtree(minimal, ignore_errors=True)
    minimal.mkdir()
    writer = whoosh_index.create_in(str(minimal), Schema(path=ID(stored=True), body=TEXT(analyzer=StandardAnalyzer())))
    writer = writer.writer(limitmb=128)
    c0 = time.process_time()
    for relpath, body in bodies:
        writer.add_document(path=relpath, body=body)
    c1 = time.process_time()
    writer.commit()
    found["one-field"] = (1000 * (c1 - c0) / count, 1000 * (time.process_time() - c1) / count)
    return found


#: What each line of the floor measures (see :func:`_floor`).
_FLOOR_LABELS = {
    "whoosh": "Whoosh's SegmentWriter, analysing (our schema, both indexes)",
    "whoosh-preanalysed": "Whoosh's SegmentWriter, postings given (Whoosh's own floor for our schema)",
    "termwriter": "the provider's TermWriter, postings given (the build's writing)",
    "one-field": "one TEXT field (StandardAnalyzer) and an ID, bare Whoosh",
}


def _tutorials(where: Path, count: int) -> None:
    """bench/search.py's wiki and query vocabulary, where its ``--index-dir`` finds them."""
    import json

    from search import build_wiki
    (where / "vocabulary.json").write_text(json.dumps(build_wiki(where / "wiki", count)))


def bench(count: int, work: Path, *, floor: bool, trials: int, bulk_files: int = 500, wiki: str = "random",
          profile: Path | None = None, heap: str = "frozen") -> None:
    if wiki == "tutorials":  # bench/search.py's layout: docs-N/wiki, docs-N/index-minimum
        content, index = work / f"docs-{count}" / "wiki", work / f"docs-{count}" / "index-minimum"
        reused = content.is_dir() and (index / "CURRENT").exists()
        if not content.is_dir():
            content.parent.mkdir(parents=True, exist_ok=True)
            _tutorials(content.parent, count)
        settings = WikiSettings(root=content, locales=("en", "de"))
        edited = "t01/doc-00001.md"

        def path_of(number: int) -> str:
            return f"t{number % 100:02d}/doc-{number:05d}.md"
    else:
        content, index = work / f"wiki-{count}", work / f"index-{count}"
        reused = content.is_dir() and index.is_dir()
        if not reused:
            generate(content, count)
        settings = WikiSettings(root=content)
        edited = "section-01/article-00001.md"

        def path_of(number: int) -> str:
            return f"section-{number % 50:02d}/article-{number:05d}.md"
    label = f"[{count:>6} docs]"
    started = time.perf_counter()
    cpu = time.process_time()
    with Indexer(settings, IndexLayout(index)) as indexer:
        report = indexer.sync()
        build_s = time.perf_counter() - started
        main_cpu = time.process_time() - cpu
        readers_cpu = sum(_cpu_s(worker.process.pid) for worker in indexer.reader._workers)
        what = "restart over a kept index (not a cold build)" if reused else "cold build"
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"{label} {what}: {build_s:6.1f} s = {count / build_s:5.0f} docs/s, "
              f"index {_size(index) / 1e6:.0f} MB, this process's peak RSS {peak:.0f} MiB "
              f"(load {os.getloadavg()[0]:.2f})", flush=True)
        print(f"{label}   steps: {_steps(report)}")
        # The reading phase runs on both CPUs, the rest on one: what an idle machine takes.
        idle_s = readers_cpu / 2 + main_cpu
        side_cpu = getattr(report, "side_writer_cpu_s", 0.0)
        print(f"{label}   CPU: this process {main_cpu:.1f} s, {len(indexer.reader._workers)} reader processes "
              f"{readers_cpu:.1f} s, public index writer process {side_cpu:.1f} s (beside this process's writer) "
              f"-> on two idle CPUs about {idle_s:.1f} s = {count / idle_s:5.0f} docs/s")
        if floor and not reused:
            sample = sorted(indexer.manifest.docs)[: min(count, 2000)] if indexer.manifest else []
            floor_s = _floor(settings, indexer, work, sample)
            print(f"{label}   Whoosh's floor on {len(sample)} of these documents, CPU per document (adding + "
                  f"committing; load {os.getloadavg()[0]:.2f}):")
            for name, (adding, committing) in floor_s.items():
                total = adding + committing
                print(f"{label}     {_FLOOR_LABELS[name]}: {adding:5.2f} + {committing:5.2f} = {total:5.2f} ms "
                      f"= {1000 / max(total, 1e-9):5.0f} docs/s on one CPU")
        # A word of this run: a kept wiki's files change again on the next run (new text,
        # new shingles), as a fresh one's do.
        if not trials:
            return
        run = f"run{time.time_ns() % 10**9}"
        relpath = edited
        path = content / relpath
        original = path.read_text("utf-8")
        collections = _Collections()
        if profile is not None:
            profile.mkdir(parents=True, exist_ok=True)
        # ``--heap both``: the same trials first with the collector seeing the whole heap
        # (gc.unfreeze: as before the indexer froze it), then as the indexer leaves it.
        modes = ("unfrozen", "frozen") if heap == "both" else (None,)
        print(f"{label}   per trial: wall / CPU ms, documents the rules derived, garbage collections "
              f"(generation: count, ms), segments before -> after (public, all), steps in ms", flush=True)
        trial = 0
        for mode in modes:
            if mode == "unfrozen":
                gc.unfreeze()
            elif mode == "frozen":
                settle_heap()
            timings, cpu_times = [], []
            with collections:
                for _ in range(trials):
                    path.write_text(original + f"\nEdit {trial} wombat{trial} {run}.\n", "utf-8")
                    segments = _segments(indexer)
                    collections.clear()
                    profiler = cProfile.Profile() if profile is not None else None
                    t0, c0 = time.perf_counter(), time.process_time()
                    if profiler is not None:
                        profiler.enable()
                    last = indexer.sync([relpath])
                    if profiler is not None:
                        profiler.disable()
                    timings.append(time.perf_counter() - t0)
                    cpu_times.append(time.process_time() - c0)
                    if profiler is not None and profile is not None:
                        profiler.dump_stats(str(profile / f"trial-{trial:03d}.prof"))
                    print(f"{label}     trial {trial:3d}{' ' + mode if mode else ''}: {1000 * timings[-1]:6.0f} / "
                          f"{1000 * cpu_times[-1]:6.0f} ms, derived {_derived(indexer)}, gc {collections.summary()}, "
                          f"segments {segments} -> {_segments(indexer)}; {_steps_ms(last)}", flush=True)
                    trial += 1
            print(f"{label}   last update's steps: {_steps(last)}")
            print(f"{label} one-file update (one batch, both commits{', heap ' + mode if mode else ''}): "
                  f"p50 {statistics.median(timings) * 1000:5.0f} ms, "
                  f"p95 {percentile(timings, 0.95) * 1000:5.0f} ms; CPU p50 {statistics.median(cpu_times) * 1000:4.0f} "
                  f"ms, p95 {percentile(cpu_times, 0.95) * 1000:4.0f} ms "
                  f"({trials} trials, load {os.getloadavg()[0]:.2f})", flush=True)
        if not bulk_files:
            return
        changed = []
        for i in range(1, bulk_files + 1):
            number = (i * 19) % count
            rel = path_of(number)
            target = content / rel
            text = target.read_text("utf-8")
            if i % 10 == 0:
                text = text.replace("audience: public", "audience: internal", 1)
            target.write_text(text + f"\nBulk change {i} {run} {run}x.\n", "utf-8")
            changed.append(rel)
        readers_cpu = sum(_cpu_s(worker.process.pid) for worker in indexer.reader._workers)
        t0, c0 = time.perf_counter(), time.process_time()
        bulk = indexer.sync(changed)
        print(f"{label} bulk change of {len(changed)} files in one batch: {time.perf_counter() - t0:5.2f} s "
              f"({bulk.written} written, {bulk.read} read; load {os.getloadavg()[0]:.2f})")
        print(f"{label}   steps: {_steps(bulk)}")
        # Wall time on a loaded machine says little: the CPU each process spent does.
        main_cpu = time.process_time() - c0
        readers_cpu = sum(_cpu_s(worker.process.pid) for worker in indexer.reader._workers) - readers_cpu
        side_cpu = getattr(bulk, "side_writer_cpu_s", 0.0)
        print(f"{label}   CPU: this process {main_cpu:.2f} s, reader processes {readers_cpu:.2f} s "
              f"({1000 * readers_cpu / max(bulk.read, 1):.1f} ms a file), second index writer {side_cpu:.2f} s "
              f"-> on two idle CPUs at least {max(main_cpu, readers_cpu / 2):.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--docs", default="10000", help="comma-separated document counts")
    parser.add_argument("--trials", type=int, default=20, help="one-file updates per size")
    parser.add_argument("--no-floor", action="store_true", help="skip the bare-Whoosh measurement")
    parser.add_argument("--bulk", type=int, default=500, help="files of the bulk change (0: none)")
    parser.add_argument("--wiki", choices=("random", "tutorials"), default="random",
                        help="random words (few near-copies), or bench/search.py's wiki (paragraphs of the same "
                             "tutorials: many near-copies, as a wiki of much shared boilerplate)")
    parser.add_argument("--workdir", type=Path, default=None,
                        help="keep the wikis and indexes here and reuse them on the next run (a restart "
                             "over the kept index instead of a cold build; the updates are measured the same)")
    parser.add_argument("--profile", type=Path, default=None,
                        help="profile each one-file update with cProfile into DIR/trial-NNN.prof (slower: for "
                             "where the time goes, not for the figures)")
    parser.add_argument("--heap", choices=("frozen", "both"), default="frozen",
                        help="both: the one-file updates first with the collector seeing the whole heap "
                             "(gc.unfreeze, as before the indexer froze it after the first sync), then as the "
                             "indexer leaves it: before and after side by side in one run")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load {os.getloadavg()}; code {ROOT}")
    with contextlib.ExitStack() as stack:
        if args.workdir is None:
            work = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="kp-build-")))
        else:
            work = args.workdir
            work.mkdir(parents=True, exist_ok=True)
        for size in (int(s) for s in args.docs.split(",") if s):
            bench(size, work, floor=not args.no_floor, trials=args.trials, bulk_files=args.bulk, wiki=args.wiki,
                  profile=args.profile, heap=args.heap)


if __name__ == "__main__":
    main()
