"""Snippet selection: the matching passage, bounded, never empty (CONTRACT R3)."""

from __future__ import annotations

from provider.search.snippets import best_passage, snippet_span


def test_best_passage_is_the_one_carrying_most_query_weight() -> None:
    terms = ["intro account", "billing refund polici", "refund except ledger"]
    assert best_passage(terms, {"refund": 1.0, "ledger": 3.0}) == 2
    assert best_passage(terms, {"refund": 1.0}) == 1  # earliest on a tie


def test_best_passage_matches_whole_terms_only() -> None:
    assert best_passage(["password", "pass word"], {"pass": 1.0}) == 1


def test_title_only_match_falls_back_to_the_first_passage() -> None:
    assert best_passage(["alpha", "beta"], {"zzz": 1.0}) == 0


def test_snippet_extends_with_following_passages_within_bound() -> None:
    passages = ["a" * 100, "b" * 100, "c" * 400]
    assert snippet_span(passages, 0)[0] == "a" * 100 + " " + "b" * 100
    long = snippet_span(["x " * 400], 0, max_chars=480)[0]
    assert len(long) <= 480 and long.endswith("…")
    assert snippet_span([], 0)[0] == ""


def test_snippet_span_says_which_passages_are_shown() -> None:
    """The backend labels an agent result internal when a shown passage came from an
    internal section, so the span must cover exactly the passages in the text."""
    passages = ["a" * 100, "b" * 100, "c" * 400]
    text, shown = snippet_span(passages, 0)
    assert text == "a" * 100 + " " + "b" * 100 and list(shown) == [0, 1]
    assert list(snippet_span(passages, 2)[1]) == [2]
    assert snippet_span([], 0) == ("", range(0))
