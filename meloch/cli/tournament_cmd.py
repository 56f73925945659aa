"""``meloch tournament``: the Tournament of Meloch (a bracket of combinations and agents), and the
replay of any of its games from the saved records."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import typer

tournament_app = typer.Typer(no_args_is_help=True, help="Tournament of Meloch: run a bracket, replay its games.")


@tournament_app.command("run")
def run(
    entrant: list[str] = typer.Option(
        [], "--entrant", "-e",
        help="scythe:FACTION:MAT[:AGENT] or expeditions:MECH[:CHARACTER:COMPANION][:AGENT]; repeat. "
        "Default: --entrants N generated combinations."),
    entrants: int = typer.Option(8, "--entrants", "-n", min=2, help="Number of generated entrants (no --entrant)."),
    agents: str = typer.Option("random", "--agents", help="Comma-separated agents for generated entrants "
                               "(random, aggressive, heuristic, ismcts:easy|medium|hard)."),
    seed: int = typer.Option(1, "--seed", help="Tournament seed (pairings and game seeds)."),
    map_side: str = typer.Option("jungle", "--map", help="Map side: jungle or desert."),
    track: str = typer.Option("A", "--track", help="Triumph Track side: A or B."),
    turn_limit: int = typer.Option(300, "--turn-limit", min=2, help="Turns before a game is decided by stars."),
    out: Path | None = typer.Option(None, "--out", help="Write the records (JSON) to this file."),
) -> None:
    """Play a knock-out bracket: Scythe vs Expeditions in round 1, winners meet afterwards (which may
    give Scythe vs Scythe or Expeditions vs Expeditions). Prints the bracket and every result."""
    from meloch.agents import AGENTS, agent_names
    from meloch.engine import SetupError
    from meloch.sim.tournament import Entrant, default_entrants, run_tournament

    try:
        names = tuple(a.strip() for a in agents.split(",") if a.strip())
        for a in names:
            if a not in AGENTS:
                raise ValueError(f"unknown agent {a!r}; choose from {', '.join(agent_names())}")
        field = [Entrant.parse(e) for e in entrant] if entrant else default_entrants(entrants, names or ("random",))
    except ValueError as err:
        typer.echo(f"Error: {err}", err=True)
        raise typer.Exit(code=2) from None
    typer.echo("Tournament of Meloch: " + ", ".join(f"#{i + 1} {e.name}" for i, e in enumerate(field)))

    def show(rec: object) -> None:
        from meloch.sim.tournament import MatchRecord

        assert isinstance(rec, MatchRecord)
        w = rec.entrants[rec.winner]
        extra = f"; {rec.tiebreak}" if rec.tiebreak else ""
        typer.echo(f"  round {rec.round} match {rec.match} [{rec.game.setup.variant}, seed {rec.seed}]: "
                   f"{rec.entrants[0]} vs {rec.entrants[1]} -> {w} ({rec.reason}{extra}, {rec.turns} turns)")

    try:
        t = run_tournament(field, seed=seed, map_side=map_side, track_side=track, turn_limit=turn_limit, on_game=show)
    except (SetupError, ValueError) as err:
        typer.echo(f"Error: {err}", err=True)
        raise typer.Exit(code=2) from None
    typer.echo("Bracket:")
    for r, results in enumerate(t.rounds, 1):
        cells = [f"{field[a].name} vs {field[b].name} => {field[w].name}" if b is not None
                 else f"{field[a].name} (bye)" for a, b, w in results]
        typer.echo(f"  Round {r}: " + " | ".join(cells))
    typer.echo(f"Champion: {t.champion.name}")
    if out is not None:
        out.write_text(json.dumps({"entrants": [e.name for e in field], "seed": seed,
                                   "games": [r.to_dict() for r in t.records]}, indent=1), encoding="utf-8")
        typer.echo(f"Records written to {out} (replay with: meloch tournament replay {out} --game N).")


@tournament_app.command("replay")
def replay(
    records: Path = typer.Argument(..., help="A records file written by 'meloch tournament run --out'."),
    game: int = typer.Option(0, "--game", help="Game number (1-based, in play order); 0 replays them all."),
    show_actions: bool = typer.Option(False, "--actions", help="Print each action as it is replayed."),
) -> None:
    """Replay tournament games from their records (setup, seed, actions) and check the results."""
    from meloch.sim.tournament import MatchRecord, replay_record

    try:
        data = json.loads(records.read_text(encoding="utf-8"))
        games = [MatchRecord.from_dict(g) for g in data["games"]]
    except (OSError, ValueError, KeyError, TypeError, msgspec.ValidationError) as err:
        typer.echo(f"Error: {records} is not a tournament records file: {err}", err=True)
        raise typer.Exit(code=2) from None
    pick = list(enumerate(games, 1)) if game == 0 else [(game, games[game - 1])] if 0 < game <= len(games) else []
    if not pick:
        typer.echo(f"Error: no game {game}; the file has {len(games)}.", err=True)
        raise typer.Exit(code=2)
    bad = 0
    for n, rec in pick:
        if show_actions:
            for a in rec.actions:
                typer.echo(f"    {a}")
        ok, msg = replay_record(rec)
        bad += not ok
        typer.echo(f"game {n} (round {rec.round}): {rec.entrants[0]} vs {rec.entrants[1]}: {msg}")
    if bad:
        raise typer.Exit(code=1)


def register(app: typer.Typer) -> None:
    """Add ``meloch tournament`` to the main app."""
    app.add_typer(tournament_app, name="tournament")
