"""Reference knowledge provider for the Helpthread Knowledge Provider Interface v1,
backed by a markdown wiki.

* :mod:`helpthread_kit` — the wire contract, independent of any backend;
* :mod:`provider.wiki` — reading and classifying markdown files;
* :mod:`provider.search` — the Whoosh indexes and the search backend;
* :mod:`provider.config` (every setting), :mod:`provider.app`, :mod:`provider.startup`,
  :mod:`provider.cli` — wiring.
"""

__version__ = "0.1.0"
