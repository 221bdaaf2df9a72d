"""A wiki document as the units of its index entries: the part no corpus rule can change.

The entries' text fields, passage terms and the analysed postings of every searched field
depend only on the file itself, not on its audience or translation group, so they are made
in the reader processes, beside the parsing (:func:`prepare`), and handed to the writers as
they are (:mod:`provider.search.prepared`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache

from helpthread_kit.locales import language_of

from ..search.analysis import analysis_language, schema_languages, terms
from ..search.prepared import Unit, pack
from ..search.schema import body_field, code_field, title_field
from ..search.snippets import passage_terms
from ..wiki.chunks import split_chunks
from ..wiki.document import WikiDocument, WikiSettings
from ..wiki.passages import Passage
from .vectors import with_vectors

__all__ = ["prepare", "text_units"]


def _display_texts(passages: Iterable[Passage], title: str,
                   text_of: Callable[[Passage], str] | None = None) -> tuple[str, ...]:
    """Passage texts as a snippet shows them: the first passage of a section starts with
    its heading (unless the heading merely repeats the title), so a match in a heading
    is visible in the snippet. ``text_of`` gives a passage's text (default: ``text``)."""
    texts = []
    previous = None
    folded = title.casefold()
    for passage in passages:
        text = passage.text if text_of is None else text_of(passage)
        starts_section = passage.heading and passage.heading != previous
        if starts_section and passage.heading.casefold() != folded:
            texts.append(f"{passage.heading} — {text}")
        else:
            texts.append(text)
        previous = passage.heading
    return tuple(texts)


def _prose(passage: Passage) -> str:
    """The passage's text without the text of its code blocks."""
    text = passage.text
    for piece in passage.code:
        text = text.replace(piece, " ", 1)
    return " ".join(text.split())


def _mostly_code(passage: Passage) -> bool:
    return 2 * sum(len(piece) for piece in passage.code) > len(passage.text)


@lru_cache(maxsize=4096)
def _passage_terms(language: str, heading: str, text: str) -> str:
    """A passage's stored terms; remembered, because the public and the agent index of a
    document without internal sections hold the same passages."""
    return passage_terms(terms(heading, language), terms(text, language))


def text_units(settings: WikiSettings, languages: tuple[str, ...], document: WikiDocument, *,
               public_view: bool) -> tuple[Unit, ...]:
    """The units of one document in one index: one per chunk (:mod:`provider.wiki.chunks`),
    with or without ``settings.chunking`` — without it each chunk stands for the whole
    document, so a long document is scored by its best-matching section; a document
    without passages gets one unit (still found by its title). The public view holds the
    text outside internal sections only."""
    meta = document.meta
    passages = document.public_passages if public_view else document.passages
    language = analysis_language(meta.locale, languages)
    pieces: list[tuple[str | None, str, tuple[Passage, ...]]]
    pieces = [(chunk.id, chunk.anchor, tuple(chunk.passages)) for chunk in split_chunks(passages)]
    if not pieces and not settings.chunking:
        pieces = [(None, "", tuple(passages))]
    units = []
    for chunk_id, anchor, unit_passages in pieces:
        display = _display_texts(unit_passages, meta.title)
        prose = _display_texts(unit_passages, meta.title, _prose)
        units.append(Unit(chunk_id, anchor, {
            "key": meta.relpath if chunk_id is None else f"{meta.relpath}#{chunk_id}",
            "path": meta.relpath,
            "lang": language_of(meta.locale),
            "locale": meta.locale.lower(),
            title_field(language): meta.title,
            body_field(language): "\n".join(prose),
            code_field(language): "\n".join(" ".join(p.code) for p in unit_passages if p.code),
            "passages": display,
            "passage_terms": tuple(_passage_terms(language, p.heading, p.text) for p in unit_passages),
            "passage_internal": tuple(i for i, p in enumerate(unit_passages) if p.internal),
            "passage_code": tuple(i for i, p in enumerate(unit_passages) if _mostly_code(p)),
        }, tuple(p.heading_anchor or p.anchor for p in unit_passages) if chunk_id is not None else ()))
    if settings.semantic_model is not None:
        return with_vectors(settings.semantic_model, meta.title, tuple(units))
    return tuple(units)


def prepare(settings: WikiSettings, document: WikiDocument) -> bytes:
    """Run in a reader process: the document's units for the agent index and (when it
    has text outside internal sections) the public one, with the postings of their
    searched field values (:func:`~provider.search.prepared.pack`; read back by
    :func:`~provider.search.prepared.load`)."""
    languages = schema_languages(settings.known_locales)
    views = {False: text_units(settings, languages, document, public_view=False)}
    if document.meta.public_text:
        # Without internal sections both views hold the same passages, hence the same
        # units (text_units reads nothing else of the view): made once, pickled once.
        same = document.public_passages is document.passages
        views[True] = views[False] if same else text_units(settings, languages, document, public_view=True)
    return pack(languages, views)
