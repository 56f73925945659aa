"""``standing(state, seat)``: a seat's public figures that an evaluation weighs, without the typed view.

Why: the agents' evaluation (``meloch.agents.evaluate``) runs on every node a search reaches and on
every child a look-ahead compares; building the whole ``View`` there (every name, prompt and pile a
person reads, about 20 us) was the largest single cost of the heuristic agent and of ISMCTS. A
``Standing`` carries only what the evaluation reads, from the same sources as ``view`` (the seat's
counts as ``_scythe``/``_exp`` give them) and ``goals``, and every figure in it is public: any seat
may ask about either seat.
"""

from __future__ import annotations

from meloch.engine import hooks, track, variants
from meloch.engine.board import board
from meloch.engine.contract import Standing
from meloch.engine.game_content import bound
from meloch.engine.meloch_cards import visible_meloch
from meloch.engine.model import State
from meloch.engine.tx import is_scythe


@bound
def standing(state: State, seat: int, boasts: bool = False) -> Standing:
    """The public figures of ``seat`` that an evaluation weighs (see the module docstring).
    ``boast_steps`` only with ``boasts`` (else -1): one judge reads it (``e5``), and finding the Boast
    sites was 8% of ``search:medium``'s time, which never reads it."""
    p = state.seats[seat]
    su = state.setup.seats[seat]
    goals = tuple(track.goals(state, seat))
    # an open combat column is open for both seats (one track); past it only Saxony's stacking
    stake = any(g[1] == "combat" and g[5] for g in goals) or bool(track.combat_star_columns(state, seat)) \
        or bool(track.combat_star_columns(state, 1 - seat))
    if is_scythe(p):
        spots, produces = hooks.SCYTHE_MEANS[0](state, seat)
        return Standing(role="scythe", stars=track.stars_of(state, seat), stars_to_win=su.stars_to_win, goals=goals,
                        power=p.power, combat_cards=len(p.combat_cards), stars_discarded=p.stars_discarded,
                        resources=p.resources, hand=0, build_spots=spots, produces=produces,
                        mechs=len(p.mechs), combat_stake=stake)
    return Standing(role="expeditions", stars=track.stars_of(state, seat), stars_to_win=su.stars_to_win, goals=goals,
                    power=p.power, combat_cards=len(p.combat_cards), stars_discarded=0, resources=(),
                    hand=len(p.hand), combat_stake=stake,
                    boast_steps=boast_steps(state, p.loc) if boasts else -1)


def boast_steps(state: State, loc: str) -> int:
    """Mech steps from ``loc`` to the nearest location whose Gather Boasts now (``Standing.boast_steps``):
    of the board's Boast sites, those whose Gather benefits (the Gather rule's own answer) hold a Boast."""
    b = board(state.setup.map_side)
    dist = b.mech_distance[loc]
    near = [dist[site] for site in b.boast_sites if site in dist
            and any(e.op == "boast" for fn in variants.GATHER_BENEFITS for e in fn(state, site))]
    return min(near) if near else -1


@bound
def meloch_facing(state: State, seat: int) -> tuple[tuple[str, int], ...]:
    """The Meloch benefits facing ``seat`` on the visible row, as (op, n), read for its role (popularity
    <-> guile): about what it takes when its opponent next places a star (the card it then draws covers
    half of the newest one and shows its own two). Public: the row is face up. The ``e6`` judge of the
    flat search weighs it (docs/agents.md)."""
    return tuple((e.op, e.n) for e in visible_meloch(state, seat))
