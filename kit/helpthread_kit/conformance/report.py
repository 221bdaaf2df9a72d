"""Render a :class:`~helpthread_kit.conformance.runner.Report` for people and for machines.

Text, one line per check, then a summary::

    PASS  A4  timestamps outside the window are refused, past and future — t=now-310s, …
    FAIL  R3  titles and snippets are plain text: no markup of any kind — document 'a' snippet …
    SKIP  X3  agent_only labels what a canary query finds internal — needs the agent_only secret …
    45 checks against https://kb.example.com: 40 passed, 1 failed, 4 skipped (212 requests, 3.1 s) — NOT CONFORMING
"""

from __future__ import annotations

import json

from .model import Status
from .runner import Report

__all__ = ["format_json", "format_text", "summary_line"]


def summary_line(report: Report) -> str:
    """``"<n> checks against <target>: <p> passed, <f> failed, <s> skipped (…) — <verdict>"``."""
    verdict = "NOT CONFORMING" if report.failed else "conforming"
    return (
        f"{len(report.outcomes)} checks against {report.target}: {report.count(Status.PASS)} passed, "
        f"{report.count(Status.FAIL)} failed, {report.count(Status.SKIP)} skipped "
        f"({report.requests} requests, {report.duration_s:.1f} s) — {verdict}"
    )


def format_text(report: Report) -> str:
    """One line per check (``STATUS  ID  name — reason``), one per note (``NOTE  …``: what
    the run could not see), then the summary line."""
    lines = [f"{o.status.value}  {o.id}  {o.name} — {o.reason}" for o in report.outcomes]
    lines.extend(f"NOTE  {note}" for note in report.notes)
    lines.append(summary_line(report))
    return "\n".join(lines)


def format_json(report: Report) -> str:
    """A JSON document: target, summary counts, conforming flag and every check.

    Shape::

        {"target": str, "conforming": bool,
         "summary": {"total": int, "passed": int, "failed": int, "skipped": int,
                     "requests": int, "durationSeconds": float},
         "checks": [{"id": str, "key": str, "name": str, "status": "PASS"|"FAIL"|"SKIP",
                     "reason": str}, ...],
         "notes": [str, ...]}
    """
    document = {
        "target": report.target,
        "conforming": not report.failed,
        "summary": {
            "total": len(report.outcomes),
            "passed": report.count(Status.PASS),
            "failed": report.count(Status.FAIL),
            "skipped": report.count(Status.SKIP),
            "requests": report.requests,
            "durationSeconds": round(report.duration_s, 3),
        },
        "checks": [
            {"id": o.id, "key": o.key, "name": o.name, "status": o.status.value, "reason": o.reason}
            for o in report.outcomes
        ],
        "notes": list(report.notes),
    }
    return json.dumps(document, ensure_ascii=False, indent=2)
