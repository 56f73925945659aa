"""The content a game is played with, and lookups built once per content set.

A game's content is ``meloch.content.get(state.setup.content)``. The protocol's entry points bind it
for the length of the call (``using``), and the rules read it with ``active()``: the helpers keep
their signatures (``card(cid)``, ``board(side)``...), yet two games with different content
interleave in one process, each call seeing its own game's content. Outside a binding (a test
calling a rule function directly) ``active()`` is the standard content.

``index(content)`` holds the dictionaries the rules look things up in (encounters, Factory cards,
Meloch cards, map tokens by id; the 60 combat-card instances; the boards), built once per set.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token
from functools import wraps
from typing import TYPE_CHECKING, Any, Final, TypeVar, cast

from meloch.content import get, load
from meloch.content.schema import (
    CombatCardType,
    Content,
    EncounterCard,
    FactoryCard,
    MapToken,
    MelochCard,
)
from meloch.engine.model import Setup, State

if TYPE_CHECKING:
    from meloch.engine.board import Board

F = TypeVar("F", bound=Callable[..., Any])

_ACTIVE: Final[ContextVar[Index | None]] = ContextVar("meloch_content", default=None)
"""The lookups of the bound game's content (None: nothing bound, the standard set)."""
# The context variable's methods, bound once: compiled, a call through them skips the method lookup
# (the rules ask for the content several times a step).
_GET: Final = _ACTIVE.get
_SET: Final = _ACTIVE.set
_RESET: Final = _ACTIVE.reset


def content_of(state: State | Setup) -> Content:
    """The content set of a game (a dictionary lookup by ``Setup.content``)."""
    setup = state.setup if isinstance(state, State) else state
    return get(setup.content)


def active() -> Content:
    """The content of the game being worked on (bound by the protocol), else the standard set."""
    ix = _GET()
    return ix.content if ix is not None else load()


@contextmanager
def using(content: Content) -> Iterator[Content]:
    """Bind ``content`` for the calls inside (in this thread or task). The protocol's calls on a
    game with this content find it bound and skip their own binding: a caller making many calls on
    one game (the runner, a search) binds it once around them."""
    token = _SET(index(content))
    try:
        yield content
    finally:
        _RESET(token)


def bind(state: State) -> Token[Index | None] | None:
    """Bind the content of ``state``'s game until ``unbind(token)`` (what ``bound`` does around a
    call; ``api.apply``, run at every step, does it inline without the generic call). None, and
    nothing to undo, when that content is already bound (``using``)."""
    name = state.setup.content
    ix = _BY_NAME.get(name)
    if ix is None:
        ix = _BY_NAME[name] = index(get(name))
    if _GET() is ix:
        return None
    return _SET(ix)


def unbind(token: Token[Index | None] | None) -> None:
    if token is not None:
        _RESET(token)


def bound(fn: F) -> F:
    """Run a protocol function whose first argument is a state with that game's content bound."""

    @wraps(fn)
    def wrapper(state: State, *args: Any, **kwargs: Any) -> Any:
        token = bind(state)
        try:
            return fn(state, *args, **kwargs)
        finally:
            unbind(token)

    return cast(F, wrapper)


class Index:
    """Lookups built once per content set (dictionaries instead of scans over lists)."""

    def __init__(self, c: Content) -> None:
        self.content = c
        types: list[CombatCardType] = []
        for t in c.combat_cards:
            types.extend([t] * t.count)
        self.combat_types: tuple[CombatCardType, ...] = tuple(types)
        self.discovery_deck_with_base: tuple[str, ...] = tuple(
            cid for cid, x in c.cards.items() if x.kind in ("item", "meteorite", "quest"))
        """The deck with base Expeditions cards mixed in (``Setup.base_discoveries``)."""
        self.discovery_deck: tuple[str, ...] = tuple(
            cid for cid in self.discovery_deck_with_base if c.cards[cid].set == "duel")
        self.encounters: dict[str, EncounterCard] = {e.id: e for e in c.encounters}
        self.factory_cards: dict[str, FactoryCard] = {f.id: f for f in c.factory_cards}
        self.meloch_cards: dict[str, MelochCard] = {m.id: m for m in c.meloch_cards}
        self.map_tokens: dict[str, MapToken] = {m.id: m for m in c.map_tokens}
        tokens: list[tuple[str, int]] = []
        for ct in c.corruption:
            tokens.extend([(ct.colour, ct.value)] * ct.count)
        self.corruption_tokens: tuple[tuple[str, int], ...] = tuple(tokens)
        """Corruption token instances: index -> (colour, value)."""
        self.scythe_reqs: dict[str, tuple[tuple[int, str, int], ...]] = {
            side: tuple((i, cat.scythe.metric, cat.scythe.n) for i, cat in enumerate(t.categories) if not cat.combat)
            for side, t in c.tracks.items()}
        """Per track side: (column, metric, number) of every non-combat category on the Scythe edge."""
        self.goal_rows: dict[tuple[str, str], tuple[tuple[int, str, str, int, bool], ...]] = {
            (side, role): tuple((i, req.metric, req.label, req.n, cat.combat) for i, cat in enumerate(t.categories)
                                for req in (cat.scythe if role == "scythe" else cat.expeditions,))
            for side, t in c.tracks.items() for role in ("scythe", "expeditions")}
        """Per (track side, role): (column, metric, label, number, combat) of every category on that
        role's edge (``track.goals`` runs at every node an agent's evaluation reaches)."""
        self.boards: dict[str, Board] = {}


_BY_NAME: Final[dict[str, Index]] = {}
"""By content id (``Setup.content``); the registry never changes what an id names."""
_INDEX: Final[dict[int, Index]] = {}
"""By ``id`` of the content object; the Index keeps the object alive, so the id is not reused."""


def index(c: Content | None = None) -> Index:
    """The lookups of ``c``, or of the bound game's content (the standard set when none is bound)."""
    if c is None:
        bound_ix = _GET()
        if bound_ix is not None:
            return bound_ix
        c = load()
    ix = _INDEX.get(id(c))
    if ix is None:
        ix = _INDEX[id(c)] = Index(c)
    return ix
