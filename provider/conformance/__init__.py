"""Moved to :mod:`provider.contract.conformance`: the checker belongs to the contract
layer, which stands alone (issue 14). This package keeps the old import paths —
``provider.conformance`` and each of its modules — working."""

import importlib
import sys

from provider.contract.conformance import *  # noqa: F403 - the same public names
from provider.contract.conformance import __all__  # noqa: F401

for _name in ("auth", "expect", "exposure", "fields", "model", "plaintext", "report", "responses", "runner",
              "session", "transport", "validation", "wire"):
    sys.modules[f"{__name__}.{_name}"] = importlib.import_module(f"provider.contract.conformance.{_name}")
