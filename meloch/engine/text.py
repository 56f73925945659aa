"""The engine's text layer: small helpers every event text and option label uses, so that words
filled in from data (a structure, a resource, a worker colour) read as English."""

from __future__ import annotations

from typing import Final

_CONSONANT_SOUND: Final = ("uni", "use", "usu", "uti", "one", "once", "eu", "ewe")
"""Words spelled with a vowel that start with a consonant sound ("a unit", "a one-off")."""
_VOWEL_SOUND: Final = ("hour", "honest", "honour", "honor", "heir")
"""Words spelled with a consonant that start with a vowel sound ("an hour")."""


def article(word: str) -> str:
    """``a`` or ``an`` before ``word``, by its first sound: "an" before "armory", "oil", "orange";
    "a" before "worker", "unit"."""
    w = word.lstrip("\"'(").lower()
    if not w:
        return "a"
    if w.startswith(_VOWEL_SOUND):
        return "an"
    if w.startswith(_CONSONANT_SOUND):
        return "a"
    if w[0].isdigit():
        return "an" if w.startswith(("8", "11", "18")) else "a"
    return "an" if w[0] in "aeiou" else "a"


def a_or_an(word: str) -> str:
    """``word`` with its indefinite article: ``a_or_an("armory")`` is "an armory"."""
    return f"{article(word)} {word}"


__all__ = ["a_or_an", "article"]
