"""``semanticSearch`` (issue 28): off unless the operator switches it on (C1, C2), vectors
that live and die with their entry's text (X2, X7), hybrid answers that keep the lexical
path's locale and audience rules (Q3, X1)."""

from __future__ import annotations

import shutil
from dataclasses import replace as dataclass_replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from msgspec.structs import replace
from whoosh import index as whoosh_index

from helpthread_kit.backend import SearchQuery
from helpthread_kit.capabilities import ALL_CAPABILITIES, SEMANTIC_SEARCH
from helpthread_kit.registrations import ConfigurationError, Exposure
from provider.config import ProviderConfig
from provider.indexing import Indexer
from provider.indexing.indexer import settings_key
from provider.indexing.manifest import Manifest
from provider.indexing.vectors import VectorsMissing, check_vectors, entry_vectors, missing_vectors, passage_texts
from provider.search.backend import WhooshBackend
from provider.search.embedding import load_embedder
from provider.search.layout import ALL, PUBLIC, IndexLayout
from provider.search.prepared import Unit
from provider.search.schema import PASSAGE_VECTOR_FIELD, VECTOR_FIELD, build_schema
from provider.search.semantic import AGREEING_RANKS, KEPT_RANK, Semantic
from provider.search.vectors import fuse, nearest
from provider.wiki.document import WikiSettings
from tests.support import REPO_ROOT

pytest.importorskip("tokenizers", reason="the semantic extra")
pytest.importorskip("safetensors", reason="the semantic extra")

EVERY = frozenset(ALL_CAPABILITIES)
LEXICAL = EVERY - {SEMANTIC_SEARCH}
MODEL = "wordllama"


# -- C1/C2: declared only when switched on ----------------------------------------------

def test_default_configuration_declares_no_semantic_search() -> None:
    """C2: the default declares the minimum set; ``all`` means the lexical capabilities."""
    config = ProviderConfig()
    assert config.declared_capabilities(WhooshBackend.implemented_capabilities) == {"retrieve"}
    every = replace(config, capabilities="all").declared_capabilities(WhooshBackend.implemented_capabilities)
    assert SEMANTIC_SEARCH not in every
    assert config.wiki_settings().semantic_model is None


def test_semantic_search_is_declared_when_switched_on() -> None:
    config = replace(ProviderConfig(), semantic_search=True)
    assert config.declared_capabilities(WhooshBackend.implemented_capabilities) == {"retrieve", SEMANTIC_SEARCH}
    assert config.wiki_settings().semantic_model == MODEL


def test_naming_semantic_search_without_the_switch_is_an_error() -> None:
    config = replace(ProviderConfig(), capabilities=("locale", SEMANTIC_SEARCH))
    with pytest.raises(ConfigurationError, match="semantic_search: true"):
        config.declared_capabilities(WhooshBackend.implemented_capabilities)


def test_an_unloadable_model_is_a_configuration_error(tmp_path: Path) -> None:
    config = replace(ProviderConfig(), semantic_search=True, semantic_model=str(tmp_path / "missing"))
    with pytest.raises(ConfigurationError, match="semantic_model"):
        config.wiki_settings()


def test_the_default_schema_has_no_vector_field() -> None:
    """With the default configuration the index is what it was (no new field)."""
    assert VECTOR_FIELD not in build_schema(("en",)).names()
    assert build_schema(("en",)).names() == build_schema(("en",), vector_bytes=0).names()


def test_backend_implements_semantic_search_only_with_a_model() -> None:
    assert SEMANTIC_SEARCH not in WhooshBackend(Path("missing")).implemented_capabilities
    backend = WhooshBackend(Path("missing"), semantic=Semantic.load(MODEL))
    assert SEMANTIC_SEARCH in backend.implemented_capabilities
    assert SEMANTIC_SEARCH not in WhooshBackend.implemented_capabilities  # the class: lexical


# -- the model --------------------------------------------------------------------------

def test_embeddings_are_unit_vectors_and_related_texts_are_closer() -> None:
    model = load_embedder(MODEL)
    vectors = model.embed(["refund my money", "get a reimbursement for a payment", "install a kernel module", ""])
    assert vectors.shape == (4, model.dimensions) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors[:3], axis=1), 1.0, atol=1e-4)
    assert not vectors[3].any()
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2]


