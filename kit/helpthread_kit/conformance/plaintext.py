"""The checker's plain-text rule lives in :mod:`helpthread_kit.plaintext`, beside the
HTML converter adapters use, so the two agree on what plain text is."""

from ..plaintext import markup_in

__all__ = ["markup_in"]
