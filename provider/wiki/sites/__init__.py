"""Each docs tool's own publication settings, read with the tool's semantics.

One small module per tool (:mod:`.jekyll`, :mod:`.mkdocs`, :mod:`.docfx`, :mod:`.hugo`,
:mod:`.javascript` for Docusaurus and Starlight) turns the tool's configuration into one
common, JSON-able :class:`~.policy.SitePolicy`; :mod:`.load` reads it once per change and
gives each page its :class:`~.load.SiteView`.
"""

from .load import SiteView, is_site_config, load_site_policy, site_digest, site_view
from .policy import Finding, MetaRule, PathRule, SitePolicy

__all__ = ["Finding", "MetaRule", "PathRule", "SitePolicy", "SiteView", "is_site_config", "load_site_policy",
           "site_digest", "site_view"]
