"""The game state as plain data.

Every structure is a msgspec Struct whose fields are ints, strings, tuples or frozen Structs, so a
state encodes to JSON as it is and a shallow copy is a full copy for the purposes of value
semantics. Rules never mutate a state a caller holds: ``Tx`` (in ``tx.py``) shallow-copies the state
and the seats it touches before writing.
"""

from __future__ import annotations

from typing import Literal, final

import msgspec

from meloch.content.schema import Effect
from meloch.engine.contract import Event, Known

Role = Literal["scythe", "expeditions"]
Variant = Literal["standard", "scythe_vs_scythe", "expeditions_vs_expeditions"]

SEAT_TAGS: dict[Variant, tuple[str, str]] = {
    "standard": ("S", "E"),
    "scythe_vs_scythe": ("S1", "S2"),
    "expeditions_vs_expeditions": ("E1", "E2"),
}
TAG_SEAT: dict[str, int] = {"S": 0, "E": 1, "S1": 0, "S2": 1, "E1": 0, "E2": 1}
VARIANT_ROLES: dict[Variant, tuple[Role, Role]] = {
    "standard": ("scythe", "expeditions"),
    "scythe_vs_scythe": ("scythe", "scythe"),
    "expeditions_vs_expeditions": ("expeditions", "expeditions"),
}
"""The roles of seat 0 and seat 1 in each variant."""