def test_an_operator_folder_in_model2vec_layout_loads(tmp_path: Path) -> None:
    """A static model from a local folder: ``model.safetensors`` + ``tokenizer.json``
    (here the shipped model's table and tokenizer, copied under model2vec's names)."""
    from safetensors.numpy import save_file

    shipped = load_embedder(MODEL)
    save_file({"embeddings": shipped.table.astype(np.float16)}, str(tmp_path / "model.safetensors"))
    shipped.tokenizer.save(str(tmp_path / "tokenizer.json"))
    mine = load_embedder(str(tmp_path))
    text = ["how do I reset my password"]
    assert mine.name != shipped.name
    assert np.allclose(mine.embed(text), shipped.embed(text), atol=1e-3)


def test_fusion_ranks_by_reciprocal_rank() -> None:
    assert [d for _, d in fuse([(1.0, [1, 2, 3]), (1.0, [3, 1])], k=60)] == [1, 3, 2]
    assert fuse([(0.0, [1, 2]), (1.0, [2])], k=60)[0][1] == 2


# -- hybrid answers keep audience and locale ---------------------------------------------

@pytest.fixture(scope="module")
def hybrid_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    content = tmp_path_factory.mktemp("content")
    shutil.copytree(REPO_ROOT / "content", content, dirs_exist_ok=True)
    index = tmp_path_factory.mktemp("index")
    with Indexer(WikiSettings(root=content, locales=("en", "de"), chunking=True, semantic_model=MODEL),
                 IndexLayout(index)) as indexer:
        indexer.sync()
    return index


@pytest.fixture(scope="module")
def hybrid(hybrid_index: Path) -> WhooshBackend:
    return WhooshBackend(hybrid_index, fallback_locales=("en",), semantic=Semantic.load(MODEL))


PARAPHRASES = ("I was charged twice", "money back", "can't log in after changing phone", "team member permissions",
               "who can see our staff notes", "Geld zurück", "bank connection broken")


@pytest.mark.parametrize("text", PARAPHRASES)
def test_customer_safe_hybrid_answers_are_public_only(hybrid: WhooshBackend, text: str) -> None:
    """X1/X2: every customer_safe answer, found by words or by meaning, is public."""
    query = SearchQuery(text=text, limit=20, reach=Exposure.CUSTOMER_SAFE, capabilities=EVERY)
    results = hybrid.search(query)
    assert results
    assert all(r.audience == "public" for r in results)


@pytest.mark.parametrize("text", PARAPHRASES)
def test_hybrid_answers_obey_the_locale(hybrid: WhooshBackend, text: str) -> None:
    """Q3: with a locale and no fallback, meaning matches of other locales are not answered."""
    for locale in ("en", "de"):
        query = SearchQuery(text=text, limit=20, reach=Exposure.AGENT_ONLY, capabilities=EVERY, locale=locale)
        assert all(r.locale.split("-")[0] == locale for r in hybrid.search(query))


def test_hybrid_keeps_scores_chunks_and_snippets(hybrid: WhooshBackend) -> None:
    query = SearchQuery(text="money back", limit=10, reach=Exposure.CUSTOMER_SAFE, capabilities=EVERY, locale="en")
    results = hybrid.search(query)
    scores = [r.score for r in results]
    assert all(s is not None and 0 <= s < 1 for s in scores) and scores == sorted(scores, reverse=True)  # type: ignore[type-var]
    assert all(r.chunk_id and r.snippet for r in results)
    assert len({r.document_id for r in results}) >= 3


def test_hybrid_finds_a_paraphrase_the_words_miss(hybrid: WhooshBackend) -> None:
    """The point of it: a question sharing few words with its answer."""
    def ids(capabilities: frozenset[str]) -> list[str]:
        query = SearchQuery(text="money back", limit=5, reach=Exposure.CUSTOMER_SAFE, capabilities=capabilities,
                            locale="en")
        return [r.document_id for r in hybrid.search(query)]

    assert "en/billing/requesting-a-refund" in ids(EVERY)[:3]


AGREEMENT_QUERIES = ("refund", "invoice", "reset password", "two-factor authentication", "export my data",
                     "delete my account", "change the plan", "bank feed", "team member permissions", "receipts")


WHOLE = EVERY - {"chunking"}


