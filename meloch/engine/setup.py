"""``new_game``: the rulebook's Setup section, steps 1-10, then each player's components."""

from __future__ import annotations

from meloch.content import ContentError, get
from meloch.content.registry import registered
from meloch.content.schema import Content
from meloch.engine import flow, rng
from meloch.engine.board import board
from meloch.engine.cards import combat_types, discovery_deck_ids, draw_discovery, encounter_pool, factory_pool
from meloch.engine.effects import draw_combat
from meloch.engine.game_content import active, using
from meloch.engine.model import ExpSeat, ScytheSeat, Seat, SeatSetup, Setup, State
from meloch.engine.track import token_list
from meloch.engine.tx import Tx, settle


class SetupError(ValueError):
    """A setup names a component that does not exist or combines roles wrongly."""


def _content(setup: Setup) -> Content:
    try:
        return get(setup.content)
    except ContentError as e:
        raise SetupError(f"unknown content set {setup.content!r}; registered: "
                         f"{', '.join(repr(x) for x in registered())}") from e


def _check(setup: Setup, c: Content) -> None:
    if setup.map_side not in c.maps:
        raise SetupError(f"unknown map side {setup.map_side!r}; choose one of {', '.join(sorted(c.maps))}")
    if setup.track_side not in c.tracks:
        raise SetupError(f"unknown track side {setup.track_side!r}; choose one of {', '.join(sorted(c.tracks))}")
    roles = tuple(s.role for s in setup.seats)
    want = {"standard": ("scythe", "expeditions"), "scythe_vs_scythe": ("scythe", "scythe"),
            "expeditions_vs_expeditions": ("expeditions", "expeditions")}[setup.variant]
    if roles != want:
        raise SetupError(f"variant {setup.variant} needs seat roles {want}, got {roles}")
    for s in setup.seats:
        if s.stars_to_win not in (2, 3, 4):
            raise SetupError("stars_to_win must be 4, or 3 or 2 under the experience-disparity variant")
        if s.role == "scythe":
            if s.faction not in c.factions:
                raise SetupError(f"unknown faction {s.faction!r}; choose one of {', '.join(sorted(c.factions))}")
            if s.mat not in c.mats:
                raise SetupError(f"unknown player mat {s.mat!r}; choose one of {', '.join(sorted(c.mats))}")
        else:
            if s.mech not in c.mechs:
                raise SetupError(f"unknown mech {s.mech!r}; choose one of {', '.join(sorted(c.mechs))}")
            for cid, kind in ((s.character, "character"), (s.companion, "companion")):
                if cid not in c.cards or c.cards[cid].kind != kind:
                    names = sorted(k for k, v in c.cards.items() if v.kind == kind)
                    raise SetupError(f"unknown {kind} {cid!r}; choose one of {', '.join(names)}")
    if all(s.stars_to_win < 4 for s in setup.seats):
        raise SetupError("only the less experienced player may lower the victory condition "
                         "(experience-disparity variant, AMB-34 (a)): leave one seat at 4 stars")
    a = setup.automa
    if a is not None:
        if setup.variant != "standard":
            raise SetupError("the solo Automa plays the standard duel only")
        if a.seat not in (0, 1):
            raise SetupError(f"automa seat must be 0 (Scythian) or 1 (Explorer), got {a.seat}")
        if not 1 <= a.level <= 5:
            raise SetupError(f"automa level must be 1 to 5, got {a.level}")
        if c.automa is None:
            raise SetupError("this content set has no Automa (automa.yaml)")
    if setup.turn_limit < 2:
        raise SetupError("turn_limit must be at least 2")


def new_game(setup: Setup | None = None, seed: int = 0) -> State:
    """A new game after setup, waiting for the first player's first decision."""
    setup = setup or Setup()
    content = _content(setup)
    _check(setup, content)
    with using(content):
        return _new_game(setup, seed)


