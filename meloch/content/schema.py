"""Typed, frozen schema of every component, decoded from the YAML files in ``data/``.

Every entry carries ``provenance`` (where its facts come from) and a ``note``. The loader
(``meloch.content.loader``) decodes each file with msgspec, which rejects unknown keys and wrong
types, then runs cross-checks (counts, references) that name the file, entry and field.

Effects are a tiny data language (see ``docs/content.md``): an ``Effect`` names an ``op`` from the
engine's effect registry with an amount ``n`` and an optional argument ``arg``; ``one_of`` holds
alternative effect lists ("/" on a printed benefit).
"""

from __future__ import annotations

from typing import Literal

import msgspec

Provenance = Literal["rulebook", "reference", "standin"]
Terrain = Literal["farm", "forest", "mountain", "tundra", "village", "factory", "lake", "home"]
LocKind = Literal["location", "lake", "home"]
Resource = Literal["food", "oil", "metal", "wood"]
WorkerColour = Literal["purple", "green", "red", "yellow", "blue"]
TopAction = Literal["move", "bolster", "trade", "produce"]
BottomAction = Literal["upgrade", "deploy", "build", "enlist"]
Role = Literal["scythe", "expeditions"]
CardSet = Literal["duel", "scythe", "expeditions"]
"""Which box a card comes from: Duel of Meloch's own, or base Scythe's / base Expeditions' optional mix-in."""


