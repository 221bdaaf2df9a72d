"""``documentId`` stability, judged from outside (CONTRACT R2: "stable across restarts and
re-indexing").

A restart or a re-index cannot be provoked through the contract. What can be seen is
what a restart would show: a server with several worker processes (or replicas) answers
requests on fresh connections from whichever worker takes them, each of which opened or
built its index on its own. The same query, asked :data:`REPEATS` times over fresh
connections, must give every title the same ``documentId`` each time. An id derived
from a process-local source (a random salt, ``hash()`` of a string, a row number of an
index built in memory) differs between workers and is caught here; against a single
process, run the checker again after a restart. The adapter test kit also builds the
backend twice and compares (``ContractTestKit.test_document_ids_survive_a_rebuild``).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from .expect import Tally
from .model import CheckGroup, Skipped, check_key
from .session import Session

__all__ = ["REPEATS", "STABLE_IDS", "checks"]

checks = CheckGroup()

STABLE_NAME = "documentId is the same for the same document on every connection and worker"
#: The key of the check below: checks that compare two answers depend on it.
STABLE_IDS = check_key("R2", STABLE_NAME)

#: How many times the query is asked, each on a new connection: enough to reach both
#: workers of a two-worker server with a probability of 1 - 2**-5.
REPEATS = 6


def _ids_by_title(results: list[dict[str, Any]]) -> dict[str, frozenset[str]]:
    found: dict[str, set[str]] = defaultdict(set)
    for result in results:
        title, document_id = result.get("title"), result.get("documentId")
        if isinstance(title, str) and isinstance(document_id, str):
            found[title].add(document_id)
    return {title: frozenset(ids) for title, ids in found.items()}


@checks.register("R2", STABLE_NAME)
def stable_ids(s: Session) -> str:
    """R2: module docstring."""
    query, _ = s.broad_query(2)
    tally = Tally()
    titles: set[str] = set()
    for profile in s.profiles():
        seen: dict[str, frozenset[str]] = {}
        for attempt in range(REPEATS):
            exchange = s.search(query, profile, fresh=True)
            if not tally.expect(f"{profile} {query!r} (connection {attempt + 1})", exchange, 200):
                break
            for title, ids in _ids_by_title(exchange.results).items():
                titles.add(title)
                before = seen.setdefault(title, ids)
                if before != ids:
                    tally.miss(f"{profile} {query!r}: {title[:60]!r} was documentId {sorted(before)[0]!r} on one "
                               f"connection and {sorted(ids)[0]!r} on connection {attempt + 1}")
    if not titles:
        raise Skipped("no result to compare; pass --query with words your public documents contain")
    return tally.verdict(f"{REPEATS} answers to {query!r} per registration, each over a new connection, gave each "
                         f"of {len(titles)} titles one documentId")
