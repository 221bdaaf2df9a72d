"""A Whoosh segment writer that keeps its postings by term, for the provider's indexes.

Whoosh's :class:`~whoosh.writing.SegmentWriter` puts every posting into a pool of
``(field, term, docnum, weight, value)`` tuples, spills sorted runs of them to disk past
``limitmb`` and, on commit, merges the runs and sorts millions of tuples, then writes
them one posting at a time, looking up each posting's document field length in the
segment's length column. Profiled on a cold build of the provider's entries, that was
most of the commit and a third of adding documents.

:class:`TermWriter` is that writer with two changes and nothing else:

* :class:`TermPool` keeps, per field and term, a flat list of the term's postings in
  document order (documents are added in order, so no sort of postings is needed, only
  of the terms);
* the commit writes each term's postings in whole blocks (:func:`_write_term`): the
  block's ids, weights, values and length statistics are set at once from the pooled
  lists and the field length column read once per field, and Whoosh's own block writer
  encodes them.

The segment written is the same, byte for byte, as Whoosh's (``tests/search/
test_writer.py`` compares the files). Past ``limitmb`` the pool hands everything to
Whoosh's own pool and the commit takes Whoosh's own path, as it does for a schema with
spelling or vector fields (the provider's has neither). Relies on the internals of
whoosh-reloaded 2.7.5's ``W3Codec`` (pinned in ``pyproject.toml``); another codec takes
Whoosh's own path.
"""

from __future__ import annotations

import zlib
from array import array
from typing import Any

from whoosh.analysis import IDTokenizer
from whoosh.codec.whoosh3 import (
    LENGTHS_COLUMN,
    WHOOSH3_HEADER_MAGIC,
    W3Codec,
    W3FieldWriter,
    W3PostingsWriter,
    W3TermInfo,
    _lenfield,
)
from whoosh.compat import dumps
from whoosh.fields import ID
from whoosh.formats import Existence
from whoosh.index import Index
from whoosh.system import pack_int, pack_ushort
from whoosh.util.numeric import byte_to_length, length_to_byte
from whoosh.util.numlists import delta_encode
from whoosh.writing import PostingPool, SegmentWriter

__all__ = ["TermPool", "TermWriter", "writer_for"]

#: Estimated bytes per pooled posting (list slots, the weight and value objects), and
#: per term (its key and list): what counts against ``limitmb``.
_POSTING_BYTES = 100
_TERM_BYTES = 200
#: ID-field values whose postings a writer remembers at once.
_ID_MEMO_SIZE = 4096


class TermPool:
    """Postings by field and term, each term's as a flat list ``[docnum, weight, value,
    docnum, …]`` in the order added.

    Implements what :class:`~whoosh.writing.SegmentWriter` asks of its pool (``add``,
    ``iter_postings``, ``cleanup``). Once its estimate passes ``limitmb`` megabytes it
    moves everything into a Whoosh :class:`~whoosh.writing.PostingPool` (which spills
    sorted runs to disk) and forwards to it from then on: :attr:`spilled`.
    """

    def __init__(self, tempstore: Any, segment: Any, limitmb: int) -> None:
        self.fields: dict[str, dict[bytes, list[Any]]] = {}
        self._tempstore = tempstore
        self._segment = segment
        self._limitmb = limitmb
        self._limit = limitmb * 1024 * 1024
        self._size = 0
        self.spilled: PostingPool | None = None

    def add(self, item: tuple[str, bytes, int, float, bytes | None]) -> None:
        """Add one posting ``(field, term bytes, docnum, weight, value bytes)``."""
        if self.spilled is not None:
            self.spilled.add(item)
            return
        terms = self.fields.get(item[0])
        if terms is None:
            terms = self.fields[item[0]] = {}
        postings = terms.get(item[1])
        if postings is None:
            terms[item[1]] = [item[2], item[3], item[4]]
            self._size += _TERM_BYTES + _POSTING_BYTES
        else:
            postings += item[2:]
            self._size += _POSTING_BYTES
        if self._size > self._limit:
            self._spill()

    def grew(self, postings: int, terms: int) -> None:
        """Count ``postings`` added directly to :attr:`fields` (``terms`` of them new
        terms) against the limit."""
        self._size += postings * _POSTING_BYTES + terms * _TERM_BYTES
        if self._size > self._limit:
            self._spill()

    def _spill(self) -> None:
        pool = PostingPool(self._tempstore, self._segment, limitmb=self._limitmb)
        for item in self._sorted_items():
            pool.add(item)
        self.fields.clear()
        self.spilled = pool

    def _sorted_items(self) -> Any:
        for fieldname in sorted(self.fields):
            terms = self.fields[fieldname]
            for tbytes in sorted(terms):
                flat = terms[tbytes]
                for i in sorted(range(0, len(flat), 3), key=flat.__getitem__):
                    yield fieldname, tbytes, flat[i], flat[i + 1], flat[i + 2]

    def iter_postings(self) -> Any:
        """Every posting in ``(field, term, docnum)`` order, as Whoosh's pool yields them."""
        if self.spilled is not None:
            return self.spilled.iter_postings()
        return self._sorted_items()

    def cleanup(self) -> None:
        if self.spilled is not None:
            self.spilled.cleanup()
        self.fields.clear()


