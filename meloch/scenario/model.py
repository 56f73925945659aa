"""The scenario file format (YAML), decoded strictly: an unknown key or a wrong type is an error.

See ``docs/scenarios.md`` for the format with examples.
"""

from __future__ import annotations

from typing import Any

import msgspec

from meloch.engine.model import Setup


class _Strict(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    pass


class SetupSpec(Setup, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The engine's ``Setup`` (every field, so a new setup option is usable at once) plus the seed."""

    seed: int = 0

    def to_setup(self) -> Setup:
        fields = msgspec.structs.asdict(self)
        del fields["seed"]
        return Setup(**fields)


class Position(_Strict, kw_only=True):
    """How to reach the position: a prefix of actions in notation, then a patch (either may be empty)."""

    prefix: list[str] = []
    patch: dict[str, Any] = {}


class LegalSpec(_Strict, kw_only=True):
    contains: list[str] = []
    lacks: list[str] = []
    count: int | None = None


class ViewSpec(_Strict, kw_only=True):
    """A check on ``view(state, seat)``: the value at ``path`` equals ``value``, and/or (``contains``)
    holds it as an element or substring, and/or (``lacks``) does not."""

    seat: int | None = None
    path: str
    value: Any = msgspec.UNSET
    contains: Any = msgspec.UNSET
    lacks: Any = msgspec.UNSET


class Step(_Strict, kw_only=True):
    """One step: apply ``action`` (expecting IllegalAction ``error`` if given), then check."""

    action: str | None = None
    error: str | None = None
    expect: dict[str, Any] = {}
    view: ViewSpec | list[ViewSpec] = []
    legal: LegalSpec | None = None
    events: list[str] = []
    """Substrings that must each occur in some event text of the last transition."""
    note: str = ""

    def views(self) -> list[ViewSpec]:
        return [self.view] if isinstance(self.view, ViewSpec) else list(self.view)


class Scenario(_Strict, kw_only=True):
    name: str
    source: str
    """The rulebook line (or rules-notes entry) this scenario checks."""
    setup: SetupSpec = msgspec.field(default_factory=SetupSpec)
    position: Position = msgspec.field(default_factory=Position)
    steps: list[Step]