def _ids(backend: WhooshBackend, text: str, capabilities: frozenset[str],
         reach: Exposure = Exposure.CUSTOMER_SAFE) -> list[str]:
    """The documents answered to ``text`` in English, best first (limit 10)."""
    query = SearchQuery(text=text, limit=10, reach=reach, capabilities=capabilities, locale="en")
    return [r.document_id for r in backend.search(query)]


def _backends(index: Path, **other: float) -> tuple[WhooshBackend, WhooshBackend]:
    """The default fusion's backend over ``index`` and one with ``other`` Semantic fields."""
    semantic = Semantic.load(MODEL)
    return (WhooshBackend(index, cache_entries=0, semantic=semantic),
            WhooshBackend(index, cache_entries=0, semantic=dataclass_replace(semantic, **other)))  # type: ignore[arg-type]


def test_the_words_first_answer_stays_first_when_the_meaning_ranking_agrees(hybrid_index: Path) -> None:
    """A query the words already answer keeps that answer on top: whenever the word
    ranking's first document is among the meaning ranking's first AGREEING_RANKS, the
    fused answer starts with it (the existing relevance sets must not lose MRR)."""
    fused, meaning = _backends(hybrid_index, lexical=0.0)
    agreed = 0
    for text in AGREEMENT_QUERIES:
        words = _ids(fused, text, WHOLE - {SEMANTIC_SEARCH})
        if words and words[0] in _ids(meaning, text, WHOLE)[:AGREEING_RANKS]:
            agreed += 1
            assert _ids(fused, text, WHOLE)[0] == words[0], text
    assert agreed >= 3  # the rule was exercised


def test_the_words_first_answer_is_never_placed_below_kept_rank(hybrid_index: Path) -> None:
    """Whether or not the meaning ranking agrees, the word ranking's first document is
    among the fused answer's first KEPT_RANK (kaia-docs.yaml's English queries lost 0.023
    recall@5 when reciprocal-rank fusion let documents both rankings found pass it)."""
    fused, unkept = _backends(hybrid_index, kept=0)
    agent = Exposure.AGENT_ONLY
    moved = 0
    # The last two: the sample wiki's agent questions whose word answer the fusion moved down.
    for text in (*AGREEMENT_QUERIES, *PARAPHRASES, "customer sees another company's data, who do I page",
                 "open the customer's account read-only to see what they see"):
        words = _ids(fused, text, WHOLE - {SEMANTIC_SEARCH}, agent)
        if words:
            assert words[0] in _ids(fused, text, WHOLE, agent)[:KEPT_RANK], text
            moved += words[0] not in _ids(unkept, text, WHOLE, agent)[:KEPT_RANK]
    assert moved >= 1  # the rule changed an answer (it fails without the rule)


def test_the_default_model_embeds_the_whole_query() -> None:
    """No English function words are left out of a query (leaving them out cost
    kaia-docs.yaml's English queries 0.07 recall@5 with hybrid search)."""
    model = load_embedder(MODEL)
    question = "How do I get my money back?"
    assert np.allclose(model.embed_query(question), model.embed([question])[0], atol=1e-6)
    assert not np.allclose(model.embed_query(question), model.embed(["money back ?"])[0],
                           atol=1e-3)


def test_an_operator_model_embeds_the_whole_query(tmp_path: Path) -> None:
    """No stop list is assumed for a folder model (its languages are unknown)."""
    from safetensors.numpy import save_file

    shipped = load_embedder(MODEL)
    save_file({"embeddings": shipped.table.astype(np.float16)}, str(tmp_path / "model.safetensors"))
    shipped.tokenizer.save(str(tmp_path / "tokenizer.json"))
    mine = load_embedder(str(tmp_path))
    assert np.allclose(mine.embed_query("how do I get my money back"), mine.embed(["how do I get my money back"])[0],
                       atol=1e-6)


