"""The Tournament of Meloch: a knock-out bracket over chosen combinations and agents.

"you can play one or more 'Tournaments of Meloch' with Scythe vs. Expeditions in the first round
and winners competing in the duel format in subsequent rounds (this may result in some games of
Scythe vs. Scythe or Expeditions vs. Expeditions)" (rulebook, Components / Variants).

An entrant is one combination (a Scythe faction and mat, or an Expeditions mech, character and
companion) played by one agent. Round 1 pairs Scythe entrants with Expeditions entrants; later
rounds pair winners in bracket order, so same-role duels use the variants. Every game is stored
as a record (setup, seed, actions, result) from which ``replay_record`` rebuilds it exactly.
A game that reaches the turn limit is decided by stars, then by a seeded coin flip (recorded).
Uses only the engine's public protocol.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec

from meloch.agents import AGENTS, agent_seed, make_agent
from meloch.engine import VARIANT_ROLES, Outcome, SeatSetup, Setup, apply, new_game, outcome, state_hash
from meloch.sim.runner import GameRecord, play_game

__all__ = ["AGENTS", "Entrant", "MatchRecord", "Tournament", "default_entrants", "make_setup", "play_match",
           "replay_record", "run_tournament"]


@dataclass(frozen=True)
class Entrant:
    """One combination and the agent that plays it."""

    role: str
    """"scythe" or "expeditions"."""
    parts: tuple[str, ...]
    """Scythe: (faction, mat); Expeditions: (mech, character, companion)."""
    agent: str = "random"

    @property
    def name(self) -> str:
        return f"{'S' if self.role == 'scythe' else 'E'}:{'/'.join(self.parts)} ({self.agent})"

    def seat(self) -> SeatSetup:
        if self.role == "scythe":
            return SeatSetup(role="scythe", faction=self.parts[0], mat=self.parts[1])
        return SeatSetup(role="expeditions", mech=self.parts[0], character=self.parts[1], companion=self.parts[2])

    @staticmethod
    def parse(text: str) -> Entrant:
        """``scythe:FACTION:MAT[:AGENT]`` or ``expeditions:MECH[:CHARACTER:COMPANION][:AGENT]``."""
        bits = text.split(":")
        roles = {"s": "scythe", "scythe": "scythe", "e": "expeditions", "expeditions": "expeditions"}
        role = roles.get(bits[0].lower())
        if role is None:
            raise ValueError(f"{text!r}: an entrant starts with scythe: or expeditions:")
        rest = bits[1:]
        agent = "random"
        if rest and rest[-1] in AGENTS:
            agent = rest.pop()
        if role == "scythe":
            if len(rest) != 2:
                raise ValueError(f"{text!r}: write scythe:FACTION:MAT[:AGENT]")
            return Entrant(role, (rest[0], rest[1]), agent)
        if len(rest) == 1:
            rest = [rest[0], "nikte", "nohoch"]
        if len(rest) != 3:
            raise ValueError(f"{text!r}: write expeditions:MECH[:CHARACTER:COMPANION][:AGENT]")
        return Entrant(role, (rest[0], rest[1], rest[2]), agent)


DEFAULT_SCYTHE = (("constantinople", "adventurous"), ("crimea", "patriotic"), ("saxony", "militant"),
                  ("rusviet", "industrial"), ("nordic", "engineering"), ("polania", "innovative"),
                  ("albion", "mechanical"), ("togawa", "agricultural"))
DEFAULT_MECHS = ("voyager", "tatanka", "marsh_strider", "odins_wrath", "lumberjack", "highlander", "scarecrow", "mole")


def default_entrants(n: int, agents: tuple[str, ...] = ("random",)) -> list[Entrant]:
    """``n`` entrants, half Scythe and half Expeditions, cycling through the agents."""
    out: list[Entrant] = []
    for i in range(n):
        agent = agents[(i // 2) % len(agents)]
        if i % 2 == 0:
            fac, mat = DEFAULT_SCYTHE[(i // 2) % len(DEFAULT_SCYTHE)]
            out.append(Entrant("scythe", (fac, mat), agent))
        else:
            out.append(Entrant("expeditions", (DEFAULT_MECHS[(i // 2) % len(DEFAULT_MECHS)], "nikte", "nohoch"), agent))
    return out


@dataclass
class MatchRecord:
    """One tournament game: where it sits in the bracket, the runner's record, and who advances."""

    round: int
    match: int
    entrants: tuple[str, str]
    game: GameRecord
    winner: int
    """Seat that advances (0 or 1)."""
    reason: str
    tiebreak: str = ""

    @property
    def seed(self) -> int:
        return self.game.seed

    @property
    def actions(self) -> tuple[str, ...]:
        return self.game.actions

    @property
    def turns(self) -> int:
        return self.game.turns

    def to_dict(self) -> dict[str, Any]:
        g = self.game
        return {"round": self.round, "match": self.match, "entrants": list(self.entrants),
                "setup": msgspec.to_builtins(g.setup), "seed": g.seed, "agents": list(g.agents),
                "actions": list(g.actions), "winner": self.winner, "reason": self.reason, "tiebreak": self.tiebreak,
                "turns": g.turns, "state_hash": g.final_hash}

    @staticmethod
    def from_dict(d: dict[str, Any]) -> MatchRecord:
        """Read a record written by ``to_dict`` (the file format of earlier versions too)."""
        tiebreak = d.get("tiebreak", "")
        reason = d["reason"]
        o = None if reason == "step limit" else Outcome(None if tiebreak else d["winner"], reason)
        game = GameRecord(setup=msgspec.convert(d["setup"], Setup), seed=d["seed"], actions=tuple(d["actions"]),
                          outcome=o, turns=d.get("turns", 0), decisions=len(d["actions"]),
                          final_hash=d.get("state_hash", ""), agents=tuple(d["agents"]))
        return MatchRecord(round=d["round"], match=d["match"], entrants=(d["entrants"][0], d["entrants"][1]),
                           game=game, winner=d["winner"], reason=reason, tiebreak=tiebreak)


