"""What ``serve`` leaves behind when it stops (issue 24, a newcomer's run): the files of one
run go, what the next start reuses stays. Over real processes: tests/e2e/test_dev_mode.py."""

from __future__ import annotations

import json
import os
from pathlib import Path

from provider.config import config_from_mapping
from provider.devmode import create_dev_registrations, dev_state_path, forget_dev_state
from provider.startup import RUN_FILES, remove_run_files

URL = "http://127.0.0.1:18410"


def test_a_dev_servers_secrets_are_forgotten_when_it_stops(tmp_path: Path) -> None:
    env = {"XDG_STATE_HOME": str(tmp_path)}
    _, _, path = create_dev_registrations(URL, env)
    assert path == dev_state_path(URL, env) and path.is_file()
    assert forget_dev_state(URL, env) is True
    assert not path.exists()
    assert forget_dev_state(URL, env) is False  # nothing left to remove


def test_a_file_another_dev_server_wrote_since_is_left_alone(tmp_path: Path) -> None:
    """A second ``serve --dev`` on the same port replaced the file: the first one, stopping,
    must not take the running server's secrets away from ``query``."""
    env = {"XDG_STATE_HOME": str(tmp_path)}
    _, _, path = create_dev_registrations(URL, env)
    data = json.loads(path.read_text("utf-8"))
    path.write_text(json.dumps({**data, "pid": os.getpid() + 1}), "utf-8")
    assert forget_dev_state(URL, env) is False
    assert path.is_file()


def test_run_files_go_and_the_index_and_replay_store_stay(tmp_path: Path) -> None:
    config = config_from_mapping({"content": "content", "index": "index", "replay_store": "sqlite"}, base=tmp_path)
    state = config.state_dir
    (state / "metrics").mkdir(parents=True)
    (state / "metrics" / "counter_1.db").write_bytes(b"x")
    for name in (*RUN_FILES, "replay.sqlite3", "replay.sqlite3-wal"):
        (state / name).write_text("{}", "utf-8")
    (config.index / "CURRENT").write_text("b1", "utf-8")
    removed = remove_run_files(config, metrics=True)
    assert sorted(p.name for p in removed) == sorted([*RUN_FILES, "metrics"])
    assert sorted(p.name for p in state.iterdir()) == ["replay.sqlite3", "replay.sqlite3-wal"]
    assert (config.index / "CURRENT").is_file()
    # --dev: the replay store's nonces were signed with that run's secrets only.
    remove_run_files(config, metrics=False, dev=True)
    assert list(state.iterdir()) == []