def test_an_entry_vector_embeds_its_code_too(tmp_path: Path) -> None:
    """A page's passages of code are in its vector with its title and prose (leaving them
    out cost kaia-docs.yaml's English queries, whose commands say what a page is for)."""
    content, index = tmp_path / "wiki", tmp_path / "index"
    content.mkdir()
    prose = "Copy the built site to your web server every time you publish."
    code = ("rsync -avz --delete public/ deploy@example.org:/var/www/html/"
            " && ssh deploy@example.org systemctl reload nginx")
    # A heading of level 4 starts a passage, not a chunk: one entry, a passage of prose and one of code.
    (content / "p.md").write_text(f"---\ntitle: Deploy\naudience: public\n---\n\n{prose}\n\n#### Command\n\n"
                                  f"```sh\n{code}\n```\n", "utf-8")
    with Indexer(WikiSettings(root=content, semantic_model=MODEL), IndexLayout(index)) as indexer:
        indexer.sync()
    build = IndexLayout(index).build_dir(IndexLayout(index).current_name() or "")
    [(vector, _, shown, _, _)] = _live_entries(build / PUBLIC)["p.md"]
    assert code in shown  # the snippet text keeps the code
    model = load_embedder(MODEL)
    without, with_code = model.embed([f"Deploy\n{prose}", f"Deploy\n{prose}\n{code}"])
    assert vector @ with_code > 0.95
    assert vector @ without < vector @ with_code - 0.05


# -- X2/X7: a vector leaves with its text, in the same commit ----------------------------

_PAGE = "---\ntitle: {title}\naudience: {audience}\n---\n\n{body}\n"
_BODIES = ("Refunds are paid back to the card within five days.",
           "Reset your password from the sign-in page when you forget it.",
           "Export all invoices as a spreadsheet for your accountant.",
           "The staff escalation runbook for chargebacks and fraud.")
#: "sectioned": a public page whose body's second paragraph is an internal section.
_SECRET = "Override code for chargeback disputes lives in the admin console."
_SECTIONED = "{body}\n\n<!-- internal -->\n" + _SECRET + "\n<!-- /internal -->\n\nAsk us anything else."


#: An entry as stored: (vector, title, the text it should embed, its passages' vectors, its passages).
_Entry = tuple[np.ndarray, str, str, np.ndarray, tuple[str, ...]]


def _live_entries(folder: Path) -> dict[str, list[_Entry]]:
    """Path -> :class:`_Entry` of every live entry of the index in ``folder`` (deleted
    entries are skipped, as a search skips them)."""
    found: dict[str, list[_Entry]] = {}
    ix = whoosh_index.open_dir(str(folder))
    with ix.searcher() as searcher:
        reader = searcher.reader()
        column = reader.column_reader(VECTOR_FIELD)
        passage_column = reader.column_reader(PASSAGE_VECTOR_FIELD)
        for docnum, stored in reader.iter_docs():
            title = stored["doc"]["title"]
            text = "\n".join((title, *stored["passages"]))
            vector = np.frombuffer(column[docnum], dtype="<f2").astype(np.float32)
            passages = np.frombuffer(passage_column[docnum], dtype="<f2").astype(np.float32).reshape(-1, len(vector))
            found.setdefault(stored["path"], []).append((vector, title, text, passages, tuple(stored["passages"])))
    return found


edits = st.lists(st.tuples(st.integers(0, 2), st.sampled_from(["public", "sectioned", "internal", "delete"]),
                           st.integers(0, len(_BODIES) - 1)), min_size=1, max_size=6)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=edits)
