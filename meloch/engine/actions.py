"""Actions: small values with a canonical text form, and the one error type for refusals.

The notation is ``<seat tag> <verb> <arg> <arg>...`` with single-space separators, e.g.
``S section 2``, ``E move 7``, ``S move char 3 4``. ``parse(str(a)) == a`` for every action.
"""

from __future__ import annotations

from meloch.engine.model import TAG_SEAT, Action

__all__ = ["Action", "IllegalAction", "parse"]


class IllegalAction(Exception):
    """A refused action. ``code`` is stable (for programs); ``message`` is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"[{code}] {message}")
        self.code = code
        self.message = message


def parse(text: str) -> Action:
    """Parse the canonical notation. Raises ``IllegalAction('bad_notation', ...)``."""
    parts = text.split()
    if len(parts) < 2:
        raise IllegalAction(
            "bad_notation",
            f"{text!r} is not an action: write '<seat> <verb> [args]', for example 'S section 2'.",
        )
    who, verb, *args = parts
    if who not in TAG_SEAT:
        raise IllegalAction(
            "bad_notation", f"{who!r} is not a seat tag: use one of {', '.join(sorted(TAG_SEAT))}."
        )
    return Action(who, verb, tuple(args))
