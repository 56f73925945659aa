"""Content sets by id, so that games with different content run side by side in one process.

A game names its content in ``Setup.content`` (saved with the state); ``""`` is the standard set in
``meloch/content/data``. Another set (a test set, a balance experiment) is loaded with ``load_dir``
and registered under its own id before a game names it.
"""

from __future__ import annotations

from meloch.content.loader import ContentError, load
from meloch.content.schema import Content

STANDARD = ""
"""The id of the package's own content (``load()``)."""

_SETS: dict[str, Content] = {}


def register(cid: str, content: Content) -> None:
    """Make ``content`` available as ``cid``; re-registering an id with other content is refused,
    since games already saved under that id would change meaning."""
    if cid == STANDARD:
        raise ValueError("the empty id names the standard content; register another set under its own id")
    old = _SETS.get(cid)
    if old is not None and old is not content and old != content:
        raise ValueError(f"content id {cid!r} is already registered with other content")
    _SETS[cid] = content


def get(cid: str) -> Content:
    """The content set ``cid`` (``""``: the standard set)."""
    if cid == STANDARD:
        return load()
    try:
        return _SETS[cid]
    except KeyError:
        known = ", ".join(repr(k) for k in sorted(_SETS)) or "none"
        raise ContentError("registry", cid, "", f"unknown content set (registered: {known})") from None


def registered() -> tuple[str, ...]:
    return (STANDARD, *sorted(_SETS))
