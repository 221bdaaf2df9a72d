"""Text embeddings for ``semanticSearch``: static (token-table) models, loaded offline.

An :class:`Embedder` turns texts into unit-length ``float32`` vectors, shape ``(n, d)``;
the dot product of two is their cosine similarity. The only kind implemented is the
*static* embedding model — a table of one vector per token, a text's vector the mean of
its tokens' (WordLlama, model2vec): embedding a query takes well under a millisecond on
one core and needs no neural network at run time.

Where a model comes from (the ``semantic_model`` setting, :func:`load_embedder`):

* ``wordllama`` — the default: the 256-dimensional WordLlama table and its tokenizer,
  shipped *inside* the ``wordllama`` wheel (``pip install 'helpthread-knowledge-provider
  [semantic]'``). Only its files are read; the package's Python is never imported (its
  ``__init__`` configures the root logger). English; see docs/explanation/semantic-search.md.
* a folder — an operator's static model in the model2vec layout: ``model.safetensors``
  (one 2-D tensor: vocabulary × dimensions, float16 or float32; the tensor named
  ``embeddings`` or ``embedding.weight`` when there are several) beside the Hugging Face
  ``tokenizer.json`` whose ids index it. Nothing is downloaded.

Raises :class:`EmbeddingUnavailable` (a configuration error at startup) when the model
cannot be loaded. Needs the ``semantic`` extra (``tokenizers``, ``safetensors``).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

__all__ = ["DEFAULT_MODEL", "Embedder", "EmbeddingUnavailable", "StaticEmbedder",
           "from_bytes", "load_embedder", "to_bytes"]

#: The ``semantic_model`` value naming the model shipped in the ``wordllama`` package.
DEFAULT_MODEL = "wordllama"
_WORDLLAMA_WEIGHTS = "weights/l2_supercat_256.safetensors"
_WORDLLAMA_TOKENIZER = "tokenizers/l2_supercat_tokenizer_config.json"
#: Tensor names a model2vec / WordLlama file uses for its table, tried in this order.
_TABLE_NAMES = ("embeddings", "embedding.weight")
#: Characters of a passage embedded (a static model's mean flattens past a few hundred words).
MAX_CHARS = 4000

_WORD = re.compile(r"\w+|[^\w\s]")

Vectors = npt.NDArray[np.float32]


class EmbeddingUnavailable(RuntimeError):
    """The configured model cannot be loaded (extra not installed, files missing or malformed)."""


class Embedder(Protocol):
    """What the index and the search ask of a model.

    Attributes:
        name: identifies the model and its files (part of the index's settings key: a
            build made with another model is rebuilt).
        dimensions: ``d``, the length of each vector.
    """

    @property
    def name(self) -> str: ...

    @property
    def dimensions(self) -> int: ...

    @property
    def languages(self) -> frozenset[str] | None:
        """The language subtags it serves (queries in others are matched by words only);
        ``None``: every language."""
        ...

    def embed(self, texts: Sequence[str]) -> Vectors:
        """``float32`` array of shape ``(len(texts), d)``, each row of unit length (an empty
        or unknown text: all zeros)."""
        ...

    def embed_query(self, text: str) -> Vectors:
        """A query's unit vector, shape ``(d,)`` (all zeros for an empty or unknown text)."""
        ...


@dataclass(frozen=True)
class StaticEmbedder:
    """A static model: ``table[token id]`` averaged over a text's tokens, then normalised.

    Args:
        name: as :attr:`Embedder.name`.
        table: ``(vocabulary, d)``, ``float16`` or ``float32``.
        tokenizer: a ``tokenizers.Tokenizer`` whose ids index ``table``.
        languages: as :attr:`Embedder.languages`.
        query_stop_words: lowercased words :meth:`embed_query` leaves out (a query of
            nothing else is embedded whole).
    """

    name: str
    table: npt.NDArray[np.floating[Any]]
    tokenizer: Any
    languages: frozenset[str] | None = None
    query_stop_words: frozenset[str] = frozenset()

    @property
    def dimensions(self) -> int:
        return int(self.table.shape[1])

    def embed(self, texts: Sequence[str]) -> Vectors:
        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        if not texts:
            return out
        encodings = self.tokenizer.encode_batch([text[:MAX_CHARS] for text in texts], add_special_tokens=False)
        top = self.table.shape[0] - 1
        for row, encoding in enumerate(encodings):
            ids = np.asarray(encoding.ids, dtype=np.int64)
            if ids.size:
                np.clip(ids, 0, top, out=ids)
                out[row] = self.table[ids].mean(axis=0, dtype=np.float32)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        out /= norms
        return out


    def embed_query(self, text: str) -> Vectors:
        if self.query_stop_words:
            kept = [word for word in _WORD.findall(text) if word.casefold() not in self.query_stop_words]
            text = " ".join(kept) if kept else text
        vector: Vectors = self.embed([text])[0]
        return vector