class Base(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Common base: frozen, strict about keys."""


class Effect(Base, frozen=True, kw_only=True):
    """One benefit or cost. ``op`` is a key of the engine's effect registry."""

    op: str
    n: int = 1
    arg: str = ""
    one_of: tuple[tuple[Effect, ...], ...] = ()


Effects = tuple[Effect, ...]


# ---------------------------------------------------------------- map


class Location(Base, frozen=True, kw_only=True):
    id: str
    """Stable id: "1".."10" for numbered locations, "lake-w"/"lake-e" for lakes, "home-s"/"home-e"."""
    kind: LocKind
    number: int | None = None
    terrain: Terrain
    tunnel: bool = False
    factory: bool = False
    map_token: bool = False
    """Setup places a face-down map token here."""
    corruption: bool = False
    """Setup stacks 2 corruption tokens here (the dotted box)."""
    gather: Effects = ()
    """Benefits exposed from the start (the Expeditions player's Gather)."""
    revealed: Effects = ()
    """The benefit under the corruption stack, exposed once the stack is cleared."""
    x: float
    y: float
    """Drawing coordinates: x grows east, y grows north as seen from the Expeditions seat."""
    half_height: float = 1.0
    """Half the vertical extent, for the direction rule (north/south compare any part)."""
    provenance: Provenance
    note: str = ""


class Edge(Base, frozen=True, kw_only=True):
    a: str
    b: str
    river: bool = False
    provenance: Provenance
    note: str = ""


class MapSide(Base, frozen=True, kw_only=True):
    id: str
    name: str
    locations: tuple[Location, ...]
    edges: tuple[Edge, ...]
    home_scythe: str
    home_expeditions: str
    provenance: Provenance
    note: str = ""


# ---------------------------------------------------------------- Triumph Track


class Requirement(Base, frozen=True, kw_only=True):
    metric: str
    """Key of the engine's metric registry (popularity, coins, structures, combat, ...)."""
    n: int
    icon: str
    label: str


class Category(Base, frozen=True, kw_only=True):
    column: int
    combat: bool = False
    scythe: Requirement
    expeditions: Requirement
    provenance: Provenance
    note: str = ""


class TrackSide(Base, frozen=True, kw_only=True):
    id: str
    categories: tuple[Category, ...]
    provenance: Provenance
    note: str = ""


# ---------------------------------------------------------------- shared tokens and cards


class CombatCardType(Base, frozen=True, kw_only=True):
    id: str
    name: str
    value: int
    count: int
    combat_effect: str
    """Key of the engine's combat-effect registry."""
    combat_text: str
    discard: Effects
    """Upper-right benefit gained when discarded on your own turn outside combat."""
    provenance: Provenance
    discard_provenance: Provenance
    note: str = ""


class CorruptionToken(Base, frozen=True, kw_only=True):
    colour: Literal["guile", "power"]
    value: int
    count: int
    provenance: Provenance
    note: str = ""


class MapToken(Base, frozen=True, kw_only=True):
    id: str
    bonus: Effects
    """Secret bonus the Expeditions player gains; the Scythe player has an encounter instead."""
    provenance: Provenance
    note: str = ""


class Supply(Base, frozen=True, kw_only=True):
    coins: tuple[tuple[int, int], ...]
    """(denomination, count) pairs as in the box; the engine tracks totals."""
    resources_per_kind: int
    expeditions_workers_per_colour: int
    unlimited_coins_and_resources: bool
    provenance: Provenance
    note: str = ""


class MelochHalf(Base, frozen=True, kw_only=True):
    toward_scythe: Effects = ()
    toward_expeditions: Effects = ()


class MelochCard(Base, frozen=True, kw_only=True):
    id: str
    name: str
    left: MelochHalf
    right: MelochHalf
    """As drawn upright; rotating 180 degrees swaps halves and facing."""
    provenance: Provenance
    note: str = ""


# ---------------------------------------------------------------- Scythe components


class FactionMech(Base, frozen=True, kw_only=True):
    ability: str
    """Key of the engine's ability registry (riverwalk, speed, warp, ...)."""
    text: str


class Trap(Base, frozen=True, kw_only=True):
    """One of Togawa's traps: what springing it does, as effects resolved for the trap's owner
    (so ``opp_power 3`` means the unit's owner loses 3 power)."""

    id: str
    text: str
    effects: Effects


class Faction(Base, frozen=True, kw_only=True):
    id: str
    name: str
    power: int
    combat_cards: int
    ability: str
    ability_text: str
    riverwalk: tuple[Terrain, ...] = ()
    mechs: tuple[FactionMech, ...]
    tokens: int = 0
    """Tokens the faction ability places (Albion's flags, Togawa's traps, Fenris' influence); 0 for
    the others."""
    traps: tuple[Trap, ...] = ()
    """Togawa: the trap kinds, one token each (``tokens`` equals their number)."""
    provenance: Provenance
    note: str = ""


class MatSection(Base, frozen=True, kw_only=True):
    top: TopAction
    bottom: BottomAction
    bottom_cost: int
    """Resources paid at the start (all cost boxes filled)."""
    bottom_cost_min: int
    """Cost once every upgradeable cost box has received a cube."""
    bottom_coins: int


class PlayerMat(Base, frozen=True, kw_only=True):
    id: str
    name: str
    number: int
    popularity: int
    coins: int
    sections: tuple[MatSection, ...]
    provenance: Provenance
    note: str = ""


class EncounterOption(Base, frozen=True, kw_only=True):
    text: str
    cost: Effects = ()
    gain: Effects = ()


class EncounterCard(Base, frozen=True, kw_only=True):
    id: str
    name: str
    options: tuple[EncounterOption, ...]
    set: CardSet = "duel"
    duel_sensible: bool = True
    """False for a base Scythe encounter that makes no sense in the Duel: drawn, it is discarded
    and another is drawn (rulebook Setup 8)."""
    provenance: Provenance
    note: str = ""


class FactoryCard(Base, frozen=True, kw_only=True):
    id: str
    name: str
    top_text: str
    cost: Effects
    gain: Effects
    move_steps: int = 2
    move_steps_speed: int = 3
    set: CardSet = "duel"
    provenance: Provenance
    note: str = ""


# ---------------------------------------------------------------- Expeditions components


class Mech(Base, frozen=True, kw_only=True):
    id: str
    name: str
    ability: str
    ability_text: str
    move_min: int = 1
    move_max: int = 3
    cap: int = 4
    """Solve/upgrade/meld cap per game."""
    start_power: int
    start_guile: int
    start_coins: int = 0
    start_hero_worker: bool = True
    start_workers: tuple[WorkerColour, ...] = ()
    provenance: Provenance
    note: str = ""


class DiscoveryCard(Base, frozen=True, kw_only=True):
    """Characters, companions, items, meteorites and quests share one shape."""

    id: str
    name: str
    kind: Literal["character", "companion", "item", "meteorite", "quest"]
    core: Literal["power", "guile"]
    core_value: int
    worker: WorkerColour
    ability: Effects = ()
    ability_text: str = ""
    ongoing: str = ""
    """Items: ongoing ability key (active while on the active row with a worker, or upgraded)."""
    upgrade_coins: int = 0
    meld: Effects = ()
    """Meteorites: the meld bonus, gained again at every later meld."""
    solve_locations: tuple[str, ...] = ()
    solve_cost: Effects = ()
    solve_gain: Effects = ()
    set: CardSet = "duel"
    """``expeditions``: a base Expeditions discovery card (``cards_expeditions.yaml``, Setup 9 mix-in)."""
    provenance: Provenance
    note: str = ""


class Content(Base, frozen=True, kw_only=True):
    """Everything loaded, by id."""

    maps: dict[str, MapSide]
    tracks: dict[str, TrackSide]
    combat_cards: tuple[CombatCardType, ...]
    corruption: tuple[CorruptionToken, ...]
    map_tokens: tuple[MapToken, ...]
    supply: Supply
    meloch_cards: tuple[MelochCard, ...]
    factions: dict[str, Faction]
    mats: dict[str, PlayerMat]
    encounters: tuple[EncounterCard, ...]
    factory_cards: tuple[FactoryCard, ...]
    mechs: dict[str, Mech]
    cards: dict[str, DiscoveryCard]
    """Characters, companions and the discovery deck, by id."""
    automa: AutomaContent | None = None
    """The solo Automa's decks, track and levels (``automa.yaml``; a set without it has no solo)."""


# ---------------------------------------------------------------- the solo Automa (stand-ins)

AutomaVerb = Literal["attack", "move_toward", "power", "progress", "combat_cards", "deploy", "build", "gather"]
AutomaTarget = Literal["", "enemy", "token", "center", "home"]


class AutomaStep(Base, frozen=True, kw_only=True):
    """One action in a support-card row: ``attack`` (a unit steps onto an enemy unit, if its
    power is at least ``n``), ``move_toward`` (a unit steps one location toward ``target``),
    ``power``/``combat_cards`` (gain ``n``), ``progress`` (advance ``n`` boxes); the Scythian's
    ``deploy`` (a mech) and ``build`` (a structure) on its first worker territory, and ``gather``
    (Scythian: up to ``n`` worker territories; Explorer: a map token at or next to its mech), each a
    benefit that gives 1 power (docs/automa.md)."""

    verb: AutomaVerb
    n: int = 1
    target: AutomaTarget = ""


class AutomaSupportCard(Base, frozen=True, kw_only=True):
    id: str
    side: Role
    """Which side the Automa plays when this card is in its support deck."""
    rows: tuple[tuple[AutomaStep, ...], ...]
    dial: int
    """The Automa's Power Dial in a combat while this card is its current support card."""
    cards: int = 0
    """Combat cards the Automa tucks (its highest) in that combat."""
    provenance: Provenance
    note: str = ""


class AutomaActionCard(Base, frozen=True, kw_only=True):
    id: str
    kind: Literal["phase", "support"]
    """A phase card is carried out; a support card makes the Automa draw a support card."""
    steps: tuple[AutomaStep, ...] = ()
    """What a phase card does (every step that is possible, in order)."""
    provenance: Provenance
    note: str = ""


class AutomaTrack(Base, frozen=True, kw_only=True):
    length: int
    """Boxes on the progress track (the token starts before box 1)."""
    star_boxes: tuple[int, ...]
    """Reaching one of these boxes gives the Automa a star (five: the Triumph boxes it replaces)."""
    provenance: Provenance
    note: str = ""


class AutomaLevelSide(Base, frozen=True, kw_only=True):
    """A level's values for one side the Automa plays, where they differ from the level's own
    (the two sides' levels are tuned apart: docs/rules-notes.md "Automa balance"); None: the level's."""

    support_cards: int | None = None
    power: int | None = None
    progress: int | None = None
    dial: int | None = None
    track: AutomaTrack | None = None
    note: str = ""


class AutomaLevel(Base, frozen=True, kw_only=True):
    level: int
    support_cards: int
    """How many of the action deck's support cards are used (phase cards are always all in)."""
    power: int
    """The Automa's starting power."""
    progress: int = 0
    """The box its progress token starts on (a head start; a star box passed gives its star)."""
    dial: int = 0
    """Added to its support card's dial in a combat (then within its power and the dial's 0-7): a
    higher level fights harder, as its power alone does not raise the card's dial."""
    track: AutomaTrack | None = None
    """This level's own progress track (as Scythe's Automa has a star tracker per difficulty);
    None: the content's ``track``."""
    sides: dict[Role, AutomaLevelSide] = msgspec.field(default_factory=dict)
    """Per-side values (``scythe``: the Automa plays the Scythian; ``expeditions``: the Explorer)."""
    provenance: Provenance
    note: str = ""

    def for_side(self, role: Role) -> AutomaLevel:
        """This level as the Automa plays ``role``: the side's values over the level's."""
        o = self.sides.get(role)
        if o is None:
            return self
        keep = {f: getattr(o, f) for f in ("support_cards", "power", "progress", "dial", "track")
                if getattr(o, f) is not None}
        return msgspec.structs.replace(self, sides={}, **keep)


class AutomaThreat(Base, frozen=True, kw_only=True):
    """Threat's thresholds on ``margin`` = the Automa's expected total minus what it can see of
    the human's (docs/automa.md): it seeks a fight at ``margin >= seek`` and avoids one at
    ``margin < avoid``; in between its card decides, as without Threat."""

    seek: float = 0.0
    avoid: float = 0.0
    provenance: Provenance
    note: str = ""


class AutomaContent(Base, frozen=True, kw_only=True):
    action_cards: tuple[AutomaActionCard, ...]
    support_cards: tuple[AutomaSupportCard, ...]
    levels: tuple[AutomaLevel, ...]
    track: AutomaTrack
    threat: AutomaThreat = AutomaThreat(provenance="standin")

    def level_for(self, level: int, role: Role) -> AutomaLevel:
        """Level ``level`` as the Automa plays ``role`` (its per-side values applied)."""
        return self.levels[level - 1].for_side(role)

    def track_for(self, level: int, role: Role) -> AutomaTrack:
        """The progress track the Automa uses at ``level`` playing ``role``."""
        return self.level_for(level, role).track or self.track
