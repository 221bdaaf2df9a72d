"""An example knowledge provider adapter over a SQLite database of HTML help articles.

The database has no front matter: its own ``visibility`` column says who may read an
article (only the exact value ``everyone`` is public; anything else is internal, X5)
and ``status`` whether it is published (a ``draft`` is served to nobody, X5). A
``customer_safe`` search reads through a connection that *cannot* read the table, only
the ``public_articles`` view (an SQLite authorizer refuses anything else, X2) — see
:mod:`sqlite_adapter.backend`.
"""

from .app import build_app
from .backend import SQLiteBackend, create_database

__all__ = ["SQLiteBackend", "build_app", "create_database"]
