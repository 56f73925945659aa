"""The scenario file format (YAML), decoded strictly: an unknown key or a wrong type is an error.

See ``docs/scenarios.md`` for the format with examples.
"""

from __future__ import annotations

from typing import Any

import msgspec

from meloch.engine.model import Setup
from meloch.scenario.content import ContentSpec


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
    lacks_verb: list[str] = []
    """No legal action has this verb (``ambush``), or this seat tag and verb (``S ambush``)."""


class ViewSpec(_Strict, kw_only=True):
    """A check on ``view(state, seat)``: the value at ``path`` equals ``value``, and/or (``contains``)
    holds it as an element or substring, and/or (``lacks``) does not."""

    seat: int | None = None
    path: str
    value: Any = msgspec.UNSET
    contains: Any = msgspec.UNSET
    lacks: Any = msgspec.UNSET


class MetricSpec(_Strict, kw_only=True):
    """A check on a figure the rules derive but the state does not store, read through the engine
    (``track.metrics``): every Triumph metric by name, and ``controlled`` (the seat's locations)."""

    seat: int
    name: str
    value: Any = msgspec.UNSET
    contains: Any = msgspec.UNSET
    lacks: Any = msgspec.UNSET


class Step(_Strict, kw_only=True):
    """One step: apply ``action`` (expecting IllegalAction ``error`` if given), then check."""

    action: str | None = None
    error: str | None = None
    expect: dict[str, Any] = {}
    expect_not: dict[str, Any] = {}
    """Path -> a value the state must NOT hold there."""
    expect_in: dict[str, list[Any]] = {}
    """Path -> the values allowed there (one of them)."""
    view: ViewSpec | list[ViewSpec] = []
    metric: MetricSpec | list[MetricSpec] = []
    legal: LegalSpec | None = None
    events: list[str] = []
    """Substrings that must each occur in some event text of the last transition (or, with
    ``events_since``, of the transitions since that step)."""
    events_in_order: list[str] = []
    """Substrings that must occur in this order, each in a later event than the one before."""
    events_lack: list[str] = []
    """Substrings that no event text may contain."""
    events_since: int | None = None
    """Check the events of every transition from step ``events_since`` (an index in this step list)
    to this one, not only the last."""
    note: str = ""

    def views(self) -> list[ViewSpec]:
        return [self.view] if isinstance(self.view, ViewSpec) else list(self.view)

    def metrics(self) -> list[MetricSpec]:
        return [self.metric] if isinstance(self.metric, MetricSpec) else list(self.metric)


class Run(_Strict, kw_only=True):
    """One of several step lists played from the same position; ``patch`` is applied after the
    position's own patch (same keys and order)."""

    name: str = ""
    patch: dict[str, Any] = {}
    steps: list[Step]


class SeedRange(_Strict, kw_only=True):
    """``seeds: {first: 1, count: 50}``: the seeds first .. first + count - 1."""

    first: int
    count: int


class Scenario(_Strict, kw_only=True):
    name: str
    source: str
    """The rulebook line (or rules-notes entry) this scenario checks."""
    setup: SetupSpec = msgspec.field(default_factory=SetupSpec)
    content: ContentSpec | None = None
    """A content set of this scenario's own: test entries added to the standard data, or a data
    folder (``meloch/scenario/content.py``); the game is played with it (``Setup.content``)."""
    setup_error: str | None = None
    """Expect the setup itself to be refused (``SetupError`` whose message contains this)."""
    seeds: list[int] | SeedRange | None = None
    """Run everything once per seed (overrides ``setup.seed``)."""
    position: Position = msgspec.field(default_factory=Position)
    steps: list[Step] = []
    runs: list[Run] = []
    """Several step lists from the same position (``steps``, if any, run first as one more run)."""

    def seed_list(self) -> list[int]:
        if self.seeds is None:
            return [self.setup.seed]
        if isinstance(self.seeds, SeedRange):
            return list(range(self.seeds.first, self.seeds.first + self.seeds.count))
        return list(self.seeds)

    def all_runs(self) -> list[Run]:
        return ([Run(steps=self.steps)] if self.steps or not self.runs else []) + list(self.runs)