def to_bytes(vector: Vectors) -> bytes:
    """One unit vector as stored in the index: ``float16`` little-endian (``2·d`` bytes)."""
    return np.asarray(vector, dtype="<f2").tobytes()


def from_bytes(data: bytes, dimensions: int) -> Vectors | None:
    """A stored vector back as ``float32``; ``None`` when its length is not ``d``'s (made by
    another model)."""
    if len(data) != 2 * dimensions:
        return None
    return np.frombuffer(data, dtype="<f2").astype(np.float32)


def _digest(*paths: Path) -> str:
    h = hashlib.sha256()
    for path in paths:
        stat = path.stat()
        h.update(f"{path.name}:{stat.st_size}".encode())
        with path.open("rb") as handle:
            h.update(handle.read(1 << 16))  # the safetensors header and the tokenizer's start
    return h.hexdigest()[:12]


_EXTRA = "semantic search needs the 'semantic' extra: pip install 'helpthread-knowledge-provider[semantic]'"


def _extra(module: str) -> Any:
    """A module of the ``semantic`` extra, imported only when a model is loaded."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise EmbeddingUnavailable(_EXTRA) from exc


def _read_table(path: Path) -> npt.NDArray[np.floating[Any]]:
    load_file = _extra("safetensors.numpy").load_file
    try:
        tensors = load_file(str(path))
    except Exception as exc:  # safetensors raises its own error types for a malformed file
        raise EmbeddingUnavailable(f"{path}: not a readable safetensors file ({exc})") from exc
    named = [tensors[n] for n in _TABLE_NAMES if n in tensors]
    table = named[0] if named else (next(iter(tensors.values())) if len(tensors) == 1 else None)
    if table is None or table.ndim != 2:
        raise EmbeddingUnavailable(f"{path}: expected one 2-D tensor (vocabulary x dimensions), "
                                   f"found {sorted(tensors)}")
    # float16 stays float16 (half the memory in every process that embeds); rows are widened when read.
    return np.ascontiguousarray(table, dtype=np.float16 if table.dtype == np.float16 else np.float32)


def _read_tokenizer(path: Path) -> Any:
    tokenizer_class = _extra("tokenizers").Tokenizer
    try:
        tokenizer = tokenizer_class.from_file(str(path))
    except Exception as exc:  # tokenizers raises a bare Exception for a malformed file
        raise EmbeddingUnavailable(f"{path}: not a readable tokenizer.json ({exc})") from exc
    tokenizer.no_padding()
    tokenizer.no_truncation()
    return tokenizer


def _load(weights: Path, tokenizer_file: Path, label: str, languages: frozenset[str] | None = None,
          query_stop_words: frozenset[str] = frozenset()) -> StaticEmbedder:
    for path in (weights, tokenizer_file):
        if not path.is_file():
            raise EmbeddingUnavailable(f"{label}: {path} is missing")
    table = _read_table(weights)
    tokenizer = _read_tokenizer(tokenizer_file)
    if tokenizer.get_vocab_size() > table.shape[0]:
        raise EmbeddingUnavailable(f"{label}: the tokenizer knows {tokenizer.get_vocab_size()} tokens, "
                                   f"the table has {table.shape[0]} rows")
    return StaticEmbedder(f"{label}@{_digest(weights, tokenizer_file)}", table, tokenizer, languages,
                          query_stop_words)


@lru_cache(maxsize=4)
def load_embedder(model: str) -> StaticEmbedder:
    """The model named by the ``semantic_model`` setting: :data:`DEFAULT_MODEL` or a folder
    holding ``model.safetensors`` and ``tokenizer.json``. Loaded once per process.

    Raises:
        EmbeddingUnavailable: the extra is not installed, or the files are missing or malformed.
    """
    if model == DEFAULT_MODEL:
        spec = importlib.util.find_spec("wordllama")  # finds the package without running it
        if spec is None or not spec.submodule_search_locations:
            raise EmbeddingUnavailable(f"the default model ships in the 'wordllama' package; {_EXTRA}")
        root = Path(next(iter(spec.submodule_search_locations)))
        # English only: on the German sample queries it lost 0.12 recall@5 to the words alone.
        # No query stop words: leaving English function words out of a query cost
        # kaia-docs.yaml's English queries 0.917 / 0.869 -> 0.845 / 0.857 recall@5 / MRR (hybrid,
        # semantic_weight 1) for +0.04 MRR of the meaning ranking on one paraphrase set.
        return _load(root / _WORDLLAMA_WEIGHTS, root / _WORDLLAMA_TOKENIZER, DEFAULT_MODEL, frozenset({"en"}))
    folder = Path(model)
    if not folder.is_dir():
        raise EmbeddingUnavailable(f"{model!r} is neither {DEFAULT_MODEL!r} nor a folder")
    return _load(folder / "model.safetensors", folder / "tokenizer.json", folder.name or str(folder))
