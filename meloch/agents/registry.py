"""The one table of agent names, and the one rule for seeding agents from a game seed."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import msgspec

from meloch.agents.aggressive import AggressiveAgent
from meloch.agents.base import Agent, RandomAgent
from meloch.agents.evaluate import TUNED_WEIGHTS, WEIGHTS
from meloch.agents.flat import FLAT_LEVELS, JUDGES, LINE_WEIGHTS, SEARCH_LEVELS, FlatAgent, FlatParams
from meloch.agents.heuristic import HeuristicAgent
from meloch.agents.ismcts import LEVELS, ISMCTSAgent
from meloch.engine import Action, AutomaSetup, Setup, View

AGENTS: dict[str, Callable[[int], Agent]] = {"random": RandomAgent, "aggressive": AggressiveAgent,
                                             "heuristic": HeuristicAgent}
"""Agent name -> factory taking a seed."""

for _level in LEVELS:
    AGENTS[f"ismcts:{_level}"] = lambda seed, _l=_level: ISMCTSAgent(seed, _l)  # type: ignore[misc]

for _level, (_scythe, _exp) in SEARCH_LEVELS.items():
    AGENTS[f"search:{_level}"] = lambda seed, _l=_level, _s=_scythe, _e=_exp: FlatAgent(  # type: ignore[misc]
        seed, _l, _s, by_role={"scythe": _s, "expeditions": _e})

_FLAT_LETTERS = "[strdnewvqkzhb]"
"""The setting letters of a ``search:`` spec (``_flat_params``)."""
_FLAT_SPEC = re.compile(rf"^(?:{_FLAT_LETTERS}\d+)+$")


def _flat_params(spec: str) -> FlatParams | None:
    """``s8t6r1`` (samples 8, top 6, reply on; ``d``: depth, ``n``: own turns per line; ``e1``: the
    fitted evaluation judges the lines, ``e2`` the role-weighted one, ``e3`` the armed one, ``e4`` the race
    one, ``e5`` the Boast-reach one, ``e6`` the Meloch-haul one:
    ``FlatParams.judge``; ``w3``: the seat's next decision searched 3 wide, ``FlatParams.width``;
    ``v2``: the one after that 2 wide, ``width2``; ``q3``: the opponent's first reply decision searched
    3 wide against the seat, ``reply_width``; ``k1``: the lines and their judge by ``TUNED_WEIGHTS``,
    ``FlatParams.weights``; ``z2``: two own turns a line in a race, ``race_turns``; ``h0``: the final choice's
    softmax temperature in hundredths of a score unit, ``temperature``, 0 for the best mean always, 10
    the default; ``b1``: each seat's best combat card tucked in the lines, ``b2`` the defender's only,
    ``b3`` the searching seat's and its opponent's when it defends, ``tuck``) or a level name."""
    if spec in FLAT_LEVELS:
        return FLAT_LEVELS[spec]
    if not _FLAT_SPEC.match(spec):
        return None
    f = {k: int(v) for k, v in re.findall(rf"({_FLAT_LETTERS})(\d+)", spec)}
    base = FlatParams()
    params = FlatParams(samples=f.get("s", base.samples), top=f.get("t", base.top), reply=bool(f.get("r", 0)),
                        depth=f.get("d", base.depth), turns=f.get("n", base.turns),
                        judge=f.get("e", base.judge), width=f.get("w", base.width),
                        width2=f.get("v", base.width2), reply_width=f.get("q", base.reply_width),
                        weights=f.get("k", base.weights), race_turns=f.get("z", base.race_turns),
                        temperature=f["h"] / 100 if "h" in f else base.temperature,
                        tuck=f.get("b", base.tuck))
    if (params.samples < 1 or params.depth < 1 or params.turns < 1 or params.judge >= len(JUDGES)
            or params.weights >= len(LINE_WEIGHTS) or params.tuck > 3):
        return None
    return params


def _flat_by_spec(name: str) -> Callable[[int], Agent] | None:
    """``search:LEVEL`` (``FLAT_LEVELS``), ``search:s8t6r1`` (any ``FlatParams``, see ``_flat_params``),
    or ``search:A/B``: settings A when the agent plays Scythe, B when it plays Expeditions; so
    ``meloch ladder`` can compare settings without a code change. Experimental: not in ``AGENTS``
    (the menus, the server), like ``ismcts:N``."""
    head, _, tail = name.partition(":")
    if head != "search":
        return None
    if tail in FLAT_LEVELS:
        return lambda seed: FlatAgent(seed, tail)
    parts = tail.split("/")
    if len(parts) > 2:
        return None
    found = [_flat_params(x) for x in parts]
    if any(x is None for x in found):
        return None
    params = [x for x in found if x is not None]
    if len(params) == 1:
        return lambda seed: FlatAgent(seed, tail, params[0])
    roles = {"scythe": params[0], "expeditions": params[1]}
    return lambda seed: FlatAgent(seed, tail, params[0], by_role=roles)


def _ismcts_by_iterations(name: str) -> Callable[[int], Agent] | None:
    """``ismcts:N`` (N iterations per decision, the medium level's other settings): the levels in
    between."""
    head, _, tail = name.partition(":")
    if head != "ismcts" or not tail.isdigit() or not 1 <= int(tail) <= 1_000_000:
        return None
    params = replace(LEVELS["medium"], iterations=int(tail))
    return lambda seed: ISMCTSAgent(seed, tail, params)


_HEURISTIC_SPEC = re.compile(r"^(?:[tsmk]\d+)+$")


def _heuristic_by_spec(name: str) -> Callable[[int], Agent] | None:
    """``heuristic:t1s1m3``: the heuristic with its look-ahead expecting each seat's best combat card
    tucked (``t1``), the ``stake`` rule at weight N (``sN``) and the ``mech`` term at N score units a
    mech (``mN``), or every weight from ``TUNED_WEIGHTS`` (``k1``; ``s`` and ``m`` then over them); so a
    balance screen or a ladder can try them without a code change.
    Experimental: not in ``AGENTS``."""
    head, _, tail = name.partition(":")
    if head != "heuristic" or not _HEURISTIC_SPEC.match(tail):
        return None
    f = {k: int(v) for k, v in re.findall(r"([tsmk])(\d+)", tail)}
    if f.get("k", 0) > 1:
        return None
    base = TUNED_WEIGHTS if f.get("k", 0) else WEIGHTS
    weights = {**base, "stake": float(f.get("s", base["stake"])), "mech": float(f.get("m", base["mech"]))}
    return lambda seed: HeuristicAgent(seed, weights=weights, tuck_best=bool(f.get("t", 0)), name=name)


def agent_names() -> list[str]:
    return sorted(AGENTS)


_AUTOMA = re.compile(r"^automa:([1-5])(\+threat)?$")
AUTOMA_NAMES = ("automa:N", "automa:N+threat")
"""Engine-driven seats: the solo Automa at level N (1-5), with or without the Threat variant."""


def automa_option(name: str) -> tuple[int, bool] | None:
    """``(level, threat)`` for an Automa name ("automa:3", "automa:5+threat"), None for an agent;
    ``ValueError`` for a malformed Automa name."""
    if not name.startswith("automa"):
        return None
    m = _AUTOMA.match(name)
    if m is None:
        raise ValueError(f"bad Automa name {name!r}: use automa:N or automa:N+threat with N from 1 to 5")
    return int(m.group(1)), bool(m.group(2))


def with_engine_seats(setup: Setup, names: Sequence[str]) -> Setup:
    """``setup`` with the seats named ``automa:N[+threat]`` played by the engine's Automa. The
    Automa is a seat the rules drive, not an agent: the name maps to a setup option."""
    autos = [(seat, opt) for seat, n in enumerate(names) if (opt := automa_option(n)) is not None]
    if not autos:
        return setup
    if len(autos) > 1:
        raise ValueError("only one seat can be the Automa")
    seat, (level, threat) = autos[0]
    return msgspec.structs.replace(setup, automa=AutomaSetup(seat=seat, level=level, threat=threat))


class EngineSeat:
    """Stands in the agents' list for a seat the engine drives (the Automa): never asked."""

    uses_view = False

    def __init__(self, name: str) -> None:
        self.name = name

    def choose(self, view: View | None, legal: list[Action]) -> Any:
        raise RuntimeError(f"{self.name} is played by the engine; give the game setup its option "
                           "(meloch.agents.with_engine_seats)")


def make_agent(name: str, seed: int) -> Agent:
    """A new agent ``name`` with its own RNG seeded by ``seed``; ``ValueError`` for an unknown name.
    An Automa name gives an ``EngineSeat`` (the setup must carry the option: ``with_engine_seats``)."""
    if automa_option(name) is not None:
        return EngineSeat(name)
    factory = AGENTS.get(name) or _ismcts_by_iterations(name) or _flat_by_spec(name) or _heuristic_by_spec(name)
    if factory is None:
        raise ValueError(f"unknown agent {name!r}; choose one of {', '.join([*agent_names(), *AUTOMA_NAMES])} "
                         "(or ismcts:N, N iterations per decision; search:s8t6r1, flat search settings;"
                         " heuristic:t1s1, heuristic settings)")
    return factory(seed)


_SETTINGS = ("params", "by_role", "temperature", "depth", "weights", "tuck_best")
"""The attributes that set how an agent plays (its RNG aside): what ``agent_settings`` digests."""


def agent_settings(agent: Agent) -> str:
    """A short digest of what ``agent`` plays by (its class and settings, not its RNG): a level name such
    as ``search:hard`` is given new settings when a stronger one is measured, so a ladder file records
    this beside each name and ``--resume`` refuses to mix games of the old and the new settings."""
    parts = [type(agent).__qualname__, agent.name if isinstance(agent, EngineSeat) else ""]
    parts += [f"{attr}={getattr(agent, attr)!r}" for attr in _SETTINGS if hasattr(agent, attr)]
    return hashlib.sha256("; ".join(parts).encode()).hexdigest()[:12]


def agent_seed(game_seed: int, seat: int) -> int:
    """The seed of ``seat``'s agent in game ``game_seed``: distinct across seats and games, and
    independent of the game's own RNG (which is seeded from ``game_seed`` through a hash)."""
    return 2 * game_seed + 1 + seat
