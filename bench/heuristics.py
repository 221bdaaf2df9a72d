"""What the withholding heuristics do to real sites: prints figures, asserts nothing.

    nice python bench/heuristics.py                    # every corpus in ../shared/corpora
    python bench/heuristics.py kaia-docs astro-docs    # some
    python bench/heuristics.py --corpora DIR           # corpora elsewhere
    python bench/heuristics.py --internal kaia-docs=docs/misc/** kaia-docs

``--files`` reads each file alone (:func:`provider.wiki.document.parse_document`, as the
indexer reads it) without the corpus-wide rules (copies, translations): the per-file
heuristics — body wording, would-be markers and hidden HTML, restricting front matter,
meta-refresh pages — in minutes instead of the full check's half hour; it lists every
file a per-file heuristic touches and why.

``--internal NAME=GLOB`` (repeatable) first makes the folder internal, as an operator
archiving old pages would: the public pages the copy rules then demote are listed (their
false positives are what a reader of the two pages would disagree with).

Each corpus is read exactly as ``knowledge-provider check`` reads it
(:func:`provider.wiki.check.check_wiki`), with the operator configuration in
``bench/corpora/NAME.yaml`` (its ``content`` replaced by ``DIR/NAME``). For every page a
heuristic (:mod:`provider.wiki.findings`) withholds, quarantines, makes internal or hides a
section of, it prints the rule, the line and the matching text; accepted findings are
listed apart. Then per corpus: pages, pages in the public index, and the pages touched by
each heuristic. Every page listed is a page a reader must agree with (see
docs/how-to/findings.md).
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import os
import re
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from provider.config import load_config  # noqa: E402 - after the path set-up above
from provider.wiki.check import FileCheck, check_wiki  # noqa: E402
from provider.wiki.classify import AudienceRule  # noqa: E402
from provider.wiki.findings import NEAR_COPY, read_finding  # noqa: E402

CORPORA = Path(os.environ.get("KP_CORPORA") or ROOT.parent / "shared" / "corpora")
#: A fixed clock: publication dates compare the same on every run.
NOW = dt.datetime(2026, 9, 1, tzinfo=dt.UTC)


def _effect(entry: FileCheck, code: str) -> str:
    item = entry.resolved
    if item is None:
        return "skipped"
    if not item.served:
        return "withheld from everyone"
    if code in ("hiding-heading", "hiding-label", "hiding-note", "todo-internal"):
        return "section internal" if item.audience == "public" else "section internal (page internal anyway)"
    return "internal (quarantined)" if item.quarantined else "internal"


#: How a tree that did not record findings worded them in a document's errors.
_BASELINE = (("front matter must start on the very first line", "misplaced-front-matter"),
             ("sets an audience key outside the front matter", "audience-in-header-lines"),
             ("looks like an internal-section marker", "would-be-marker"))


def _reason(withheld: str) -> str:
    """A withholding reason without the paths and figures in it, to count by."""
    words = re.sub(r"\S*/\S*|\(similarity [\d.]+\)|'[^']*'|\d+", "…", withheld)
    return " ".join(words.split())[:90]


def findings_of(entry: FileCheck) -> list[tuple[str, int, str, bool]]:
    """``(code, line, text, accepted)`` of every heuristic finding of one checked file."""
    item = entry.resolved
    if item is None:
        return []
    if not hasattr(item.meta, "findings"):  # a tree before findings were recorded (a baseline)
        found = [(code, 0, error, False) for error in item.meta.errors for prefix, code in _BASELINE
                 if prefix in error]
    else:
        accepted = set(item.meta.accepted)
        found = [(*read_finding(stored), read_finding(stored)[0] in accepted) for stored in item.meta.findings]
    for reason in item.quarantine:
        if reason.startswith(("nearly the same text as", "holds a paragraph of", "holds the text of")):  # 6-6d
            found.append((NEAR_COPY, 0, reason, False))
    found += [(NEAR_COPY, 0, problem, True) for problem in item.problems if problem.startswith("accepted near-copy")]
    return found


def run(name: str, corpora: Path, internal: tuple[str, ...] = ()) -> Counter[str]:
    config = load_config(ROOT / "bench" / "corpora" / f"{name}.yaml")
    settings = dataclasses.replace(config.wiki_settings(), root=corpora / name)
    if internal:
        rules = tuple(AudienceRule(glob, "internal") for glob in internal)
        settings = dataclasses.replace(settings, audience_rules=(*rules, *settings.audience_rules))
    started = time.monotonic()
    report = check_wiki(settings, now=NOW)
    took = time.monotonic() - started
    counts: Counter[str] = Counter()
    accepted_lines = []
    print(f"== {name}: {settings.root}" + (f" (made internal: {', '.join(internal)})" if internal else ""))
    for entry in report.files:
        findings = findings_of(entry)
        for code, line, text, accepted in findings:
            where = f"{entry.path}:{line}" if line else entry.path
            if accepted:
                accepted_lines.append(f"  accepted  {code:24} {where}  {text}")
                continue
            counts[code] += 1
            print(f"  {_effect(entry, code):34} {code:24} {where}  {text}")
    for line in accepted_lines:
        print(line)
    reasons = Counter(_reason(f.resolved.withheld) for f in report.files
                      if f.resolved is not None and f.resolved.withheld)
    for reason, count in reasons.most_common():
        print(f"   withheld {count:5}: {reason}")
    summary = report.summary()
    touched = ", ".join(f"{code} {n}" for code, n in sorted(counts.items())) or "none"
    print(f"   {summary['files']} files, {summary['served']} served, {summary['publicIndex']} in the public index, "
          f"{summary['withheld']} withheld, {summary['quarantined']} quarantined; heuristic findings: {touched} "
          f"({took:.0f} s)")
    return counts


def run_files(name: str, corpora: Path) -> Counter[str]:
    """The per-file heuristics of every file of one corpus, read alone (``--files``)."""
    from provider.wiki.document import WikiDocument, parse_document
    from provider.wiki.findings import HEURISTIC_CODES

    config = load_config(ROOT / "bench" / "corpora" / f"{name}.yaml")
    settings = dataclasses.replace(config.wiki_settings(), root=corpora / name)
    started = time.monotonic()
    counts: Counter[str] = Counter()
    files = 0
    print(f"== {name} (files read alone): {settings.root}")
    for path in sorted(settings.root.rglob("*")):
        if path.suffix.lower() not in (".md", ".mdx", ".markdown") or not path.is_file():
            continue
        files += 1
        relpath = path.relative_to(settings.root).as_posix()
        data = path.read_bytes()
        doc = parse_document(settings, relpath, data, size=len(data), mtime_ns=0)
        if not isinstance(doc, WikiDocument):
            continue
        for stored in doc.meta.findings:
            code, line, text = read_finding(stored)
            if code in HEURISTIC_CODES:
                counts[code] += 1
                print(f"  {code:24} {relpath}:{line}  {text}")
        for error in doc.meta.errors:
            if "may restrict who reads" in error or "hidden text" in error:
                kind = "restricting-key" if "may restrict" in error else "meta-refresh"
                counts[kind] += 1
                print(f"  {kind:24} {relpath}  {error[:160]}")
    touched = ", ".join(f"{code} {n}" for code, n in sorted(counts.items())) or "none"
    print(f"   {files} files; per-file heuristic findings: {touched} ({time.monotonic() - started:.0f} s)")
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="*", help="corpora (default: every one with a bench/corpora/NAME.yaml)")
    parser.add_argument("--corpora", type=Path, default=CORPORA)
    parser.add_argument("--internal", action="append", default=[], metavar="NAME=GLOB",
                        help="make a folder of corpus NAME internal first (repeatable)")
    parser.add_argument("--files", action="store_true",
                        help="only the per-file heuristics, each file read alone (fast)")
    args = parser.parse_args()
    internal: dict[str, list[str]] = {}
    for item in args.internal:
        name, _, glob = item.partition("=")
        internal.setdefault(name, []).append(glob)
    names = args.names or sorted(p.stem for p in (ROOT / "bench" / "corpora").glob("*.yaml")
                                 if (args.corpora / p.stem).is_dir())
    total: Counter[str] = Counter()
    for name in names:
        total += run_files(name, args.corpora) if args.files else run(name, args.corpora,
                                                                        tuple(internal.get(name, ())))
    print(f"all corpora: {', '.join(f'{c} {n}' for c, n in sorted(total.items())) or 'no heuristic finding'}")


if __name__ == "__main__":
    main()
