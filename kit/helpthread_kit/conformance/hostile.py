"""Hostile queries: valid queries a naive search backend chokes on (CONTRACT Q1, R1).

A query is any non-empty string of at most 1024 characters (Q1). Backends that hand it
to a query language — SQLite FTS5 ``MATCH``, Lucene/Whoosh syntax, Elasticsearch
``query_string`` — raise on an unbalanced quote, a bare operator or a field prefix, and
the provider answers ``500``. Each query here must be answered ``200`` (results or none),
or ``503`` with ``Retry-After`` when the provider is busy.
"""

from __future__ import annotations

from .expect import Tally
from .model import CheckGroup, Failed
from .session import CUSTOMER_SAFE, Session

__all__ = ["HOSTILE_QUERIES", "checks"]

checks = CheckGroup()

#: One query per family of syntax that breaks a query parser.
HOSTILE_QUERIES: tuple[str, ...] = (
    "what's my invoice?",
    'password "reset',
    "'",
    '"',
    '""',
    "AND",
    "OR NOT",
    "invoice AND OR NOT password",
    "NEAR(invoice password)",
    "*",
    "pass* ?ord ~invoice ^2",
    "title:password",
    "invoice:",
    "(invoice",
    "invoice)",
    "[invoice TO payment]",
    "{invoice}",
    "- + ! && || \\ /",
    "invoice -",
    "%_",
    "¿Cómo restablezco mi contraseña?",
    "パスワードを忘れた。「再設定」は？",
    "如何重置密码？（紧急）",
    "كيف أعيد تعيين كلمة المرور؟",
    "Пароль — «сброс»!",
    "पासवर्ड। रीसेट॥",
    "ⓟⓐⓢⓢ 🔑🙂 \u200b\u202e",
    "a" * 1024,
    " ".join(["password"] * 113),
)


@checks.register("Q1", "hostile queries (quotes, operators, every script's punctuation) are never answered 500")
def hostile_queries(s: Session) -> str:
    """Q1, R1: every query of :data:`HOSTILE_QUERIES` is answered ``200`` (or ``503``),
    once a plain query of the same shape was."""
    plain = s.search("invoice", CUSTOMER_SAFE, limit=5)
    if plain.status != 200:
        raise Failed(f"the plain query 'invoice' answered {plain.describe()}, so hostile queries cannot be judged")
    tally = Tally()
    for query in HOSTILE_QUERIES:
        exchange = s.search(query, CUSTOMER_SAFE, limit=5)
        tally.expect(f"query {query[:40]!r}", exchange, (200, 503))
    return tally.verdict(f"all {len(HOSTILE_QUERIES)} hostile queries were answered 200 or 503", own=True)