def _new_game(setup: Setup, seed: int) -> State:
    c = active()
    b = board(setup.map_side)
    placeholder: tuple[Seat, Seat] = (
        ExpSeat(mech="", character="", companion="", home="", loc="", power=0, guile=0, coins=0),
        ExpSeat(mech="", character="", companion="", home="", loc="", power=0, guile=0, coins=0),
    )
    state = State(setup=setup, seed=seed, rng=rng.seed_state(seed), seats=placeholder)
    tx = Tx(state, c)
    s = tx.s
    # The seed is not logged: it would let a seat recompute every shuffle (hidden, architecture.md).
    tx.log("setup", f"New game: {setup.map_side} map, track side {setup.track_side}, {setup.variant}.")
    # 3. map tokens: 6 face down on the marked locations, 3 aside
    tokens = tx.shuffled([t.id for t in c.map_tokens])
    marked = [lid for lid in b.numbered if b.loc[lid].map_token]
    s.map_tokens = tuple(zip(marked, tokens[: len(marked)], strict=True))
    s.map_token_supply = tokens[len(marked):]
    # 4. corruption: 2 face up on each dotted box (Expeditions-only component)
    uses_exp = any(x.role == "expeditions" for x in setup.seats)
    if uses_exp:
        ids = tx.shuffled(range(len(token_list())))
        boxes = [lid for lid in b.numbered if b.loc[lid].corruption]
        s.corruption = tuple((lid, (ids[2 * i], ids[2 * i + 1])) for i, lid in enumerate(boxes))
    # 5. Triumph Track
    s.track = tuple(() for _ in c.tracks[setup.track_side].categories)
    # 6. combat deck
    s.combat_deck = tx.shuffled(range(len(combat_types())))
    # 7. Factory: 2 face down ("You may include Factory cards from Scythe": Setup.base_factory_cards)
    s.factory_cards = tx.shuffled([f.id for f in factory_pool(setup)])[:2]
    # 8. encounters ("You may include encounter cards from Scythe": Setup.base_encounters)
    s.encounter_deck = tx.shuffled([e.id for e in encounter_pool(setup)])
    # 9. discovery deck, one face up on each lake
    # (with "discovery cards from Expeditions": Setup.base_discoveries, quests for 11-20 redrawn)
    s.discovery_deck = tx.shuffled(discovery_deck_ids(setup.base_discoveries))
    if uses_exp:
        s.lakes = tuple((lake, draw_discovery(tx) or "") for lake in b.lakes)
    else:
        s.lakes = tuple((lake, "") for lake in b.lakes)
    # 10. Meloch deck; reveal one in a random orientation, nobody gains
    mdeck = tx.shuffled([m.id for m in c.meloch_cards])
    s.meloch_row = ((mdeck[-1], tx.randbelow(2) == 1),)
    s.meloch_deck = mdeck[:-1]
    # Homes: standard seats use their own edge; the variants assign home bases at random.
    homes = [b.home_scythe, b.home_expeditions]
    if setup.variant != "standard" and tx.randbelow(2) == 1:
        homes.reverse()
    seats: list[Seat] = []
    for i, ss in enumerate(setup.seats):
        seats.append(_scythe_seat(tx, ss, homes[i]) if ss.role == "scythe" else _exp_seat(ss, homes[i]))
    s.seats = (seats[0], seats[1])
    for i, ss in enumerate(setup.seats):
        if ss.role == "scythe":
            faction = c.factions[ss.faction]
            draw_combat(tx, i, faction.combat_cards, "starting cards")
    # First player: Expeditions in the duel; random in the variants (AMB-33 (a)).
    s.active = 1 if setup.variant == "standard" else tx.randbelow(2)
    for hook in flow.NEW_GAME:
        hook(tx)
    flow.run(tx)
    settle(tx)
    s.events = tuple(tx.events)
    return s


def _scythe_seat(tx: Tx, ss: SeatSetup, home: str) -> ScytheSeat:
    c = active()
    b = board(tx.s.setup.map_side)
    faction, mat = c.factions[ss.faction], c.mats[ss.mat]
    start = sorted(n for n in b.land[home] if b.is_territory(n))
    return ScytheSeat(
        faction=ss.faction, mat=ss.mat, home=home, power=faction.power, popularity=mat.popularity,
        coins=mat.coins, character=home, workers=tuple(start), workers_on_mat=8 - len(start),
    )


def _exp_seat(ss: SeatSetup, home: str) -> ExpSeat:
    m = active().mechs[ss.mech]
    workers = (*m.start_workers, *(("hero",) if m.start_hero_worker else ()))
    return ExpSeat(
        mech=ss.mech, character=ss.character, companion=ss.companion, home=home, loc=home,
        power=m.start_power, guile=m.start_guile, coins=m.start_coins, workers=workers,
        hand=(ss.character, ss.companion), token="refresh",
    )
