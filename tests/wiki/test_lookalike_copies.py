"""Copies written with look-alike letters (Cyrillic ``а``, Greek ``ο`` in Latin words)
are copies (provider.wiki.copies folds them to the Latin letter; CONTRACT X2): a public
page that repeats an internal page's text in look-alikes is not served to customer_safe."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provider.wiki.check import check_wiki
from provider.wiki.classify import AudienceRule
from provider.wiki.copies import word_bag, words
from provider.wiki.document import WikiSettings

SECRET = ("The refund override code is ALPHACANARY and agents apply it silently for valued accounts "
          "whose renewal failed twice in one billing period.")
#: Latin letter → look-alikes in other scripts (Cyrillic, Greek), as a hostile author picks them.
LOOKALIKES = {"a": "аα", "e": "е", "o": "оοо", "p": "рρ", "c": "сϲ", "i": "іι", "y": "у", "x": "хχ"}


def disguise(text: str, picks: list[bool]) -> str:
    out = []
    for index, char in enumerate(text):
        options = LOOKALIKES.get(char)
        out.append(options[index % len(options)] if options and picks[index % len(picks)] else char)
    return "".join(out)


@given(st.lists(st.booleans(), min_size=1, max_size=40))
def test_lookalike_letters_fold_to_the_words_they_imitate(picks: list[bool]) -> None:
    assert words(disguise(SECRET, picks)) == words(SECRET)
    assert word_bag(disguise(SECRET, picks)) == word_bag(SECRET)


def test_russian_text_keeps_its_own_words_apart() -> None:
    """Folding is the same on both sides: Russian pages still compare as themselves."""
    assert word_bag("Возврат средств за подписку оформляется в личном кабинете.") != \
        word_bag("Подписку можно продлить в личном кабинете в любое время.")


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.booleans(), min_size=1, max_size=12).filter(any))
def test_x2_a_lookalike_copy_of_an_internal_page_is_not_public(tmp_path_factory, picks: list[bool]) -> None:  # type: ignore[no-untyped-def]
    root: Path = tmp_path_factory.mktemp("wiki")
    (root / "internal").mkdir()
    (root / "pub").mkdir()
    (root / "internal" / "override.md").write_text(f"# Override\n\n{SECRET}\n", "utf-8")
    (root / "pub" / "copy.md").write_text(f"# Refunds\n\n{disguise(SECRET, picks)}\n", "utf-8")
    (root / "pub" / "other.md").write_text("# Invoices\n\nInvoices are sent on the first day of the month "
                                           "to the billing address on file.\n", "utf-8")
    rules = (AudienceRule("internal/**", "internal"), AudienceRule("**", "public"))
    files = {f.path: f for f in check_wiki(WikiSettings(root=root, audience_rules=rules)).files}
    assert files["pub/other.md"].resolved.public  # type: ignore[union-attr]
    assert not files["pub/copy.md"].resolved.public  # type: ignore[union-attr]
