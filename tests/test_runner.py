"""The one game runner and the one agent table."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from meloch.agents import AGENTS, AggressiveAgent, RandomAgent, agent_names, agent_seed, make_agent
from meloch.engine import (
    SEAT_TAGS,
    VARIANT_ROLES,
    Action,
    Setup,
    State,
    apply,
    decision,
    new_game,
    replay,
    state_hash,
)
from meloch.sim.runner import Control, GameRecord, History, Hooks, RunnerError, play_game
from meloch.sim.selfplay import play_random_game

ROOT = Path(__file__).resolve().parents[1]


def test_registry_makes_every_agent_and_refuses_unknown_names() -> None:
    assert agent_names() == ["aggressive", "heuristic", "ismcts:easy", "ismcts:hard", "ismcts:medium", "random",
                             "search:hard", "search:medium"]
    assert isinstance(make_agent("random", 1), RandomAgent)
    assert isinstance(make_agent("aggressive", 1), AggressiveAgent)
    with pytest.raises(ValueError, match="unknown agent 'alien'"):
        make_agent("alien", 1)
    for name in AGENTS:
        assert make_agent(name, 5).name == name


def test_one_seed_rule() -> None:
    seeds = {agent_seed(g, s) for g in range(200) for s in (0, 1)}
    assert len(seeds) == 400  # distinct across games and seats


def test_variant_roles_cover_every_variant() -> None:
    assert set(VARIANT_ROLES) == set(SEAT_TAGS)
    assert VARIANT_ROLES["standard"] == ("scythe", "expeditions")


def test_play_game_records_replay_exactly() -> None:
    setup = Setup(turn_limit=30)
    agents = [make_agent("aggressive", agent_seed(9, 0)), make_agent("random", agent_seed(9, 1))]
    rec = play_game(setup, 9, agents)
    assert isinstance(rec, GameRecord) and rec.agents == ("aggressive", "random")
    assert rec.outcome is not None and not rec.quit and rec.decisions == len(rec.actions)
    s = replay(rec.setup, rec.seed, list(rec.actions))
    assert state_hash(s) == rec.final_hash and s.turn == rec.turns
    assert play_random_game(setup, 9) == play_game(setup, 9, [make_agent("random", agent_seed(9, i)) for i in (0, 1)])


class _Script:
    """Plays ``first`` (a list of answers, actions in notation or controls), then the first option."""

    name = "script"
    uses_view = True

    def __init__(self, first: list[Any]) -> None:
        self.first = first

    def choose(self, view: Any, legal: list[Action]) -> Any:
        if self.first:
            x = self.first.pop(0)
            return x if isinstance(x, Control) else next(a for a in legal if str(a) == x)
        return legal[0]


class _Log(Hooks):
    def __init__(self) -> None:
        self.steps = 0
        self.undos: list[tuple[list[str], str | None, str]] = []
        self.ended = False

    def on_step(self, before: State, action: Action, after: State) -> None:
        self.steps += 1

    def on_undo(self, seat: int, undone: Any, refusal: str | None, blocked: str = "") -> None:
        self.undos.append(([a for _s, a in undone], refusal, blocked))

    def on_end(self, state: State, record: GameRecord) -> None:
        self.ended = True


def test_controls_undo_and_quit() -> None:
    setup = Setup(turn_limit=10)
    agent = _Script(["E token all", "E do move", Control("undo"), Control("undo"), Control("quit")])
    log = _Log()
    h = History(setup, 3)
    rec = play_game(setup, 3, [agent, agent], log, history=h)
    assert rec.quit and log.ended
    assert log.undos[0] == (["E do move"], None, "")
    # the opening token choice is the only option: nothing before it is worth undoing
    assert log.undos[1][0] == [] and log.undos[1][1] is not None
    assert rec.actions == ("E token all",) and state_hash(h.state) == state_hash(apply(new_game(setup, 3),
                                                                                          "E token all"))


def test_undo_without_history_is_refused() -> None:
    agent = _Script([Control("undo"), Control("quit")])
    log = _Log()
    play_game(Setup(), 3, [agent, agent], log)
    assert log.undos == [([], "there is nothing to undo.", "")]


def test_a_cap_on_decisions_raises() -> None:
    with pytest.raises(RunnerError):
        play_game(Setup(), 1, [RandomAgent(1), RandomAgent(2)], max_decisions=5)


def test_forced_marks_single_option_decisions() -> None:
    s = new_game(Setup(), 3)
    d = decision(s)
    assert d is not None and d.forced  # "E token all" is the only opening
    s = apply(s, "E token all")
    d = decision(s)
    assert d is not None and not d.forced


def test_play_accepts_every_registered_agent() -> None:
    from meloch.cli.main import app

    for name in agent_names():
        r = CliRunner().invoke(app, ["play", "--vs", name, "--seed", "4", "--turn-limit", "3"], input="1\n" * 300)
        assert r.exit_code == 0, r.output
        assert f"the {name} agent plays the other seat" in r.output and "Game over" in r.output


SHELLS = ("cli", "sim", "agents", "rl")


def _imports(path: Path) -> list[str]:
    out: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.append(node.module)
        elif isinstance(node, ast.Import):
            out.extend(a.name for a in node.names)
    return out


@pytest.mark.parametrize("part", SHELLS)
def test_shells_import_only_the_engines_public_protocol(part: str) -> None:
    """``meloch.engine`` is the shells' whole view of the rules: no ``meloch.engine.<module>``, and the
    scenario harness (which may read states) only behind ``meloch scenario``. This is how "no State
    field read outside the engine and the scenario harness" is kept."""
    bad = [f"{p.relative_to(ROOT)}: {m}" for p in sorted((ROOT / "meloch" / part).rglob("*.py"))
           for m in _imports(p) if m.startswith("meloch.engine.")
           or (m.startswith("meloch.scenario") and p.name != "scenario_cmd.py")]
    assert bad == []


def test_no_shell_module_names_a_state_field() -> None:
    """Shell code never reads engine state fields by name (``.frames``, ``.seats``, ``.rng``...)."""
    fields = {"frames", "rng", "combat_deck", "discovery_deck", "known", "seats", "turn", "winner", "events",
              "map_tokens", "combat", "lakes", "track", "active"}
    hits: list[str] = []
    for part in SHELLS:
        for p in sorted((ROOT / "meloch" / part).rglob("*.py")):
            for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Attribute) and node.attr in fields and isinstance(node.value, ast.Name) \
                        and node.value.id in ("s", "state", "before", "after", "st"):
                    hits.append(f"{p.relative_to(ROOT)}:{node.lineno} {node.value.id}.{node.attr}")
    assert hits == []


def test_random_agent_chooses_as_randrange_would() -> None:
    """``RandomAgent`` writes ``randrange``'s draw out over ``getrandbits`` (faster): the same choices
    as ``randrange(len(legal))`` on the same seed, so seeds named in docs and records keep their games."""
    import random
    rng = random.Random(11)
    agent = RandomAgent(11)
    opts = [Action("S", "x", (str(i),)) for i in range(40)]
    for n in [1, 2, 3, 7, 16, 17, 33, 40] * 25:
        assert agent.choose(None, opts[:n]) == opts[rng.randrange(n)]
