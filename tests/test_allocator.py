"""Fewer malloc arenas, and freed memory given back (provider.allocator, issue 27).

Each case runs in a fresh interpreter: the arena limit is process-wide and read from the
environment when a process starts, so it is observed in a real child process."""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import textwrap

import pytest

glibc = pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="malloc arenas and malloc_trim are glibc's")

_PROBE = textwrap.dedent("""
    import json, os, subprocess, sys
    from provider import allocator
    limited = allocator.limit_arenas()
    child = subprocess.run([sys.executable, "-c", "import os; print(os.environ.get('MALLOC_ARENA_MAX'))"],
                           capture_output=True, text=True, check=True).stdout.strip()
    big = [bytes(1000) for _ in range(200_000)]  # ~200 MiB of small blocks, then freed
    del big
    print(json.dumps({"limited": limited, "here": os.environ.get("MALLOC_ARENA_MAX"), "child": child,
                      "released": allocator.release()}))
""")


def _probe(env: dict[str, str]) -> dict[str, object]:
    out = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, check=True, env=env,
                         cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__)))).stdout
    found: dict[str, object] = json.loads(out.splitlines()[-1])
    return found


@glibc
def test_processes_started_after_the_limit_get_two_arenas() -> None:
    env = {k: v for k, v in os.environ.items() if k != "MALLOC_ARENA_MAX"}
    found = _probe(env)
    assert found == {"limited": True, "here": "2", "child": "2", "released": True}


@glibc
def test_an_operators_own_arena_limit_is_kept() -> None:
    found = _probe({**os.environ, "MALLOC_ARENA_MAX": "4"})
    assert found["limited"] is True
    assert found["here"] == found["child"] == "4"
