"""Memory and CPU of building the vocabulary's deletion indexes (issue 16), what a worker
does in a thread when it opens a build: every segment and language of both indexes.

    nice .venv/bin/python bench/spelling_build.py --index INDEX [--baseline TREE]

``INDEX``: an index folder (``bench/search.py``'s ``--index-dir``/``index-minimum``, for
example). With ``--baseline``, the same with ``provider/search/spelling.py`` of another
source tree, interleaved in this process (three rounds each). Prints, per tree: entries,
the MiB the indexes hold and the build's peak (tracemalloc, one round), the median CPU
seconds without tracemalloc, and whether both trees' indexes answer 1,000 misspelt
look-ups alike.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import random
import statistics
import sys
import time
import tracemalloc
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from whoosh.index import open_dir  # noqa: E402

from provider.search.schema import body_field, code_field, title_field  # noqa: E402


def _module(tree: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, tree / "provider" / "search" / "spelling.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _build(module: ModuleType, readers: list[tuple[str, Any]]) -> list[Any]:
    vocabulary = module.VocabularyIndexes()
    built: list[Any] = []
    for scope, reader in readers:
        # Every analysis language of the index: its body field is body_<language>.
        prefix = body_field("")
        for language in sorted({name[len(prefix):] for name in reader.schema.names() if name.startswith(prefix)}):
            fields = [field(language) for field in (title_field, body_field, code_field)]
            if any(field in reader.schema for field in fields):
                built += vocabulary.of(scope, reader, fields, language)
    return built


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--index", type=Path, required=True)
    parser.add_argument("--baseline", type=Path, help="another source tree, measured beside this one")
    args = parser.parse_args()
    build = (args.index / "CURRENT").read_text().strip()
    folders = sorted(p for p in (args.index / "builds" / build).iterdir() if p.is_dir())
    readers = [(str(folder), open_dir(str(folder)).reader()) for folder in folders]
    trees = {"this": ROOT} | ({"baseline": args.baseline.resolve()} if args.baseline else {})
    modules = {label: _module(tree, f"spelling_{label}") for label, tree in trees.items()}
    memory: dict[str, tuple[int, float, float]] = {}
    for label, module in modules.items():
        gc.collect()
        tracemalloc.start()
        base = tracemalloc.get_traced_memory()[0]
        built = _build(module, readers)
        held, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        memory[label] = (sum(index.entries for index in built), (held - base) / 2**20, (peak - base) / 2**20)
        del built
    cpu: dict[str, list[float]] = {label: [] for label in modules}
    answers: dict[str, list[Any]] = {}
    for _ in range(3):
        for label, module in modules.items():
            gc.collect()
            started = time.process_time()
            built = _build(module, readers)
            cpu[label].append(time.process_time() - started)
            answers[label] = built
    rng = random.Random(16)
    terms = sorted(answers["this"][0].terms) if answers["this"] else []
    words = []
    for term in rng.sample(terms, min(1000, len(terms))):
        at = rng.randrange(min(2, len(term)), len(term)) if len(term) > 2 else 0
        words.append(term[:at] + rng.choice("aeiost") + term[at + 1:])
    found = {label: [[index.within(word, 2) for index in built] for word in words] for label, built in answers.items()}
    for label in modules:
        entries, held_mib, peak_mib = memory[label]
        print(f"{label:9} {trees[label]}: {entries:,} entries, held {held_mib:.1f} MiB, build peak {peak_mib:.1f} MiB "
              f"(tracemalloc), CPU median {statistics.median(cpu[label]):.2f} s of {[round(c, 2) for c in cpu[label]]}")
    if args.baseline:
        print("same answers on", len(words), "misspelt look-ups:", found["this"] == found["baseline"])


if __name__ == "__main__":
    main()
