"""Near-copies on a real Docusaurus site (issue 11): the threshold measured on kaia-docs
(``../shared/corpora/kaia-docs``, read-only; ``bench/copies.py`` prints the whole site's
distribution).

The issue's case, rebuilt from real pages: half of ``docs/misc/`` is moved into an
internal ``docs/archive/``, its translations stay at the old paths under ``i18n/``, and
lightly edited English copies of the archived pages are put under a public path. Every
copy must be served as internal and quarantined, every orphaned translation left unserved,
and the real (Japanese, Korean) translations of the pages that stayed must stay public.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from provider.wiki.classify import AudienceRule
from provider.wiki.corpus import resolve
from provider.wiki.document import WikiDocument, WikiSettings, load_document
from provider.wiki.files import discover
from tests.corpora import corpus_path, require_corpus

SITE = corpus_path("kaia-docs")
I18N = "i18n/{locale}/docusaurus-plugin-content-docs/current"
pytestmark = pytest.mark.slow


@pytest.fixture(autouse=True)
def _kaia_docs() -> None:
    require_corpus("kaia-docs")


def _edited(text: str, share: float, seed: int) -> str:
    """``text`` with ``share`` of its body words replaced (front matter kept)."""
    rng = random.Random(seed)
    words = text.split(" ")
    for _ in range(int(len(words) * share)):
        words[rng.randrange(len(words))] = rng.choice(["the", "a", "node", "chain", "token"])
    return " ".join(words)


def test_x2_copies_of_archived_pages_are_caught_and_real_translations_are_not(tmp_path: Path) -> None:
    assert SITE is not None
    pages = sorted(p.name for p in (SITE / "docs" / "misc").glob("*.md"))
    archived, kept = pages[::2], pages[1::2]
    for name in pages:
        target = tmp_path / "docs" / ("archive" if name in archived else "misc") / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(SITE / "docs" / "misc" / name, target)
        for locale in ("ja", "ko"):
            source = SITE / I18N.format(locale=locale) / "misc" / name
            if source.is_file():
                copy = tmp_path / I18N.format(locale=locale) / "misc" / name
                copy.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(source, copy)
    for i, name in enumerate(archived):
        text = (SITE / "docs" / "misc" / name).read_text("utf-8")
        (tmp_path / "docs" / "kb").mkdir(parents=True, exist_ok=True)
        (tmp_path / "docs" / "kb" / f"copy-{name}").write_text(_edited(text, 0.03, i), "utf-8")
    rules = (AudienceRule("docs/archive/**", "internal"), AudienceRule("**", "public"))
    settings = WikiSettings(root=tmp_path, layout="docusaurus", locales=("en", "ja", "ko"), audience_rules=rules)
    found = discover(tmp_path, extensions=settings.file_extensions, max_file_bytes=settings.max_file_bytes,
                     ignore=settings.preset.ignore)
    docs = {p: d for p in found.files if isinstance(d := load_document(settings, p), WikiDocument)}
    out = resolve({p: d.meta for p, d in docs.items()}, default_locale="en", layout=settings.preset)

    copies = [p for p in out if p.startswith("docs/kb/")]
    assert copies and all(not out[p].public and out[p].quarantined for p in copies), [
        p for p in copies if out[p].public]
    orphans = [p for p in out if p.startswith("i18n/") and p.rsplit("/", 1)[-1] in archived]
    assert orphans and all(not out[p].served for p in orphans)
    translations = [p for p in out if p.startswith("i18n/") and p.rsplit("/", 1)[-1] in kept]
    false_positives = [p for p in translations if any("nearly the same" in q for q in out[p].quarantine)]
    untranslated = [p for p in translations if not out[p].served]
    assert translations and not false_positives, false_positives
    withheld = [(p, out[p].quarantine) for p in translations if p not in untranslated and not out[p].public]
    assert not withheld, withheld
