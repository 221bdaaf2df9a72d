"""An example knowledge provider adapter over two JSON files of help-centre articles.

``public.json`` holds what the operator published to everyone, ``internal.json`` what
only agents may read. The file an article sits in *is* its audience, and a
``customer_safe`` search only ever reads ``public.json`` (CONTRACT X2) — see
:mod:`json_adapter.backend`.
"""

from .app import build_app
from .backend import JsonBackend

__all__ = ["JsonBackend", "build_app"]
