"""Components as validated data. ``load()`` returns the shared, frozen ``Content``."""

from meloch.content.loader import ContentError, load, load_dir

__all__ = ["ContentError", "load", "load_dir"]
