"""Where the near-copy threshold falls on a real translated docs site.

Reads a Docusaurus site (default: ``../shared/corpora/kaia-docs``) exactly as the
provider does and prints, for every translation under ``i18n/`` whose translation group
has an English source, the estimated Jaccard similarity of its word shingles to that
source (:mod:`provider.wiki.copies`): real translations sit near 0, untranslated copies
near 1. It also prints the pairs of *different* translation groups whose texts are
near-copies (what the rule would act on if one of them were internal), and what the
rule catches when part of the site is moved to an internal archive, as in issue 11.

    python bench/copies.py [--site PATH] [--archive docs/misc]
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from provider.wiki.classify import AudienceRule  # noqa: E402 - after the path set-up above
from provider.wiki.copies import NEAR_COPY_JACCARD, near_copies, similarity  # noqa: E402
from provider.wiki.corpus import resolve  # noqa: E402
from provider.wiki.document import WikiDocument, WikiSettings, load_document  # noqa: E402
from provider.wiki.files import discover  # noqa: E402

BUCKETS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.01)


def _histogram(values: list[float]) -> str:
    counts = Counter(next(f"{lo:.1f}–{hi:.1f}" for lo, hi in itertools.pairwise(BUCKETS) if v < hi)
                     for v in values)
    return "  ".join(f"{k}: {counts[k]}" for k in
                     (f"{lo:.1f}–{hi:.1f}" for lo, hi in itertools.pairwise(BUCKETS)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--site", type=Path, default=ROOT.parent / "shared" / "corpora" / "kaia-docs")
    parser.add_argument("--archive", default="docs/misc", help="folder treated as moved to an internal archive")
    args = parser.parse_args()
    rules = (AudienceRule(f"{args.archive}/**", "internal"), AudienceRule("**", "public"))
    settings = WikiSettings(root=args.site, layout="docusaurus", locales=("en", "ja", "ko", "vi", "zh-CN", "zh-TW"),
                            audience_rules=rules)
    started = time.monotonic()
    found = discover(args.site, extensions=settings.file_extensions, max_file_bytes=settings.max_file_bytes,
                     ignore=settings.preset.ignore)
    docs = {p: d for p in sorted(found.files) if isinstance(d := load_document(settings, p), WikiDocument)}
    read_s = time.monotonic() - started
    metas = {p: d.meta for p, d in docs.items()}
    sources = {m.translation_group: m for m in metas.values() if m.locale == "en"}
    pairs = [(p, similarity(m.sketch, sources[m.translation_group].sketch)) for p, m in metas.items()
             if m.locale != "en" and m.translation_group in sources and m.sketch]
    print(f"{len(docs)} documents read in {read_s:.1f} s from {args.site}")
    print(f"translation vs its en source ({len(pairs)} pairs), estimated Jaccard of 3-word shingles:")
    print("  " + _histogram([s for _, s in pairs]))
    above = [p for p, s in pairs if s >= NEAR_COPY_JACCARD]
    share = 100 * len(above) / max(len(pairs), 1)
    print(f"  at or above the threshold {NEAR_COPY_JACCARD}: {len(above)} ({share:.1f} %)")
    sketches = {p: m.sketch for p, m in metas.items() if m.sketch}
    cross = near_copies(sketches, sketches)
    other_group = sum(1 for p, hits in cross.items()
                      for q, _ in hits if metas[q].translation_group != metas[p].translation_group)
    print(f"near-copy pairs across different translation groups (any audience): {other_group // 2}")
    started = time.monotonic()
    resolved = resolve(metas, default_locale="en", layout=settings.preset)
    resolve_s = time.monotonic() - started
    copies = [p for p, r in resolved.items() if any("nearly the same text" in q for q in r.quarantine)]
    unbuilt = [p for p, r in resolved.items() if r.withheld and r.withheld.startswith("not a page")]
    leaked = [p for p, r in resolved.items() if r.public and p.startswith("i18n/")
              and r.meta.translation_group.startswith(args.archive)]
    print(f"with {args.archive}/** internal: {sum(1 for p in metas if p.startswith(args.archive))} archived pages; "
          f"{len(copies)} public near-copies made internal or withheld; {len(unbuilt)} i18n files not built "
          f"(no source page); translations of archived pages still public: {len(leaked)}; resolve {resolve_s:.2f} s")


if __name__ == "__main__":
    main()