@dataclass
class Tournament:
    entrants: list[Entrant]
    rounds: list[list[tuple[int, int | None, int]]] = field(default_factory=list)
    """Per round: (entrant index, opponent index or None for a bye, winner index)."""
    records: list[MatchRecord] = field(default_factory=list)

    @property
    def champion(self) -> Entrant:
        return self.entrants[self.rounds[-1][0][2]]


def make_setup(a: Entrant, b: Entrant, map_side: str, track_side: str, turn_limit: int) -> tuple[Setup, bool]:
    """The setup for a match, and whether ``b`` takes seat 0 (the Scythe seat of a duel)."""
    swap = a.role == "expeditions" and b.role == "scythe"
    first, second = (b, a) if swap else (a, b)
    variant = next(v for v, roles in VARIANT_ROLES.items() if roles == (first.role, second.role))
    setup = Setup(map_side=map_side, track_side=track_side, variant=variant,
                  seats=(first.seat(), second.seat()), turn_limit=turn_limit)
    return setup, swap


def play_match(setup: Setup, seed: int, agents: tuple[str, str], max_steps: int = 200_000) -> tuple[GameRecord, int,
                                                                                                     str, str]:
    """Play one game on the runner: (record, advancing seat, reason, tiebreak). A game without a
    winner is decided by stars, then by a seeded coin flip."""
    players = [make_agent(agents[i], agent_seed(seed, i)) for i in (0, 1)]
    rec = play_game(setup, seed, players, max_decisions=max_steps)
    o = rec.outcome
    tiebreak = ""
    if o is not None and o.winner is not None:
        return rec, o.winner, o.reason, tiebreak
    reason = o.reason if o is not None else "step limit"
    stars = rec.stars
    if stars[0] != stars[1]:
        winner = 0 if stars[0] > stars[1] else 1
        tiebreak = f"more stars ({stars[0]}-{stars[1]})"
    else:
        winner = random.Random(seed).randrange(2)
        tiebreak = f"equal stars ({stars[0]}-{stars[1]}): seeded coin flip"
    return rec, winner, reason, tiebreak


def run_tournament(entrants: list[Entrant], seed: int = 1, map_side: str = "jungle", track_side: str = "A",
                   turn_limit: int = 300, on_game: Callable[[MatchRecord], None] | None = None) -> Tournament:
    """Play the whole bracket. Round 1 pairs Scythe with Expeditions entrants (shuffled by ``seed``);
    leftovers of one role meet each other; an odd entrant out gets a bye."""
    if len(entrants) < 2:
        raise ValueError("a tournament needs at least 2 entrants")
    rng = random.Random(seed)
    t = Tournament(entrants=list(entrants))
    sc = [i for i, e in enumerate(entrants) if e.role == "scythe"]
    ex = [i for i, e in enumerate(entrants) if e.role == "expeditions"]
    rng.shuffle(sc)
    rng.shuffle(ex)
    order: list[int] = []
    for si, ei in zip(sc, ex, strict=False):
        order += [si, ei]
    order += sc[len(ex):] + ex[len(sc):]
    rnd = 0
    while len(order) > 1:
        rnd += 1
        results: list[tuple[int, int | None, int]] = []
        nxt: list[int] = []
        for m in range(0, len(order), 2):
            if m + 1 >= len(order):
                results.append((order[m], None, order[m]))
                nxt.append(order[m])
                continue
            ia, ib = order[m], order[m + 1]
            setup, swap = make_setup(entrants[ia], entrants[ib], map_side, track_side, turn_limit)
            seats = (ib, ia) if swap else (ia, ib)
            game_seed = seed * 1000 + rnd * 100 + m // 2
            agents = (entrants[seats[0]].agent, entrants[seats[1]].agent)
            game, w, reason, tiebreak = play_match(setup, game_seed, agents)
            rec = MatchRecord(round=rnd, match=m // 2 + 1, entrants=(entrants[seats[0]].name, entrants[seats[1]].name),
                              game=game, winner=w, reason=reason, tiebreak=tiebreak)
            t.records.append(rec)
            if on_game is not None:
                on_game(rec)
            results.append((seats[0], seats[1], seats[w]))
            nxt.append(seats[w])
        t.rounds.append(results)
        order = nxt
    return t


def replay_record(rec: MatchRecord) -> tuple[bool, str]:
    """Replay a record's actions from its setup and seed; (matches the recorded result, message)."""
    s = new_game(rec.game.setup, rec.seed)
    for i, a in enumerate(rec.actions):
        try:
            s = apply(s, a)
        except Exception as err:
            return False, f"action {i} {a!r} refused: {err}"
    h = state_hash(s)
    if rec.game.final_hash and h != rec.game.final_hash:
        return False, f"final state differs (hash {h}, recorded {rec.game.final_hash})"
    o = outcome(s)
    got = f"{o.reason}" if o is not None else "unfinished"
    return True, f"replayed {len(rec.actions)} actions: {got}; final hash {h} matches"