def test_a_page_made_internal_leaves_the_public_vectors_in_the_same_batch(
        tmp_path_factory: pytest.TempPathFactory, steps: list[tuple[int, str, int]]) -> None:
    """X7 and X2 for vectors, over random edit sequences: after every batch the public
    index holds a vector for exactly the public pages, each the embedding of its public
    text, a passage vector for each public passage and none for an internal section's
    (in the public index), and a query equal to an internal page's text, or to an internal
    section's, never reaches it by meaning."""
    content = tmp_path_factory.mktemp("wiki")
    index = tmp_path_factory.mktemp("index")
    model = load_embedder(MODEL)
    state: dict[int, tuple[str, int]] = {}
    settings_ = WikiSettings(root=content, semantic_model=MODEL)
    backend = WhooshBackend(index, cache_entries=0, semantic=Semantic(model))
    with Indexer(settings_, IndexLayout(index)) as indexer:
        for page in range(3):
            state[page] = ("public", page)
            (content / f"p{page}.md").write_text(_PAGE.format(title=f"Page {page}", audience="public",
                                                              body=_BODIES[page]), "utf-8")
        indexer.sync()
        for page, audience, body in steps:
            path = content / f"p{page}.md"
            if audience == "delete":
                path.unlink(missing_ok=True)
                state.pop(page, None)
            else:
                text = _SECTIONED.format(body=_BODIES[body]) if audience == "sectioned" else _BODIES[body]
                path.write_text(_PAGE.format(title=f"Page {page}", audience=audience.replace("sectioned", "public"),
                                             body=text), "utf-8")
                state[page] = (audience, body)
            indexer.sync()  # one batch
            build = IndexLayout(index).build_dir(IndexLayout(index).current_name() or "")
            public = _live_entries(build / PUBLIC)
            agent = _live_entries(build / ALL)
            # Internal and deleted pages have no entry, hence no vector, in the public index
            # (a public page may be withheld too: a copy of an internal one, rule 6).
            assert set(public) <= {f"p{p}.md" for p, (a, _) in state.items() if a in ("public", "sectioned")}
            assert set(agent) == {f"p{p}.md" for p in state}
            for entries in (*public.values(), *agent.values()):
                for vector, title, text, passage_vectors, passages in entries:
                    # Each vector is its own entry's text's, nothing else's; one per passage, its own.
                    assert np.allclose(vector, entry_vectors(model, title, [text])[0], atol=2e-3)
                    own = model.embed(passage_texts(title, Unit(None, "", {"passages": passages})))
                    assert passage_vectors.shape == own.shape
                    assert np.allclose(passage_vectors, own, atol=2e-3)
            for entries in public.values():
                assert not any(_SECRET in passage for entry in entries for passage in entry[4])
            for p, (a, _) in state.items():
                if a != "sectioned":
                    continue
                secret = model.embed([f"Page {p}\n{_SECRET}"])[0]
                with whoosh_index.open_dir(str(build / PUBLIC)).searcher() as searcher:
                    # By its best passage: the internal section's own vector is not in the public index ...
                    assert all(score < 0.99 for score, _ in nearest(searcher, secret, 50, passages=1.0))
                with whoosh_index.open_dir(str(build / ALL)).searcher() as searcher:
                    # ... but is in the agent index (so the check above can fail).
                    assert any(score > 0.99 for score, _ in nearest(searcher, secret, 50, passages=1.0))
            for p, (a, b) in state.items():
                if a != "internal":
                    continue
                vector = model.embed([f"Page {p}\n{_BODIES[b]}"])[0]
                with whoosh_index.open_dir(str(build / PUBLIC)).searcher() as searcher:
                    near = nearest(searcher, vector, 50) + nearest(searcher, vector, 50, passages=1.0)
                    paths = {searcher.stored_fields(d)["path"] for _, d in near}
                assert f"p{p}.md" not in paths
                query = SearchQuery(text=_BODIES[b], limit=20, reach=Exposure.CUSTOMER_SAFE, capabilities=EVERY)
                assert all(r.audience == "public" for r in backend.search(query))


# -- passage vectors: an entry is found by its best passage ------------------------------

def test_an_entry_scores_its_vector_mixed_with_its_best_passage(tmp_path: Path) -> None:
    """Over an index of two segments, with entries of one passage and of several:
    ``nearest``'s similarity is ``(1 - passages) · entry cosine + passages · best passage
    cosine`` (an entry without passages: its own cosine), computed from the stored vectors."""
    content, index = tmp_path / "wiki", tmp_path / "index"
    content.mkdir()
    model = load_embedder(MODEL)
    # A heading of level 4 starts a passage, not a chunk: one entry of four passages.
    (content / "many.md").write_text("---\ntitle: Billing\naudience: public\n---\n\n" + "".join(
        f"#### Part {i}\n\n{body}\n\n" for i, body in enumerate(_BODIES)), "utf-8")
    with Indexer(WikiSettings(root=content, semantic_model=MODEL), IndexLayout(index)) as indexer:
        indexer.sync()
        (content / "one.md").write_text(f"---\ntitle: Money\naudience: public\n---\n\n{_BODIES[0]}\n", "utf-8")
        indexer.sync()  # a second segment
    build = IndexLayout(index).build_dir(IndexLayout(index).current_name() or "")
    entries = {path: found[0] for path, found in _live_entries(build / ALL).items()}
    assert len(entries["many.md"][3]) == len(_BODIES) and len(entries["one.md"][3]) == 1
    query = model.embed_query("card refund")
    for share in (0.0, 0.5, 1.0):
        with whoosh_index.open_dir(str(build / ALL)).searcher() as searcher:
            near = nearest(searcher, query, 10, passages=share)
            got = {searcher.stored_fields(d)["path"]: score for score, d in near}
        for path, (vector, _, _, passage_vectors, _) in entries.items():
            best = float(np.max(passage_vectors @ query)) if len(passage_vectors) else float(vector @ query)
            assert got[path] == pytest.approx((1 - share) * float(vector @ query) + share * best, abs=1e-4)
    # The long page's refund paragraph matches better than the page as a whole.
    assert float(np.max(entries["many.md"][3] @ query)) > float(entries["many.md"][0] @ query) + 0.05