class SeatSetup(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """One seat's chosen components."""

    role: Role
    faction: str = "constantinople"
    mat: str = "adventurous"
    mech: str = "voyager"
    character: str = "nikte"
    companion: str = "nohoch"
    stars_to_win: int = 4
    """4 normally; 3 or 2 under the experience-disparity variant."""


def _default_seats() -> tuple[SeatSetup, SeatSetup]:
    return (SeatSetup(role="scythe"), SeatSetup(role="expeditions"))


class AutomaSetup(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The solo game: ``seat`` is played by the Automa at ``level`` 1-5, with the Threat variant."""

    seat: int
    level: int = 2
    threat: bool = False


class Setup(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Everything chosen before the first turn (the seed is separate)."""

    map_side: str = "jungle"
    track_side: str = "A"
    variant: Variant = "standard"
    seats: tuple[SeatSetup, SeatSetup] = msgspec.field(default_factory=_default_seats)
    turn_limit: int = 300
    """Total turns (both seats) after which the game ends with reason "turn limit"."""
    base_factory_cards: bool = False
    """Setup 7: "You may include Factory cards from Scythe" (the base set joins the shuffle)."""
    base_encounters: bool = False
    """Setup 8: "You may include encounter cards from Scythe" (the base set joins the deck)."""
    base_discoveries: bool = False
    """Setup 9: "You may include discovery cards from Expeditions" (the base set joins the deck; a
    quest for locations 11-20 is discarded and redrawn when drawn)."""
    automa: AutomaSetup | None = None
    """The solo game (``docs/automa.md``): None in a two-player game."""
    content: str = ""
    """The content set the game is played with (``meloch.content.registry``); "" is the standard
    set. Saved with the state, so a save or a server knows which content it needs."""


class Frame(msgspec.Struct, gc=False, frozen=True, kw_only=True):
    """A pending piece of work. The top frame of the stack is the current decision.

    ``kind`` names a handler in ``flow.HANDLERS``; the other fields are that handler's data.
    """

    kind: str
    seat: int
    loc: str = ""
    count: int = 0
    items: tuple[str, ...] = ()
    tag: str = ""
    effects: tuple[Effect, ...] = ()
    """Queued effects still to resolve, in order."""


STRUCTURES = ("monument", "armory", "mill", "mine")
"""The Scythe side's structure kinds (here so the Automa, a shared rule, builds them too)."""


@final  # the rules test the exact type (tx.is_scythe)
class ScytheSeat(msgspec.Struct, gc=False, tag="scythe", kw_only=True):
    faction: str
    mat: str
    home: str
    power: int
    popularity: int
    coins: int
    combat_cards: tuple[int, ...] = ()
    character: str = ""
    mechs: tuple[str, ...] = ()
    """Location of each deployed mech."""
    mech_slots: tuple[int, ...] = ()
    """Faction-mat slot (0..3) each deployed mech came from: its ability is unlocked."""
    workers: tuple[str, ...] = ()
    """Location of each worker on the board."""
    workers_on_mat: int = 6
    structures: tuple[tuple[str, str], ...] = ()
    """(kind, location) for each built structure."""
    recruits: tuple[str, ...] = ()
    """Bottom actions whose recruit is enlisted (their ongoing bonus is unlocked)."""
    enlist_bonuses: tuple[str, ...] = ()
    top_upgrades: tuple[str, ...] = ()
    bottom_cubes: tuple[int, int, int, int] = (0, 0, 0, 0)
    """Cubes placed on each section's bottom cost (each lowers the cost by 1)."""
    resources: tuple[tuple[str, str, int], ...] = ()
    """(location, resource, count), sorted, counts > 0."""
    section: int = -1
    """Current action-token section (0-3, 4 = Factory card, -1 before the first turn)."""
    factory_card: str = ""
    map_tokens: tuple[str, ...] = ()
    encounters: int = 0
    stars_unplaced: int = 6
    stars_discarded: int = 0
    combat_wins: int = 0
    flags: tuple[str, ...] = ()
    """Albion (Exalt): locations of placed flags."""
    traps: tuple[tuple[str, str, bool], ...] = ()
    """Togawa (Maifuku): (location, trap kind, armed) of placed traps; the kind is secret while armed."""
    influence: tuple[str, ...] = ()
    """Fenris: locations of placed influence tokens."""
    vesna_offer: tuple[str, ...] = ()
    """Vesna: mech ability tokens dealt face up at her first turn (she keeps 2)."""
    vesna_tokens: tuple[str, ...] = ()
    """Vesna: the ability tokens on her two free mech slots (slot 2, then slot 3)."""
    tech_cards: tuple[str, ...] = ()
    """Vesna (Technophile): face-up Factory cards she may use once each as a section."""
    tech_used: tuple[str, ...] = ()


@final  # the rules test the exact type (tx.is_exp)
class ExpSeat(msgspec.Struct, gc=False, tag="expeditions", kw_only=True):
    mech: str
    character: str
    companion: str
    home: str
    loc: str
    power: int
    guile: int
    coins: int
    workers: tuple[str, ...] = ()
    """Worker colours available on the mech mat ("hero" is the hero worker)."""
    hand: tuple[str, ...] = ()
    active: tuple[tuple[str, str], ...] = ()
    """Active row, left to right: (card id, worker colour on it or "")."""
    combat_cards: tuple[int, ...] = ()
    corruption: tuple[int, ...] = ()
    map_tokens: tuple[str, ...] = ()
    solved: tuple[str, ...] = ()
    upgraded: tuple[str, ...] = ()
    melded: tuple[str, ...] = ()
    token: str = "refresh"
    """Action token: refresh | all | move | play | gather."""
    hero_trashed: bool = False
    combat_wins: int = 0


Seat = ScytheSeat | ExpSeat


class Combat(msgspec.Struct, gc=False, frozen=True, kw_only=True):
    """A combat in progress (commit, then reveal)."""

    loc: str
    attacker: int
    defender: int
    dial: tuple[int, int] = (-1, -1)
    cards: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    extra: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    """Cards added after the reveal (Ambush), per seat."""
    drawn: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    """Cards drawn by Element of Surprise (value only, no effect), per seat."""
    drawn_by: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    """For each card in ``drawn``, the Element of Surprise card that drew it: each adds only its own draw."""
    revealed: bool = False


class AutomaState(msgspec.Struct, gc=False, frozen=True, kw_only=True):
    """The Automa's cards and progress. The deck orders are hidden from the human (``view.py``)."""

    action_deck: tuple[str, ...] = ()
    action_discard: tuple[str, ...] = ()
    support_deck: tuple[str, ...] = ()
    support_discard: tuple[str, ...] = ()
    card: str = ""
    """The current support card (its dial and cards rule the Automa's combats)."""
    progress: int = 0


class State(msgspec.Struct, kw_only=True, dict=True):  # dict: flow's per-state options cache
    setup: Setup
    seed: int
    rng: int
    seats: tuple[Seat, Seat]
    active: int = 0
    turn: int = 0
    step: int = 0
    frames: tuple[Frame, ...] = ()
    # board
    map_tokens: tuple[tuple[str, str], ...] = ()
    """Face-down map tokens on the board: (location, token id)."""
    map_token_supply: tuple[str, ...] = ()
    map_token_trash: tuple[str, ...] = ()
    """Map tokens paid or trashed: out of the game, faces hidden (views show the count)."""
    corruption: tuple[tuple[str, tuple[int, ...]], ...] = ()
    """Corruption stacks: (location, token ids bottom..top). Empty stacks are removed."""
    corruption_trash: tuple[int, ...] = ()
    """Corruption tokens trashed (Voyager): out of the game, face up."""
    revealed: tuple[str, ...] = ()
    """Locations whose corruption stack was cleared: their covered benefit is exposed."""
    lakes: tuple[tuple[str, str], ...] = ()
    """(lake id, face-up discovery card id or "")."""
    # decks (top of a deck = last element)
    discovery_deck: tuple[str, ...] = ()
    discovery_discard: tuple[str, ...] = ()
    combat_deck: tuple[int, ...] = ()
    combat_discard: tuple[int, ...] = ()
    discovery_trash: tuple[str, ...] = ()
    """Discovery cards trashed by the Expeditions player: "Trash = return to box" (ref §2.4), out of
    the game, face up."""
    combat_trash: tuple[int, ...] = ()
    """Combat cards trashed by the Expeditions player: out of the game, face up."""
    encounter_deck: tuple[str, ...] = ()
    encounter_used: tuple[str, ...] = ()
    factory_cards: tuple[str, ...] = ()
    meloch_deck: tuple[str, ...] = ()
    meloch_row: tuple[tuple[str, bool], ...] = ()
    """Meloch cards placed, oldest first: (card id, rotated 180 degrees)."""
    # Triumph Track
    track: tuple[tuple[int, ...], ...] = ()
    """Per category (column order): seats that placed a star there, in order."""
    combat: Combat | None = None
    turn_flags: tuple[str, ...] = ()
    """Once-per-turn uses this turn (e.g. "voyager", "leverage")."""
    known: tuple[Known, ...] = ()
    """Private knowledge: facts a seat has learned (peeks, the Factory cards it saw)."""
    home_turns: tuple[int, int] = (0, 0)
    """Consecutive own turns each seat ended with all combat units on its home base."""
    stalemate_open: bool = False
    automa: AutomaState | None = None
    winner: int = -1
    reason: str = ""
    events: tuple[Event, ...] = ()
    """Events of the last transition only; callers keep the history they want."""


class Action(msgspec.Struct, gc=False, frozen=True, order=True):
    """One atomic choice by one seat."""

    who: str
    """Seat tag: S / E in the standard duel, S1 / S2 or E1 / E2 in the variants."""
    verb: str
    args: tuple[str, ...] = ()

    @property
    def seat(self) -> int:
        return TAG_SEAT[self.who]

    def __str__(self) -> str:
        args = self.args  # the runner records every step's action as text
        return f"{self.who} {self.verb} {' '.join(args)}" if args else f"{self.who} {self.verb}"
