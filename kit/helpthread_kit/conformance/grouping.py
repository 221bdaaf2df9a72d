"""One root cause, one failure: failures caused by another check's failure are reported
as skipped, naming it (issue 25).

A provider whose backend breaks one duty can make most checks fail for that one reason:
a strict provider (a staging deployment, the test kit) answers ``500`` to every search
whose results it would have had to repair, so a backend that ignores ``limit`` turns
every signature, window and media-type check into "a correct request answered 500".
Those checks could not be judged; only the check of the ``500`` itself (R1) failed.

A check may also declare the checks it depends on (``Check.depends_on``): W5 and X8
compare two answers and assume identical requests get identical ``documentId``s, which
R2's stability check tests; when it failed, their failures are skipped, naming it.

A failure is *dependent on R1* when R1 failed and every miss the check reported is a ``500``
answer to a request the contract says must be answered (a correctly signed request with
a valid JSON body), among the requests that check sent itself. A check whose own
subject is a kind of request (a hostile query; ``Failed.own``) keeps its failure unless
every ``500`` it got names the backend fault that caused it ("the backend broke Q2", as a
strict provider built on the contract kit says), because no other check names it. A
``500`` to an invalid request (Q6's invalid JSON) is never attributed to another cause.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from .model import Outcome, Status, check_key
from .session import Exchange
from .validation import parse_json

__all__ = ["ROOT_CAUSE", "group_dependent_failures", "is_valid_request"]

#: The check every dependent failure is grouped under.
ROOT_CAUSE = check_key("R1", "no correctly signed request is answered 500")
_DUTIES = re.compile(r"the backend broke ((?:[A-Z][0-9]{1,2})(?:, [A-Z][0-9]{1,2})*)")
_MAX_QUERY_CHARS = 1024
_ANSWERED_500 = re.compile(r"\banswered 5(?!03)[0-9]{2}\b")


def is_valid_request(exchange: Exchange) -> bool:
    """Whether the contract requires ``exchange``'s request to be answered (not refused):
    signed by a registration, and a ``GET`` or a JSON object with a non-blank ``query`` of
    at most 1024 characters and no invalid ``limit``."""
    if exchange.profile is None:
        return False
    if exchange.method == "GET":
        return True
    value, error = parse_json(exchange.request_body)
    if error is not None or not isinstance(value, dict):
        return False
    query: Any = value.get("query")
    if not isinstance(query, str) or not query.strip() or len(query) > _MAX_QUERY_CHARS:
        return False
    limit: Any = value.get("limit", 10)
    return not isinstance(limit, bool) and isinstance(limit, int) and 1 <= limit <= 50


def _server_error(exchange: Exchange) -> bool:
    return exchange.status >= 500 and exchange.status != 503


def _named_cause(exchange: Exchange) -> bool:
    return _DUTIES.search(exchange.body.decode("utf-8", "replace")) is not None


def _dependent(exchanges: Sequence[Exchange], misses: Sequence[str], own: bool) -> bool:
    errors = [e for e in exchanges if _server_error(e)]
    if not errors or not all(is_valid_request(e) for e in errors):
        return False
    if own and not all(_named_cause(e) for e in errors):
        return False
    # Every miss the check reported is one of those 500s ("…: answered 500 …", as
    # Tally.expect and the baselines word it), not a fault of its own: a leak ("returned
    # 'doc-500', which agent_only labels internal") is never worded so.
    return bool(misses) and all(_ANSWERED_500.search(miss) is not None for miss in misses)


def group_dependent_failures(
    outcomes: Sequence[Outcome], sent: Mapping[str, tuple[Sequence[Exchange], Sequence[str], bool]],
    depends_on: Mapping[str, Sequence[str]] | None = None,
) -> list[Outcome]:
    """``outcomes`` with every dependent failure (module docstring) turned into a SKIP
    whose reason names the failed check it depends on and the duties its ``500`` answers
    named ("skipped: depends on Q2, which failed — …").

    Args:
        outcomes: one per check, in report order.
        sent: check key -> the exchanges that check sent itself, the misses it
            reported (``Failed.misses``) and whether they are its own subject
            (``Failed.own``).
        depends_on: check key -> keys of the checks it declares it depends on
            (``Check.depends_on``): its failure is skipped when one of those failed.
    """
    outcomes = _declared(outcomes, depends_on or {})
    root = next((o for o in outcomes if o.key == ROOT_CAUSE), None)
    if root is None or root.status is not Status.FAIL:
        return list(outcomes)
    duties = sorted({d for match in _DUTIES.findall(root.reason) for d in match.split(", ")})
    cause = f"{', '.join(duties)}, which failed: the provider answered 500 naming it" if duties else \
        "R1, which failed: the provider answered 500"
    reason = f"skipped: depends on {cause} (see R1); judged once that is fixed"
    grouped = []
    for outcome in outcomes:
        if outcome.status is Status.FAIL and outcome.key != ROOT_CAUSE and \
                _dependent(*sent.get(outcome.key, ((), (), False))):
            outcome = Outcome(outcome.id, outcome.name, Status.SKIP, reason)
        grouped.append(outcome)
    return grouped


def _declared(outcomes: Sequence[Outcome], depends_on: Mapping[str, Sequence[str]]) -> list[Outcome]:
    failed = {o.key: o for o in outcomes if o.status is Status.FAIL}
    grouped = []
    for outcome in outcomes:
        causes = [failed[k] for k in depends_on.get(outcome.key, ()) if k in failed]
        if outcome.status is Status.FAIL and causes:
            cause = causes[0]
            outcome = Outcome(outcome.id, outcome.name, Status.SKIP,
                              f"skipped: depends on {cause.id} ({cause.name}), which failed; judged once that is fixed")
        grouped.append(outcome)
    return grouped