def test_an_entry_found_by_meaning_only_shows_its_nearest_passage(tmp_path: Path) -> None:
    """The snippet stays the matching passage: for an entry the words did not find, the
    passage nearest the query in meaning (not the first one, as the words' choice would
    fall back to)."""
    content, index = tmp_path / "wiki", tmp_path / "index"
    content.mkdir()
    bodies = ("Export all invoices as a spreadsheet for your accountant.",
              "Reset your password from the sign-in page when you forget it.",
              "Refunds are paid back to the card within five days.")
    (content / "many.md").write_text("---\ntitle: Billing\naudience: public\n---\n\n" + "".join(
        f"#### Part {i}\n\n{body}\n\n" for i, body in enumerate(bodies)), "utf-8")
    with Indexer(WikiSettings(root=content, semantic_model=MODEL), IndexLayout(index)) as indexer:
        indexer.sync()
    backend = WhooshBackend(index, cache_entries=0, semantic=Semantic.load(MODEL))
    query = "reimbursement of money"  # no word of the page
    assert backend.search(SearchQuery(text=query, limit=5, reach=Exposure.CUSTOMER_SAFE, capabilities=LEXICAL)) == ()
    [found] = backend.search(SearchQuery(text=query, limit=5, reach=Exposure.CUSTOMER_SAFE, capabilities=EVERY))
    assert bodies[2] in found.snippet and bodies[0] not in found.snippet


# -- a build made for semanticSearch never serves without its vectors ---------------------

def test_a_build_without_vectors_is_rebuilt_under_the_same_key(tmp_path: Path) -> None:
    """A build whose manifest carries the semantic settings' key but whose indexes hold no
    vector columns (written by other code: a kept build reused as it was) is not adopted:
    the next sync builds afresh, and the new build has every column in every segment."""
    content, index = tmp_path / "wiki", tmp_path / "index"
    content.mkdir()
    (content / "p.md").write_text(_PAGE.format(title="Refunds", audience="public", body=_BODIES[0]), "utf-8")
    lexical, semantic = WikiSettings(root=content), WikiSettings(root=content, semantic_model=MODEL)
    layout = IndexLayout(index)
    with Indexer(lexical, layout) as indexer:
        indexer.sync()
    stale = layout.current_name() or ""
    assert missing_vectors(layout.build_dir(stale))  # the check sees what is missing
    manifest = Manifest.load(layout.build_dir(stale) / "manifest.json")
    assert manifest is not None
    manifest.settings_key = settings_key(semantic)
    manifest.save(layout.build_dir(stale) / "manifest.json")
    with pytest.raises(VectorsMissing, match="no vector columns"):
        check_vectors(semantic, layout.build_dir(stale))
    with Indexer(semantic, layout) as indexer:
        assert indexer.manifest is None  # not adopted: it would serve without vectors
        indexer.sync()
    fresh = layout.current_name() or ""
    assert fresh != stale
    assert missing_vectors(layout.build_dir(fresh)) == []
    check_vectors(semantic, layout.build_dir(fresh))
    assert len(_live_entries(layout.build_dir(fresh) / PUBLIC)["p.md"][0][3]) == 1  # its one passage's vector


def test_every_segment_of_an_updated_semantic_build_has_both_columns(tmp_path: Path) -> None:
    """Live updates add segments: each holds the vector and passage_vectors columns, a page
    without passages too (its passage column value is empty, but present)."""
    content, index = tmp_path / "wiki", tmp_path / "index"
    content.mkdir()
    settings_ = WikiSettings(root=content, semantic_model=MODEL)
    layout = IndexLayout(index)
    for step, body in enumerate(_BODIES[:3]):
        (content / f"p{step}.md").write_text(_PAGE.format(title=f"Page {step}", audience="public", body=body), "utf-8")
        with Indexer(settings_, layout) as indexer:
            indexer.sync()
        assert missing_vectors(layout.build_dir(layout.current_name() or "")) == []
