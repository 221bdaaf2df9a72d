"""The Whoosh schema of both indexes (public and all).

Everything a result needs is stored at index time, so a search reads stored fields and
does no Markdown, YAML or file work. Bump :data:`SCHEMA_VERSION` on any change here:
an index built with another version is rebuilt aside and swapped in on start.
"""

from __future__ import annotations

from whoosh.fields import ID, STORED, TEXT, Schema

from .analysis import analyzer

__all__ = ["SCHEMA_VERSION", "TITLE_BOOST", "build_schema"]

SCHEMA_VERSION = 3
#: BM25F field weight of the title relative to the body (1.0).
TITLE_BOOST = 2.5


def build_schema() -> Schema:
    """Fields:

    * ``path`` — unique key: the file's path relative to the content root;
    * ``title``, ``body`` — searched (BM25F), not stored;
    * ``doc`` — stored: the result's fixed fields (id, title, audience, revision, locale,
      group, review date, URL);
    * ``passages`` — stored: the passage texts snippets are cut from (a section's first
      passage starts with its heading);
    * ``passage_terms`` — stored: each passage's analysed terms (with its heading's),
      so picking the best passage needs no analysis at query time;
    * ``passage_internal`` — stored: indexes of passages from internal sections (always
      empty in the public index, which never receives those passages at all).

    Version 3 added ``passage_internal`` and builds the public index from the text
    outside internal sections; layouts, cascade and drift rules changed the manifest.
    """
    return Schema(
        path=ID(unique=True, stored=True),
        title=TEXT(analyzer=analyzer(), field_boost=TITLE_BOOST),
        body=TEXT(analyzer=analyzer()),
        doc=STORED(),
        passages=STORED(),
        passage_terms=STORED(),
        passage_internal=STORED(),
    )
