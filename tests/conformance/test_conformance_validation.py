"""Schema validation of every answer, with each problem attributed to its duty."""

from __future__ import annotations

import json
from typing import Any

import pytest

from helpthread_kit.conformance.validation import body_problems

GOOD_RESULT = {"documentId": "a", "title": "T", "snippet": "S", "audience": "public"}
JSON = "application/json"


def problems(path: str, status: int, data: Any, content_type: str = JSON) -> list[str]:
    body = data if isinstance(data, bytes) else json.dumps(data).encode()
    return [duty for duty, _ in body_problems(path=path, status=status, content_type=content_type, body=body)]


def test_valid_answers_have_no_problems() -> None:
    assert problems("/retrieve", 200, {"contractVersion": 1, "results": [GOOD_RESULT]}) == []
    assert problems("/capabilities", 200, {"contractVersion": 1, "capabilities": ["retrieve"]}) == []
    assert problems("/retrieve", 401, {"contractVersion": 1, "error": {"code": "stale_timestamp", "message": "m"}},
                    content_type="application/json; charset=utf-8") == []


@pytest.mark.parametrize(
    ("result", "duty"),
    [
        ({k: v for k, v in GOOD_RESULT.items() if k != "audience"}, "R2"),
        ({**GOOD_RESULT, "audience": "Public"}, "R2"),
        ({**GOOD_RESULT, "documentId": ""}, "R2"),
        ({**GOOD_RESULT, "snippet": "x" * 481}, "R3"),
        ({**GOOD_RESULT, "title": "   "}, "R3"),
        ({**GOOD_RESULT, "url": "http://x.example/a"}, "R7"),
        ({**GOOD_RESULT, "url": "https://user@x.example/a"}, "R7"),
        ({**GOOD_RESULT, "freshness": "fresh"}, "R6"),
        ({**GOOD_RESULT, "reviewDueAt": "2026-01-01T00:00:00+02:00"}, "R6"),
        ({**GOOD_RESULT, "score": 7}, "R4"),
        ({**GOOD_RESULT, "revision": ""}, "R5"),
        ("not an object", "R2"),
    ],
)
def test_result_problems_belong_to_their_duty(result: Any, duty: str) -> None:
    assert problems("/retrieve", 200, {"contractVersion": 1, "results": [result]}) == [duty]


@pytest.mark.parametrize(
    ("path", "status", "data", "duties"),
    [
        ("/retrieve", 200, {"results": []}, ["W4"]),
        ("/retrieve", 200, {"contractVersion": 2, "results": []}, ["W4"]),
        ("/retrieve", 200, {"contractVersion": 1}, ["R1"]),
        ("/retrieve", 200, {"contractVersion": 1, "results": {}}, ["R1"]),
        ("/retrieve", 200, {"contractVersion": 1, "results": [GOOD_RESULT] * 51}, ["R1"]),
        ("/retrieve", 401, {"error": {"code": "invalid_signature", "message": "m"}}, ["W4"]),
        ("/retrieve", 400, {"contractVersion": 1, "error": {"code": "bad", "message": "m"}}, ["W4"]),
        ("/retrieve", 500, b"Internal Server Error", ["W4"]),
        ("/retrieve", 200, [GOOD_RESULT], ["W4"]),
        ("/capabilities", 200, {"contractVersion": 1, "capabilities": ["scoring"]}, ["C3"]),
        ("/capabilities", 200, {"contractVersion": 1, "capabilities": ["retrieve", "teleport"]}, ["C3"]),
    ],
)
def test_envelope_problems(path: str, status: int, data: Any, duties: list[str]) -> None:
    assert problems(path, status, data) == duties


def test_a_non_json_content_type_is_a_w4_problem() -> None:
    assert problems("/retrieve", 200, {"contractVersion": 1, "results": []}, content_type="text/html") == ["W4"]


def test_unreadable_bodies_do_not_crash() -> None:
    assert problems("/retrieve", 200, b"[" * 100_000) == ["W4"]
    assert problems("/retrieve", 200, b"\xff\xfe") == ["W4"]