def _mini_weights(stored: array[float]) -> Any:
    """A block's weights as ``W3PostingsWriter._mini_weights`` keeps them: ``None`` when
    all are 1.0, the one value when all are equal, else all of them."""
    first = stored[0]
    if first == 1.0 and stored.count(1.0) == len(stored):
        return None
    if stored.count(first) == len(stored):
        return first
    return tuple(stored)


def _mini_values(values: list[Any], fixed: int | None) -> Any:
    """A block's values as ``W3PostingsWriter._mini_values`` keeps them (empty values
    left out): a tuple for a format of variable size, ``None`` for one of size 0, else the
    bytes joined."""
    block_values = list(filter(None, values))
    if fixed is None or fixed < 0:
        return tuple(block_values)
    if fixed == 0:
        return None
    return b"".join(block_values)


def _write_term(writer: W3FieldWriter, postwriter: W3PostingsWriter, tbytes: bytes, flat: list[Any],
                lengths: Any) -> None:
    """Write one term's postings (``flat``: docnum, weight, value, … in document order)
    as :meth:`W3FieldWriter.add` called per posting would: the same blocks of at most
    ``blocklimit`` postings, the same statistics (a zero length and an empty value are
    left out, as there), the same bytes — built here in one pass per block instead of
    Whoosh's per-posting calls and per-block helper methods (``_write_block``,
    ``_mini_ids``, ``W3TermInfo.add_block``, …)."""
    docs = flat[0::3]
    if docs != sorted(docs):
        # Out of document order (neither add_document nor a merge adds so): sort first.
        order = sorted(range(len(docs)), key=docs.__getitem__)
        flat = [flat[3 * i + k] for i in order for k in range(3)]
        docs = flat[0::3]
    weights = flat[1::3]
    values = flat[2::3]
    postfile = postwriter._postfile
    limit = postwriter._blocklimit
    comp = postwriter._compression
    fixed = writer._format.fixed_value_size()
    info = W3TermInfo()
    startoffset = postfile.tell()
    pieces = [WHOOSH3_HEADER_MAGIC]
    count = len(docs)
    total_weight = 0.0
    minlength_all: int | None = None
    maxlength_all = 0
    maxweight_all = 0
    for start in range(0, count, limit):
        end = start + limit
        ids = docs[start:end]
        block_weights = weights[start:end]
        stored = array("f", block_weights)  # the float32 values Whoosh keeps
        maxweight = max(0, max(block_weights))
        if lengths is None:
            minlength, maxlength = None, 0
        else:
            block_lengths = list(map(lengths.__getitem__, ids))
            minlength = min(filter(None, block_lengths), default=None)
            maxlength = max(block_lengths)
        # W3TermInfo.add_block
        total_weight += sum(stored)
        # (as there, a block without lengths after one with them raises: never written so)
        minlength_all = minlength if minlength_all is None else min(minlength_all, minlength)  # type: ignore[type-var]
        maxlength_all = max(maxlength_all, maxlength)
        maxweight_all = max(maxweight_all, maxweight)
        # W3PostingsWriter._mini_ids, _mini_weights, _mini_values
        databytes = dumps((tuple(delta_encode(ids)), _mini_weights(stored), _mini_values(values[start:end], fixed)), 2)
        if comp:
            databytes = zlib.compress(databytes, comp)
        infobytes = dumps((len(ids), ids[-1], maxweight, comp, length_to_byte(minlength),
                           length_to_byte(maxlength)), 2)
        blocklength = len(infobytes) + len(databytes)
        pieces.append(pack_int(-blocklength if end >= count else blocklength))
        pieces.append(infobytes)
        pieces.append(databytes)
    postfile.write(b"".join(pieces))
    info._weight = total_weight
    info._df = count
    info._minlength = minlength_all
    info._maxlength = maxlength_all
    info._maxweight = maxweight_all
    info._minid = docs[0]
    info._maxid = docs[-1]
    info.set_extent(startoffset, postfile.tell() - startoffset)
    # W3FieldWriter.finish_term
    writer._tindex.add(pack_ushort(writer._fieldid) + tbytes, info.to_bytes())


