"""The Whoosh schema of both indexes (public and all).

Everything a result needs is stored at index time, so a search reads stored fields and
does no Markdown, YAML or file work. Bump :data:`SCHEMA_VERSION` on any change here:
an index built with another version is rebuilt aside and swapped in on start. The
analysis languages are part of the settings key, so changing ``locales`` rebuilds too.
"""

from __future__ import annotations

from collections.abc import Iterable

from whoosh.columns import FixedBytesColumn, VarBytesColumn
from whoosh.fields import COLUMN, ID, STORED, TEXT, Schema

from .analysis import ANY, analyzer_for

__all__ = ["BODY_BOOST", "CODE_BOOST", "PASSAGE_VECTOR_FIELD", "SCHEMA_VERSION", "SYNC_CURRENT", "SYNC_STALE",
           "TITLE_BOOST", "VECTOR_FIELD",
           "body_field", "build_schema", "code_field", "has_vectors", "languages_of", "title_field",
           "vector_bytes"]

# 22: PINs said before "and", after an aside, first, or in a table's column (k:); other digits as ASCII;
# 21: searched text fields keep term frequencies, not positions (nothing reads them);
# 20: 19's two halves together (each merged alone as 19): whole labelled values (rule 6d parts);
# 19: a page's tokens after its skeleton (j:), a lone PIN's digits (k:), PIN skeletons by digits;
# 18: secret values' pieces, their sentence's code pairs, labelled skeletons (l:);
# 17: code blocks marked x: (their parts are read as written);
# 16: secret-shaped values marked v: (never common); 15: short command lines marked c:
SCHEMA_VERSION = 22
# (14: respelled blocks store their words, secret forms widened (issue 24))
# (13: short public blocks store their words)
# (12: hidden blocks store names, secrets as skeletons)
# (11: rule 6d stores secret values and name lists)
# (10: code pairs, sentence entries)
# (9: block words beside shingles; 8: block shingles on DocumentMeta)
#: Values of the stored ``sync`` field that a search reads back (``freshness``): a
#: translation current with its source, or stale. The indexing pipeline maps the corpus
#: rules' translation sync states onto these; any other value reads as unknown.
SYNC_CURRENT, SYNC_STALE = "current", "stale"
#: BM25F field weight of the title relative to the body (1.0).
TITLE_BOOST = 2.5
#: BM25F field weight of the body (prose).
BODY_BOOST = 1.0
#: BM25F field weight of the text of code blocks: below prose, so the prose explaining a
#: command outranks a code sample that merely contains it.
CODE_BOOST = 0.3


def title_field(language: str) -> str:
    return f"title_{language}"


def body_field(language: str) -> str:
    return f"body_{language}"


def code_field(language: str) -> str:
    return f"code_{language}"


def languages_of(schema: Schema) -> tuple[str, ...]:
    """The analysis languages an index was built with (from its field names), sorted,
    ``any`` last."""
    found = [name[len("body_"):] for name in schema.names() if name.startswith("body_")]
    return tuple(sorted(found, key=lambda language: (language == ANY, language)))


#: The column of an entry's embedding (``semanticSearch`` only): the unit vector of the
#: entry's own text, ``float16`` bytes (:func:`~provider.search.embedding.to_bytes`), kept
#: as a fixed-width column so a segment's vectors are read as one array.
VECTOR_FIELD = "vector"
#: The column of an entry's passage embeddings (``semanticSearch`` only): one unit vector
#: per stored passage, in the order of ``passages``, each as :data:`VECTOR_FIELD`'s bytes,
#: concatenated (an entry without passages: empty). Beside the entry's own vector in the
#: same Whoosh entry, so a passage's vector is added and deleted with its text.
PASSAGE_VECTOR_FIELD = "passage_vectors"


def has_vectors(schema: Schema) -> bool:
    """Whether an index was built with a vector per entry."""
    return VECTOR_FIELD in schema.names()


def vector_bytes(schema: Schema) -> int:
    """Bytes of one stored vector (``2·d``), 0 for an index without vectors."""
    if VECTOR_FIELD not in schema.names():
        return 0
    return int(schema[VECTOR_FIELD].column_type._fixedlen)


def build_schema(languages: Iterable[str], *, vector_bytes: int = 0) -> Schema:
    """Fields:

    * ``key`` — unique: the file's path relative to the content root, and ``#`` and the
      chunk id when the index holds chunks;
    * ``path`` — the file's path (every chunk of a file shares it: deleting by ``path``
      removes a document with all its chunks), also a column;
    * ``lang`` — the language subtag of the document's locale (documents per language);
    * ``locale`` — the document's locale, lowercased (the locale filter), also a column;
    * ``group`` — a column: the translation group key, ``""`` for a document in none
      (locale ranking and one answer per group read columns, not stored fields);
    * ``title_<L>``, ``body_<L>``, ``code_<L>`` — searched (BM25F), not stored, one set per
      analysis language ``L`` (:mod:`provider.search.analysis`); a document fills only the
      set of its language; ``body`` holds the prose, ``code`` the text of code blocks
      (weighed less). Their postings hold term frequencies, not positions (Whoosh's
      ``Frequency`` format): a search scores by the weights alone and builds no phrase
      query, and snippets are cut from stored passages;
    * ``doc`` — stored: the result's fixed fields (id, title, audience, revision, locale,
      group, review date, translation sync state, URL, chunk id);
    * ``passages`` — stored: the passage texts snippets are cut from (a section's first
      passage starts with its heading);
    * ``passage_terms`` — stored: each passage's analysed terms and pairs of adjacent terms
      (with its heading's), so picking the best passage needs no analysis at query time;
    * ``passage_internal`` — stored: indexes of passages from internal sections (always
      empty in the public index, which never receives those passages at all);
    * ``passage_code`` — stored: indexes of passages mostly made of code.

    * ``vector`` — a column, only with ``vector_bytes`` (``semanticSearch``): the embedding
      of the entry's own text (its title and passages in this view), so an entry and its
      vector are added and deleted together;
    * ``passage_vectors`` — a column beside it: the embedding of each of the entry's
      passages (the entry's title and that passage), in the order of ``passages``.

    Version 4: per-language fields, ``key``/``lang``, chunks, citation URLs, sync state.
    Version 5: script-aware tokenizer; ja, zh and ko segmented into words; ``locale`` and
    ``group`` columns; ``code_<L>`` fields.
    Version 6: without chunking too, one entry per chunk (a whole document is scored by its
    best-matching section).
    Version 19: searched text fields without positions.
    """
    fields: dict[str, object] = {
        "key": ID(unique=True, stored=True),
        "path": ID(stored=True, sortable=True),
        "lang": ID(),
        "locale": ID(sortable=True),
        "group": ID(sortable=True),
        "doc": STORED(),
        "passages": STORED(),
        "passage_terms": STORED(),
        "passage_internal": STORED(),
        "passage_code": STORED(),
    }
    if vector_bytes:
        fields[VECTOR_FIELD] = COLUMN(FixedBytesColumn(vector_bytes, default=bytes(vector_bytes)))
        fields[PASSAGE_VECTOR_FIELD] = COLUMN(VarBytesColumn())
    for language in languages:
        analyzer = analyzer_for(language)
        fields[title_field(language)] = TEXT(analyzer=analyzer, field_boost=TITLE_BOOST, phrase=False)
        fields[body_field(language)] = TEXT(analyzer=analyzer, field_boost=BODY_BOOST, phrase=False)
        fields[code_field(language)] = TEXT(analyzer=analyzer, field_boost=CODE_BOOST, phrase=False)
    return Schema(**fields)
