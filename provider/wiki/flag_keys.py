"""The front matter keys the publication rules read with the docs tools' own meaning
(:mod:`provider.wiki.publication`), shared with the restricting-key table
(:mod:`provider.wiki.restricting_keys`), which leaves them to those rules."""

__all__ = ["FLAG_KEYS"]

#: ``draft: true``, ``published: false``, ``unlisted``, Hugo's ``build`` and ``headless``.
FLAG_KEYS = ("draft", "published", "unlisted", "build", "headless")
