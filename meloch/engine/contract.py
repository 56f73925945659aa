"""The engine's contract with its readers: the typed view, typed events and known facts.

Shells (terminal, browser, RL encoder) read only these types; ``meloch schema view|event`` prints
their JSON Schemas, generated from the types, so a client is written against the schema and a
test checks the checked-in copies (``docs/schema/``) are up to date.

JSON field names follow the dict view that came before, so scenario files keep their paths.
Optional parts that a seat may not see (another seat's hand, an unrevealed dial) are absent from
the JSON (``omit_defaults``), never present with a placeholder.
"""

from __future__ import annotations

from typing import Literal

import msgspec

# ----------------------------------------------------------------------------- known facts


class Known(msgspec.Struct, gc=False, frozen=True, kw_only=True):
    """A private fact one seat learned: a peek at the top cards of a deck, or the Factory cards
    it saw. ``cards`` are card ids: discovery ids, ``c<n>`` combat tokens or Factory card ids."""

    seat: int
    kind: Literal["peek", "factory"]
    deck: str = ""
    """For a peek: "combat" or "discovery"."""
    cards: tuple[str, ...] = ()


# ----------------------------------------------------------------------------- events


class Moved(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind", tag="moved"):
    """A unit moved (or retreated) from one location to another."""

    unit: str
    """The unit as in the notation: Scythe "char", "mech<n>" or "worker", a carried "worker" or
    resource; "mech" for the Expeditions mech."""
    frm: str
    to: str


class Changed(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind", tag="changed"):
    """A counter of a seat changed: power, coins, popularity, guile or a resource on a location."""

    what: str
    by: int
    loc: str = ""


class Drawn(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind", tag="drawn"):
    """Cards drawn from a deck. ``cards`` holds ids only in the data a seat may see."""

    deck: str
    count: int
    cards: tuple[str, ...] = ()


class CombatCard(msgspec.Struct, frozen=True, kw_only=True):
    id: int
    name: str
    value: int


class CombatSide(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    dial: int
    cards: tuple[CombatCard, ...]
    total: int = -1
    """The side's total, -1 when not yet known (a reveal before Ambush or Element of Surprise)."""


class CombatRevealed(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind", tag="combat_revealed"):
    """A side's dial and tucked cards, each with its value; ``side.cards`` holds only the added
    card for Ambush and Element of Surprise (``added``)."""

    loc: str
    side: CombatSide
    added: bool = False


class CombatResolved(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind", tag="combat_resolved"):
    loc: str
    winner: int
    attacker: CombatSide
    defender: CombatSide


class StarPlaced(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind", tag="star_placed"):
    column: int
    """Index of the Triumph Track column (as in ``View.track``; the board's number is one more)."""
    category: str
    """The category's label for the placing seat's role."""


class MelochCardEvent(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind", tag="meloch_card"):
    """A Meloch card drawn (``placed`` false) or placed on the row, upright or rotated 180 degrees."""

    card: str
    rotated: bool
    placed: bool


class WorkerGained(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind", tag="worker_gained"):
    worker: str
    """Location (Scythe) or colour (Expeditions)."""


class MapTokenGained(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind", tag="map_token_gained"):
    loc: str
    token: str = ""
    """The token id, only when the gaining seat sees its face."""


class CorruptionChanged(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind", tag="corruption"):
    loc: str
    colour: str
    value: int
    action: Literal["placed", "taken", "trashed"]


class Generic(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind", tag="generic"):
    """Kinds not typed yet: named values only."""

    values: dict[str, str | int] = {}


class AutomaCardDrawn(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind", tag="automa_card"):
    """The Automa turns up a card: ``deck`` "action" or "support"; ``kind`` of an action card
    "phase" or "support"."""

    deck: str
    card: str
    card_kind: str = ""


class AutomaStepDone(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind", tag="automa_step"):
    """One action the Automa carries out: from a support card's ``row`` (1-based; 0 for a phase
    card or a benefit), the leftmost possible ``verb`` with its ``target``/``loc``/``n``."""

    card: str
    row: int
    verb: str
    n: int = 0
    unit: str = ""
    loc: str = ""
    target: str = ""
    threat: str = ""
    """Threat's reading of a fight: "fight" or "avoid" ("" without the variant or without a fight)."""


class AutomaProgress(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind", tag="automa_progress"):
    box: int
    star: bool


class NoCombat(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind", tag="no_combat"):
    """A unit entered a location holding the opponent's units and no combat follows, with the rule
    that prevents it: ``only_workers`` (workers never fight), ``vanquish_only`` (the Expeditions mech
    starts a combat only through a Vanquish benefit), ``not_territory`` (combat happens only on
    territories; a home base is not one)."""

    unit: str
    """The unit that entered, as in ``Moved.unit``."""
    loc: str
    reason: Literal["only_workers", "vanquish_only", "not_territory"]


class BoastSkipped(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind", tag="boast_skipped"):
    """A Boast benefit that places no star: no open Triumph category's requirement is met."""

    reason: Literal["no_category_met"] = "no_category_met"


EventData = (Moved | Changed | Drawn | CombatRevealed | CombatResolved | StarPlaced | MelochCardEvent
             | WorkerGained | MapTokenGained | CorruptionChanged | AutomaCardDrawn | AutomaStepDone
             | AutomaProgress | NoCombat | BoastSkipped | Generic)


class Event(msgspec.Struct, gc=False, frozen=True, kw_only=True):
    """Something that happened. ``private_to`` >= 0 means only that seat reads ``text`` and
    ``data``; every other seat reads ``public_text`` and ``public_data`` instead."""

    kind: str
    text: str
    seat: int = -1
    private_to: int = -1
    public_text: str = ""
    data: EventData | None = None
    public_data: EventData | None = None


class SeenEvent(msgspec.Struct, frozen=True, kw_only=True):
    """An event as one seat (or a spectator) may see it: the schema of ``meloch schema event``."""

    kind: str
    seat: int
    text: str
    data: EventData | None = None
    private: bool = False
    """True when the event was private to another seat and this is its public side."""


# ----------------------------------------------------------------------------- the view


class SeatSetupView(msgspec.Struct, frozen=True, kw_only=True):
    role: str
    faction: str
    mat: str
    mech: str
    character: str
    companion: str
    stars_to_win: int


class SetupView(msgspec.Struct, frozen=True, kw_only=True):
    map_side: str
    track_side: str
    variant: str
    seats: tuple[SeatSetupView, SeatSetupView]
    turn_limit: int
    content: str = ""
    """The game's content set ("" the standard one), so a shell names places and cards from it."""


class DecisionView(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    kind: str
    prompt: str
    """The prompt; for any other seat "waiting for <tag>" (a prompt may name secrets)."""


class Trap(msgspec.Struct, frozen=True, array_like=True):
    """[location, kind ("?" when armed and not the viewer's), armed]."""

    loc: str
    kind: str
    armed: bool


class ScytheView(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, tag_field="role",
                 tag="scythe"):
    faction: str
    mat: str
    home: str
    power: int
    popularity: int
    coins: int
    combat_cards: int
    """Count; the viewer's own cards are in ``hand_combat`` / ``combat_card_ids``."""
    character: str
    mechs: tuple[str, ...]
    mech_slots: tuple[int, ...]
    workers: tuple[str, ...]
    workers_on_mat: int
    structures: tuple[tuple[str, str], ...]
    recruits: tuple[str, ...]
    enlist_bonuses: tuple[str, ...]
    top_upgrades: tuple[str, ...]
    bottom_cubes: tuple[int, ...]
    resources: tuple[tuple[str, str, int], ...]
    section: int
    factory_card: str
    map_tokens: int
    encounters: int
    stars_unplaced: int
    stars_discarded: int
    combat_wins: int
    flags: tuple[str, ...]
    influence: tuple[str, ...]
    traps: tuple[Trap, ...]
    vesna_offer: tuple[str, ...]
    vesna_tokens: tuple[str, ...]
    tech_cards: tuple[str, ...]
    tech_used: tuple[str, ...]
    hand_combat: tuple[str, ...] | None = None
    combat_card_ids: tuple[int, ...] | None = None


class ExpView(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, tag_field="role",
              tag="expeditions"):
    mech: str
    character: str
    companion: str
    home: str
    loc: str
    power: int
    guile: int
    coins: int
    workers: tuple[str, ...]
    hand: int
    """Count of the hand (kept for old readers); the cards are public in ``hand_cards``."""
    hand_cards: tuple[str, ...]
    """Cards you control are always face up (Expeditions rules): the hand is public."""
    active: tuple[tuple[str, str], ...]
    combat_cards: int
    corruption: tuple[tuple[str, int], ...]
    map_tokens: tuple[str, ...]
    solved: tuple[str, ...]
    upgraded: tuple[str, ...]
    melded: tuple[str, ...]
    token: str
    hero_trashed: bool
    combat_wins: int
    hand_combat: tuple[str, ...] | None = None
    combat_card_ids: tuple[int, ...] | None = None


SeatView = ScytheView | ExpView


class CombatView(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A combat in progress. ``dial_<i>``/``cards_<i>`` are present for the seat itself and for
    everyone after the reveal; ``extra``, ``drawn`` and ``totals`` after the reveal."""

    loc: str
    attacker: int
    defender: int
    revealed: bool
    tucked: tuple[int, int]
    committed: tuple[bool, bool]
    dial_0: int | None = None
    cards_0: tuple[str, ...] | None = None
    dial_1: int | None = None
    cards_1: tuple[str, ...] | None = None
    extra: tuple[tuple[str, ...], tuple[str, ...]] | None = None
    drawn: tuple[tuple[str, ...], tuple[str, ...]] | None = None
    totals: tuple[int, int] | None = None


class Decks(msgspec.Struct, frozen=True, kw_only=True):
    """Face-down decks: counts only."""

    discovery: int
    combat: int
    encounter: int
    factory: int
    meloch: int


class AutomaView(msgspec.Struct, frozen=True, kw_only=True):
    """The solo Automa as anyone sees it: deck sizes (never their order), discards, progress."""

    seat: int
    level: int
    threat: bool
    action_deck: int
    support_deck: int
    action_discard: tuple[str, ...]
    support_discard: tuple[str, ...]
    card: str
    progress: int
    track_length: int
    star_boxes: tuple[int, ...]


class View(msgspec.Struct, frozen=True, kw_only=True):
    """What ``seat`` (None: a spectator) may see of a state: built from visible parts only."""

    seat: int | None
    setup: SetupView
    tags: tuple[str, str]
    turn: int
    active: int
    step: int
    decision: DecisionView | None
    map_tokens: tuple[str, ...]
    """Locations holding a face-down map token."""
    map_token_supply: int
    map_token_trash: int
    corruption_trash: tuple[tuple[str, int], ...]
    corruption: dict[str, tuple[tuple[str, int], ...]]
    """Corruption stacks by location, bottom..top, each token (colour, value)."""
    revealed: tuple[str, ...]
    lakes: dict[str, str]
    decks: Decks
    discovery_discard: tuple[str, ...]
    combat_discard: tuple[str, ...]
    discovery_trash: tuple[str, ...]
    combat_trash: tuple[str, ...]
    encounter_used: tuple[str, ...]
    meloch_row: tuple[tuple[str, bool], ...]
    """Meloch cards placed, oldest first: (card id, rotated 180 degrees)."""
    track: tuple[tuple[int, ...], ...]
    stars: tuple[int, int]
    home_turns: tuple[int, int]
    stalemate_open: bool
    seats: tuple[SeatView, SeatView]
    combat: CombatView | None
    known: tuple[str, ...]
    """The viewer's private facts, as text (typed in ``known_facts``)."""
    known_facts: tuple[Known, ...]
    events: tuple[str, ...]
    """The last transition's events as this seat reads them (typed: ``events_for``)."""
    winner: int
    reason: str
    automa: AutomaView | None = None
    """The solo game's Automa (absent in a two-player game)."""


def view_schema() -> dict[str, object]:
    return msgspec.json.schema(View)


def event_schema() -> dict[str, object]:
    return msgspec.json.schema(SeenEvent)


class Standing(msgspec.Struct, frozen=True, gc=False):
    """What an evaluation weighs of one seat (all public)."""

    role: str
    """The seat's kind of player mat, "scythe" or "expeditions" (as its view's ``role`` tag)."""
    stars: int
    """Stars on the Triumph Track (``View.stars[seat]``)."""
    stars_to_win: int
    goals: tuple[tuple[int, str, str, int, int, bool], ...]
    """``goals(state, seat)``: (column, metric, label, have, need, open) per Triumph column."""
    power: int
    combat_cards: int
    """How many combat cards the seat holds (a count, as the view shows the other seat)."""
    stars_discarded: int
    """Scythe: stars given up (Leverage); 0 for an Expeditions seat."""
    resources: tuple[tuple[str, str, int], ...]
    """Scythe: resources on the board as (location, kind, count), as ``ScytheView.resources``."""
    hand: int
    """Expeditions: discovery cards in hand (a count); 0 for a Scythe seat."""
    build_spots: int = 0
    """Scythe: territories where Build could place a structure now (controlled, with the seat's
    worker, no structure of its own), whatever it costs; 0 once all four are built. Wood is no use
    to the "structures" goal without one: the evaluation weighs both."""
    produces: tuple[str, ...] = ()
    """Scythe: what the seat's worker territories produce ("metal", "wood", ..., "worker" for a
    village), sorted, each once: the sources of the resources its goals spend."""
    mechs: int = 0
    """Scythe: mechs deployed (0 to 4); 0 for an Expeditions seat (its one mech is always out)."""
    combat_stake: bool = False
    """Would a combat between the seats place a star for its winner, either seat: an open combat
    column, or once none is open, Saxony's stacking (``track.combat_star_columns``). The defender's
    combat strength matters while it does, not only the attacker's."""
    boast_steps: int = -1
    """Expeditions: the fewest mech steps from its mech to a location whose Gather Boasts now (exposed,
    or hidden and cleared of its corruption), 0 on one; -1 for none, or a Scythe seat, or unless asked for
    (``standing(..., boasts=True)``). A met category is a star only once the mech gathers on such a
    location (or solves a quest that Boasts)."""


class Decision(msgspec.Struct, frozen=True):
    seat: int
    kind: str
    prompt: str
    forced: bool = False
    """Exactly one legal option: the shells take it without asking (the log still records it)."""


class Outcome(msgspec.Struct, frozen=True):
    winner: int | None
    """The winning seat, or None when the game ended without one (turn limit)."""
    reason: str


# Described options (``describe.options``): declared here, where mypyc does not compile them.
RefKind = Literal["location", "unit", "card", "combat_card", "track_box", "section", "resource", "worker",
                  "map_token", "token"]


class Ref(msgspec.Struct, frozen=True):
    """A board thing an option refers to, for highlighting: ``kind`` and its id (a location id, a
    discovery card id, ``c12`` for combat card 12, a track column, a section number...)."""

    kind: RefKind
    id: str


class Option(msgspec.Struct, frozen=True, kw_only=True):
    """One legal action as a person or a client sees it."""

    action: str
    """The action in notation (what the shell sends back)."""
    label: str
    group: str
    """Menu group: options that pick the same kind of thing share it (``move char``, ``pay``...)."""
    cost: tuple[str, ...] = ()
    gain: tuple[str, ...] = ()
    refs: tuple[Ref, ...] = ()
    free: bool = False
    """A free action (discard a combat card, an ability) that may be taken at any pause of the turn."""


class Described(msgspec.Struct, frozen=True, kw_only=True):
    """What a describer returns (the action and the default group are added by ``options``)."""

    label: str
    group: str = ""
    cost: tuple[str, ...] = ()
    gain: tuple[str, ...] = ()
    refs: tuple[Ref, ...] = ()
