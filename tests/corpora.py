"""Where the shared real-docs corpora are, and what a test does when one is missing.

The corpora (Hetzner tutorials, kaia-docs, astro-docs, ms-officedocs-support) live beside
the repository, at ``../shared/corpora`` from its root, as CI lays them out. A checkout
elsewhere may point ``KP_CORPORA`` at the folder holding them.

When a corpus is missing, a test needing it is skipped on a developer's machine but
**fails** in CI (the ``CI`` environment variable set, as CI sets ``CI=true``): a CI run
that quietly skipped the real-corpus tests would pass without running them.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support import REPO_ROOT

#: Environment variable naming the folder of the corpora, for a checkout not beside them.
CORPORA_ENV = "KP_CORPORA"


def corpora_root() -> Path:
    """The folder holding the shared corpora: ``$KP_CORPORA``, else ``../shared/corpora``
    from the repository root. It may not exist (see :func:`require_corpus`)."""
    configured = os.environ.get(CORPORA_ENV)
    return Path(configured) if configured else REPO_ROOT.parent / "shared" / "corpora"


def corpus_path(*parts: str) -> Path:
    """A path inside the corpora folder, e.g. ``corpus_path("kaia-docs")``; not checked."""
    return corpora_root().joinpath(*parts)


def in_ci() -> bool:
    """Whether this run is CI's: ``CI`` set to anything but empty, ``0`` or ``false``."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def require_corpus(*parts: str) -> Path:
    """The folder ``parts`` inside the corpora, which must exist.

    Call it in a test or fixture (not at import time).

    Raises:
        pytest.fail.Exception: the folder is missing and this run is CI's.
        pytest.skip.Exception: the folder is missing elsewhere.
    """
    path = corpus_path(*parts)
    if not path.is_dir():
        message = (f"the shared corpus {'/'.join(parts)} is missing at {path} "
                   f"(expected ../shared/corpora beside the repository, or ${CORPORA_ENV})")
        if in_ci():
            pytest.fail(message + "; CI must run the real-corpus tests", pytrace=False)
        pytest.skip(message)
    return path
