"""``meloch selfplay``: many random-vs-random games and a summary table."""

from __future__ import annotations

import typer


def selfplay(
    games: int = typer.Option(100, "--games", min=1, help="Number of games."),
    seed: int = typer.Option(1, "--seed", help="First game seed; games use seeds S..S+N-1."),
    turn_limit: int = typer.Option(300, "--turn-limit", min=2, help="Turns (both seats) before a draw."),
    map_side: str = typer.Option("jungle", "--map", help="Map side: jungle or desert."),
    track: str = typer.Option("A", "--track", help="Triumph Track side: A or B."),
    variant: str = typer.Option(
        "standard", "--variant", help="standard, scythe_vs_scythe or expeditions_vs_expeditions."),
    agents: str = typer.Option("random,random", "--agents",
                               help="Agents for seat 0 and seat 1, comma-separated (any registered name: random, "
                               "heuristic, ismcts:easy|medium|hard, ...; automa:N / automa:N+threat for the solo "
                               "Automa); one name plays both seats."),
) -> None:
    """Play games (random vs random unless --agents) and print wins by seat and reason, game lengths and errors.

    Each game's agents are seeded from the game seed, so a run is reproducible. Exits with code 1
    if any game raised (the first traceback is printed).
    """
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.table import Table

    from meloch.agents import make_agent, with_engine_seats
    from meloch.engine import SetupError, new_game
    from meloch.sim.selfplay import make_setup, run_selfplay
    from meloch.sim.stats import wilson

    console = Console()

    try:
        names = [a.strip() for a in agents.split(",") if a.strip()] or ["random"]
        if len(names) > 2:
            raise ValueError("--agents takes one or two names")
        pair = (names[0], names[-1])
        for name in pair:
            make_agent(name, 0)
        setup = make_setup(map_side, track, variant, turn_limit)
        new_game(with_engine_seats(setup, pair), seed)
    except (SetupError, ValueError) as err:
        console.print(f"Error: {err}", style="red", markup=False)
        raise typer.Exit(code=2) from None

    with Progress(TextColumn("self-play"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=False) as progress:
        task = progress.add_task("games", total=games)
        summary = run_selfplay(setup, range(seed, seed + games), on_game=lambda _s: progress.advance(task),
                               agents=pair)

    console.print(f"Agents: {pair[0]} vs {pair[1]}", markup=False, highlight=False)
    console.print(f"Self-play: {games} games, seeds {seed}..{seed + games - 1}, {map_side} map, track {track}, "
                  f"{variant}, turn limit {turn_limit}", markup=False, highlight=False)
    t = Table()
    t.add_column("measure")
    t.add_column("value", justify="right")
    done = len(summary.records)
    wins = summary.wins_by_tag()
    for tag in (*summary.tags, "none"):
        n = wins.get(tag, 0)
        lo, hi = wilson(n, done)
        pct = f" ({100 * n / done:.1f}%, 95% CI {100 * lo:.1f}-{100 * hi:.1f})" if done else ""
        t.add_row(f"wins {tag}" if tag != "none" else "no winner", f"{n}{pct}")
    t.add_section()
    for (who, reason), n in sorted(summary.wins_by_reason().items()):
        t.add_row(f"{who}: {reason}", str(n))
    t.add_section()
    t.add_row("turn-limit games", str(summary.turn_limit_games()))
    t.add_row("mean turns / game", f"{summary.mean_turns():.1f}")
    t.add_row("mean decisions / game", f"{summary.mean_decisions():.1f}")
    t.add_row("errors", str(len(summary.errors)), style="red" if summary.errors else None)
    console.print(t)
    if summary.errors:
        first_seed, tb = summary.errors[0]
        console.print(f"First error (seed {first_seed}; seeds with errors: "
                      f"{', '.join(str(s) for s, _ in summary.errors[:20])}):", style="red", markup=False)
        console.print(tb, markup=False, highlight=False)
        raise typer.Exit(code=1)


def register(app: typer.Typer) -> None:
    """Add ``meloch selfplay`` to the main app."""
    app.command("selfplay")(selfplay)
