"""``meloch ladder``: seat-swapped round robins between agents, with a progress bar, win rates and
their 95% intervals, Elo-like ratings and time per move; the games are written as JSON."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from rich.console import Console

    from meloch.sim.ladder import LadderResult


def ladder(
    agents: str | None = typer.Option(None, "--agents", "-a",
                                      help="Comma-separated agents (random, heuristic, ismcts:easy|medium|hard, "
                                           "ismcts:N, search:flat, search:s8t6r0) [default: random,heuristic]; "
                                           "with --from, the order of the figures (A before B)."),
    games: int = typer.Option(200, "--games", "-g", min=8,
                              help="Games per pairing (rounded up to a multiple of 8: 2 maps x 2 tracks x 2 orders)."),
    seed: int = typer.Option(1, "--seed", help="First deal seed."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, help="Worker processes."),
    turn_limit: int = typer.Option(300, "--turn-limit", min=2, help="Turns before a game ends without a winner."),
    from_file: Path | None = typer.Option(None, "--from", help="Print the figures of a ladder file (its JSON or "
                                          "a stopped run's .games.jsonl) instead of playing."),
    out: Path = typer.Option(Path("ladder.json"), "--out", help="Write every game and the summary here (JSON); "
                             "each game is also appended to OUT.games.jsonl as it ends."),
    role: str | None = typer.Option(None, "--role", help="Play only the games in which the later agent of each "
                                    "pair holds this role (scythe or expeditions): one role's setting measured "
                                    "alone, at half the games."),
    resume: bool = typer.Option(False, "--resume", help="Continue a stopped run: the games already in "
                                "OUT.games.jsonl (same agents, games, seed) are kept and not played again."),
) -> None:
    """Each pair of agents plays the same deals in both seat orders, on both map and track sides."""
    import msgspec
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from meloch.sim.ladder import ROLES, LadderGame, load_games, run_ladder, schedule, spec_key, summarise

    names = [a.strip() for a in (agents or "random,heuristic").split(",") if a.strip()]
    seeds = -(-games // 8)
    console = Console(highlight=False, soft_wrap=True)
    if from_file is not None:
        try:
            stored = load_games(from_file.read_bytes())
        except (OSError, msgspec.DecodeError, msgspec.ValidationError) as err:
            console.print(f"[red]Cannot read {from_file}:[/] {err}")
            raise typer.Exit(code=2) from None
        seen = list(dict.fromkeys(name for g in stored for name in g.agents))
        if len(seen) < 2:
            console.print(f"[red]{from_file} holds no ladder games.[/]")
            raise typer.Exit(code=2)
        if agents is not None:  # the figures in the order asked (else the file's order of play)
            missing = [n for n in names if n not in seen]
            if missing:
                console.print(f"[red]{from_file} has no games of {', '.join(missing)}.[/] "
                              f"Its agents: {', '.join(seen)}.")
                raise typer.Exit(code=2)
            seen = names + [n for n in seen if n not in names]
        _show(console, summarise(seen, 0, stored), f"{from_file}: {len(stored)} games")
        return
    if role is not None and role.lower() not in ROLES:
        console.print(f"[red]Unknown role {role!r}:[/] choose one of {', '.join(ROLES)}.")
        raise typer.Exit(code=2)
    role = None if role is None else role.lower()
    total = len(schedule(names, seeds, role=role)) if len(names) >= 2 else 0
    partial = out.with_suffix(".games.jsonl")
    done: list[LadderGame] = []
    if resume and partial.exists():
        try:
            done = load_games(partial.read_bytes())
        except (OSError, msgspec.DecodeError, msgspec.ValidationError) as err:
            console.print(f"[red]Cannot resume from {partial}:[/] {err}")
            raise typer.Exit(code=2) from None
        console.print(f"Resuming: {len(done)} games already in {partial}.")
    with Progress(TextColumn("ladder"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True) as bar:
        task = bar.add_task("games", total=total)
        keys = {spec_key(x.agents, x.map_side, x.track_side, x.seed)
                for x in schedule(names, seeds, seed, turn_limit, role)}
        bar.advance(task, sum(1 for g in done if spec_key(g.agents, g.map_side, g.track_side, g.seed) in keys))
        written: list[LadderGame] = list(done)

        def tick(g: LadderGame) -> None:
            # each game as it ends (the file is started by the first one): a run stopped early keeps its games
            with partial.open("ab" if written else "wb") as f:
                f.write(msgspec.json.encode(g) + b"\n")
            written.append(g)
            bar.advance(task)

        try:
            r = run_ladder(names, seeds, first_seed=seed, turn_limit=turn_limit, jobs=jobs, on_game=tick, done=done,
                           role=role)
        except ValueError as err:
            console.print(f"[red]Error:[/] {err}")
            raise typer.Exit(code=2) from None
        except OSError as err:
            console.print(f"[red]Cannot write {partial}:[/] {err.strerror or err}")
            raise typer.Exit(code=1) from None
    kept = f"{4 * seeds} per pairing, the later agent as {role}" if role else f"{8 * seeds} per pairing (seat-swapped)"
    _show(console, r, f"{len(r.games)} games, {kept}")
    try:
        out.write_bytes(msgspec.json.format(msgspec.json.encode(r), indent=1))
    except OSError as err:
        console.print(f"[red]Cannot write {out}:[/] {err.strerror or err}")
        raise typer.Exit(code=1) from None
    console.print(f"Wrote {out}.")


def _show(console: Console, r: LadderResult, title: str) -> None:
    from rich.table import Table

    from meloch.sim.ladder import Interval

    t = Table(title=f"meloch ladder: {title}")
    for col in ("A", "B"):  # folded, never cut: two search specs share their first characters
        t.add_column(col, overflow="fold")
    for col in ("A wins (95% CI)", "A as Scythe", "A as Expeditions"):
        t.add_column(col)

    def fmt(i: Interval) -> str:
        if i.games == 0:
            return "no games"
        return f"{100 * i.rate:.0f}% [{100 * i.low:.0f}-{100 * i.high:.0f}] n={i.games}"

    for p in r.pairs:
        t.add_row(p.a, p.b, fmt(p.overall), fmt(p.by_role["scythe"]), fmt(p.by_role["expeditions"]))
    console.print(t)
    s = Table(title="ratings and CPU time per move (non-forced decisions)")
    for col in ("agent", "rating", "moves", "p50 ms", "p95 ms"):
        s.add_column(col, justify="right" if col != "agent" else "left", overflow="fold")
    for tm in r.times:
        s.add_row(tm.agent, f"{r.ratings[tm.agent]:+.0f}", str(tm.moves), f"{tm.p50_ms:.1f}", f"{tm.p95_ms:.1f}")
    console.print(s)


def register(app: typer.Typer) -> None:
    app.command("ladder")(ladder)
