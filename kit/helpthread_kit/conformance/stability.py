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

Across a restart or a re-index the operator runs the checker twice with the same
``--document-ids FILE``: the first run records, per registration and query, the
``documentId`` of each title it saw; the second compares. A title seen by only one run
is not judged (content may change in between); a title whose id changed is a miss.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from .expect import Tally
from .model import CheckGroup, Failed, Skipped, check_key
from .session import Session

__all__ = ["IDS_ACROSS_RUNS", "REPEATS", "STABLE_IDS", "checks"]

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


#: The shape of the --document-ids file: registration -> query -> title -> documentIds.
IdRecord = dict[str, dict[str, dict[str, list[str]]]]


def _record(s: Session) -> IdRecord:
    queries = list(dict.fromkeys([s.broad_query(2)[0], *s.canary_queries]))
    record: IdRecord = {}
    for profile in s.profiles():
        for query in queries:
            exchange = s.search(query, profile)
            if exchange.status == 200:
                ids = _ids_by_title(exchange.results)
                record.setdefault(profile, {})[query] = {title: sorted(found) for title, found in ids.items()}
    return record


ACROSS_RUNS_NAME = "documentId survives a restart and a re-index (--document-ids, two runs)"
#: The key of the check below (the test kit replaces it by building the backend twice).
IDS_ACROSS_RUNS = check_key("R2", ACROSS_RUNS_NAME)


@checks.register("R2", ACROSS_RUNS_NAME)
def ids_across_runs(s: Session) -> str:
    """R2: module docstring."""
    if not s.document_ids_file:
        raise Skipped("give --document-ids FILE, restart or re-index the provider, and run again with the same FILE")
    path = Path(s.document_ids_file)
    if not path.exists():
        record = _record(s)
        path.write_text(json.dumps(record, ensure_ascii=False, indent=1, sort_keys=True), "utf-8")
        count = sum(len(titles) for queries in record.values() for titles in queries.values())
        raise Skipped(f"recorded the documentIds of {count} titles in {path}; restart or re-index the provider and "
                      "run again with the same --document-ids to compare")
    try:
        before: IdRecord = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError) as exc:
        raise Failed(f"the checker cannot read {path}: {exc}; delete it to record afresh") from None
    tally = Tally()
    compared = 0
    for profile, queries in before.items():
        if profile not in s.profiles():
            continue
        for query, titles in queries.items():
            exchange = s.search(query, profile)
            if not tally.expect(f"{profile} {query!r}", exchange, 200):
                continue
            for title, ids in _ids_by_title(exchange.results).items():
                if title in titles:
                    compared += 1
                    if sorted(ids) != titles[title]:
                        tally.miss(f"{profile} {query!r}: {title[:60]!r} was documentId {titles[title][0]!r} in the "
                                   f"recorded run and is {sorted(ids)[0]!r} now")
    if compared == 0:
        raise Skipped(f"no title of {path} was found again; delete it to record afresh")
    return tally.verdict(f"{compared} titles kept the documentId recorded in {path}")
