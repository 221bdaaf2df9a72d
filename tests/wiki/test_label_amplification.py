"""One doubtful label withholds no other page (CONTRACT X2, X5; issue 24).

Our own docs showed the class: a settings table whose row holds a cell "(agents only)"
made that row an internal section (``hiding-cell``), and rule 6d then withheld 8 to 19
of 37 pages for holding a few of the row's rare words. Text that only a label in a table
cell, a paragraph's opening, a footnote or a definition term hides
(:data:`provider.wiki.body_markers.LABEL_CODES`) is a source of rule 6d only for a long
verbatim run (:func:`provider.wiki.containment.contained`). Tested as a class: a
generator makes wikis of ten pages sharing the row's vocabulary, with the label in
several places; the row itself stays internal, the other pages public; a page that
pastes the row as written is still not public (the leak stays closed).
"""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provider.wiki.check import check_wiki
from provider.wiki.document import WikiSettings

#: The row's rare words: a setting and what it does, which the site's other pages talk about.
VOCABULARY = ("retention quarantine webhook throttle signature replay allowlist rotation "
              "escalation tenant sandbox audit ledger payload override").split()
FILLER = ("install configure widget dashboard export report screen button account profile "
          "language theme browser mobile tablet desktop chart table filter column").split()

#: Where the doubtful label stands: (label, how the row is written around ``{text}``).
PLACES = {
    "cell": "| Setting | Notes |\n|---|---|\n| `{name}` | {text} (agents only) |\n| `colour` | The theme colour. |",
    "opening": "**Agents only:** {text}",
    "term": "Agents only\n: {text}",
}


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")


def _page(title: str, paragraphs: list[str]) -> str:
    return f"---\ntitle: {title}\naudience: public\n---\n# {title}\n\n" + "\n\n".join(paragraphs) + "\n"


def _public(site: Path) -> set[str]:
    return {e.path for e in check_wiki(WikiSettings(root=site)).files if e.resolved is not None and e.resolved.public}


def _wiki(seed: int, place: str, pages: int) -> tuple[dict[str, str], str]:
    """A wiki of ``pages`` public pages sharing the vocabulary of one settings row that a
    doubtful label hides, and the row's text."""
    rng = random.Random(seed)
    row = " ".join(rng.sample(VOCABULARY, 12))
    text = f"Sets {row} window."
    settings_page = _page("Settings", [f"{' '.join(rng.choices(FILLER, k=14))}.",
                                       PLACES[place].format(name="replay_window", text=text)])
    files = {"settings.md": settings_page}
    words = row.split()
    for number in range(pages - 1):
        # Each page talks about the same topic: two of the row's phrases (4 words each),
        # so that the pages together hold most of its words (rule 6d's "part" path).
        phrases = [" ".join(words[at:at + 4]) for at in rng.sample(range(len(words) - 3), 2)]
        files[f"guide/p{number}.md"] = _page(f"Guide {number}", [
            f"{' '.join(rng.choices(FILLER, k=10))} {phrases[0]} {' '.join(rng.choices(FILLER, k=6))}.",
            f"{' '.join(rng.choices(FILLER, k=8))} {phrases[1]} {' '.join(rng.choices(FILLER, k=7))}.",
        ])
    return files, text


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), place=st.sampled_from(sorted(PLACES)))
def test_x5_a_doubtful_label_withholds_no_page_sharing_its_words(tmp_path_factory, seed, place) -> None:  # type: ignore[no-untyped-def]
    """X5 (the balance): ten pages sharing a doubtfully labelled row's rare words, in
    their own order, stay public; only the labelled row is internal (the settings page
    keeps its public text)."""
    files, _ = _wiki(seed, place, 10)
    site = tmp_path_factory.mktemp("site")
    _write(site, files)
    assert _public(site) == set(files)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), place=st.sampled_from(sorted(PLACES)))
def test_x2_a_doubtfully_labelled_row_pasted_as_written_is_not_public(tmp_path_factory, seed, place) -> None:  # type: ignore[no-untyped-def]
    """X2 (the leak stays closed): a page that pastes the labelled row's text as written,
    inside its own paragraph, is not public."""
    files, text = _wiki(seed, place, 4)
    rng = random.Random(seed)
    around = " ".join(rng.choices(FILLER, k=12)), " ".join(rng.choices(FILLER, k=5))
    files["leak.md"] = _page("Leak", [f"{around[0]}. {text} {around[1]}."])
    site = tmp_path_factory.mktemp("site")
    _write(site, files)
    public = _public(site)
    assert "leak.md" not in public
    assert {p for p in files if p.startswith("guide/")} <= public