#: Document field length of each length byte (Whoosh stores lengths as one byte).
_LENGTH_OF_BYTE = tuple(byte_to_length(b) if b else 0 for b in range(256))


class TermWriter(SegmentWriter):  # type: ignore[misc]  # Whoosh is untyped
    """:class:`~whoosh.writing.SegmentWriter` with a :class:`TermPool` and a commit that
    writes whole blocks per term. Takes the same arguments (``limitmb``: megabytes of
    postings held in memory before spilling to disk)."""

    def __init__(self, ix: Index, **kwargs: Any) -> None:
        super().__init__(ix, **kwargs)
        limitmb = kwargs.get("limitmb", 128)
        self._fast = isinstance(self.codec, W3Codec) and not any(
            field.separate_spelling() or field.vector for _, field in self.schema.items())
        if self._fast:
            self.pool = TermPool(self._tempstorage, self.newsegment, limitmb)
        #: ID fields, whose postings depend on the value only: remembered per value (a
        #: document's chunks share its path, all documents a few locales).
        self._ids = {name for name, field in self.schema.items() if type(field) is ID}
        #: ID fields analysed by a bare IDTokenizer into Existence postings (``key``,
        #: ``path``, ``lang`` …): their one posting is made here, without the analyzer's
        #: generators (and ``key``, unique per entry, does not flush the memo above).
        self._plain_ids = {name: field.format.field_boost for name, field in self.schema.items()
                           if type(field) is ID and type(field.analyzer) is IDTokenizer
                           and type(field.format) is Existence}
        self._id_memo: dict[tuple[str, str], list[Any]] = {}

    def _id_postings(self, name: str, field: Any, value: str) -> list[Any]:
        key = (name, value)
        found = self._id_memo.get(key)
        if found is None:
            if len(self._id_memo) >= _ID_MEMO_SIZE:
                self._id_memo.clear()
            found = self._id_memo[key] = list(field.index(value))
        return found

    def add_document(self, **fields: Any) -> None:
        """As :meth:`SegmentWriter.add_document`, with the postings put straight into the
        :class:`TermPool` (no tuple and no call per posting)."""
        pool = self.pool
        if not self._fast or not isinstance(pool, TermPool) or pool.spilled is not None:
            super().add_document(**fields)
            return
        self._check_state()
        schema = self.schema
        docnum = self.docnum
        docboost = self._doc_boost(fields)
        names = sorted(name for name in fields if not name.startswith("_"))
        self._check_fields(schema, names)
        perdoc = self.perdocwriter
        pooled = pool.fields
        added = new_terms = 0
        perdoc.start_doc(docnum)
        try:
            for name in names:
                value = fields[name]
                if value is None:
                    continue
                field = schema[name]
                length = 0
                if field.indexed:
                    boost = self._field_boost(fields, name, docboost)
                    terms = pooled.get(name)
                    if terms is None:
                        terms = pooled[name] = {}
                    plain = self._plain_ids.get(name)
                    if plain is not None and isinstance(value, str):
                        postings = [(value.encode("utf-8"), 1, plain, b"")]
                    elif name in self._ids and isinstance(value, str):
                        postings = self._id_postings(name, field, value)
                    else:
                        postings = field.index(value)
                        if not isinstance(postings, list):
                            postings = list(postings)
                    if field.scorable:
                        length = sum(posting[1] for posting in postings)
                    for tbytes, _, weight, vbytes in postings:
                        known = terms.get(tbytes)
                        if known is None:
                            terms[tbytes] = [docnum, weight * boost, vbytes]
                            new_terms += 1
                        else:
                            known += (docnum, weight * boost, vbytes)
                        added += 1
                stored = fields.get("_stored_" + name, value)
                perdoc.add_field(name, field, stored if field.stored else None, length)
                column = field.column_type
                if column and stored is not None:
                    perdoc.add_column_value(name, column, field.to_column_value(stored))
        except Exception:
            perdoc.cancel_doc()
            raise
        perdoc.finish_doc()
        self._added = True
        self.docnum += 1
        pool.grew(added, new_terms)

    def delete_by_term(self, fieldname: str, text: Any, searcher: Any = None) -> int:
        """As :meth:`IndexWriter.delete_by_term` — every document of the index whose
        ``fieldname`` holds the term ``text`` is deleted; returns how many — with each
        segment's posting list read as it is, instead of through a scored ``Term`` query
        (Whoosh builds a BM25F scorer per segment for a deletion: 1 ms a path in a
        500-file batch). Deleted documents are skipped as there (the segment reader
        filters them)."""
        if fieldname not in self.schema:
            return 0
        try:
            term = self.schema[fieldname].to_bytes(text)
        except ValueError:
            return 0
        reader = (searcher if searcher is not None else self.searcher()).reader()
        found = [offset + docnum for leaf, offset in reader.leaf_readers() if (fieldname, term) in leaf
                 for docnum in leaf.postings(fieldname, term).all_ids()]
        for docnum in found:
            self.delete_document(docnum)
        return len(found)

    def _flush_segment(self) -> None:
        pool = self.pool
        if not self._fast or not isinstance(pool, TermPool) or pool.spilled is not None:
            super()._flush_segment()
            return
        self.perdocwriter.close()
        lengths = self.per_document_reader()
        doccount = self.docnum
        fieldwriter = self.fieldwriter
        try:
            for fieldname in sorted(pool.fields):
                terms = pool.fields[fieldname]
                if not terms:  # only empty values: Whoosh's pool holds nothing of it
                    continue
                fieldobj = self.schema[fieldname]
                column = lengths._cached_reader(_lenfield(fieldname), LENGTHS_COLUMN)
                table = None
                if column is not None:
                    raw = column.load()
                    table = [_LENGTH_OF_BYTE[b] for b in raw] + [0] * (doccount + 1 - len(raw))
                fieldwriter.start_field(fieldname, fieldobj)
                postwriter = fieldwriter._postwriter
                if postwriter._inlinelimit > 1:  # a codec that inlines short lists: not ours
                    raise RuntimeError("TermWriter expects W3Codec's inlinelimit of 1")
                for tbytes in sorted(terms):
                    _write_term(fieldwriter, postwriter, tbytes, terms[tbytes], table)
                fieldwriter.finish_field()
            fieldwriter.close()
        finally:
            lengths.close()


def writer_for(ix: Index, **kwargs: Any) -> SegmentWriter:
    """A :class:`TermWriter` on ``ix`` (an index opened by ``whoosh.index.open_dir``);
    ``kwargs`` as for ``Index.writer`` (``limitmb``, ``timeout``)."""
    return TermWriter(ix, **kwargs)
