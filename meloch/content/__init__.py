"""Components as validated data. ``load()`` returns the shared, frozen standard ``Content``;
``registry`` holds other content sets by id (``Setup.content``)."""

from meloch.content.loader import ContentError, load, load_dir
from meloch.content.registry import STANDARD, get, register

__all__ = ["STANDARD", "ContentError", "get", "load", "load_dir", "register"]
