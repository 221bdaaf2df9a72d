"""serve() and create_app refuse a per-process replay store when several workers serve
(CONTRACT A5, issue 14): a replay on another connection would reach another worker."""

from __future__ import annotations

import pytest

from helpthread_kit import ConfigurationError, ContractSettings, Exposure, Registration, create_app
from helpthread_kit.replay import MemoryReplayStore
from helpthread_kit.replay_sqlite import SQLiteReplayStore
from helpthread_kit.serving import REPLAY_STORE_ENV, WORKERS_ENV, default_replay_store, serve
from tests.conformance.broken.corpus import ArticleBackend

REGISTRATIONS = [Registration.from_values("cs", Exposure.CUSTOMER_SAFE, ["serving-test-secret-0123456789-abcdefgh"])]


@pytest.mark.parametrize("store", [None, "memory"])
def test_serve_refuses_several_workers_without_a_shared_store(store: str | None) -> None:
    with pytest.raises(ConfigurationError, match="shared replay store"):
        serve("tests.conformance.broken.repairs:per_process_store_app", workers=2, replay_store=store)


def test_serve_refuses_several_workers_with_an_app_object() -> None:
    with pytest.raises(ConfigurationError, match="import string"):
        serve(create_app(ArticleBackend(), ContractSettings(registrations=REGISTRATIONS)), workers=2,
              replay_store="sqlite:///tmp/x.db")


def test_inside_a_multi_worker_serve_create_app_refuses_a_per_process_store(
    monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    monkeypatch.setenv(WORKERS_ENV, "2")
    with pytest.raises(ConfigurationError, match="per-process replay store"):
        create_app(ArticleBackend(), ContractSettings(registrations=REGISTRATIONS, replay_store=MemoryReplayStore()))


def test_workers_get_the_store_serve_was_given_by_default(monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> None:
    monkeypatch.setenv(WORKERS_ENV, "2")
    monkeypatch.setenv(REPLAY_STORE_ENV, f"sqlite://{tmp_path}/replay.db")
    assert isinstance(default_replay_store(), SQLiteReplayStore)
    create_app(ArticleBackend(), ContractSettings(registrations=REGISTRATIONS))  # the default is shared: accepted
