"""``meloch simulate run|resume|replay`` (bulk games to Parquet) and ``meloch report`` (HTML + PNGs)."""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import typer

simulate_app = typer.Typer(no_args_is_help=True, help="Bulk simulation: a grid of configurations to Parquet.")

_AXIS_HELP = "comma-separated values, or all"


def _fail(err: Exception) -> None:
    typer.echo(f"Error: {err}", err=True)
    raise typer.Exit(code=2) from None


@contextlib.contextmanager
def _term_interrupts() -> Iterator[None]:
    """SIGTERM (a batch scheduler's stop, ``kill``) stops a run as Ctrl-C does: every finished game is
    kept and the run resumes. Needed also because a shell starts a background job with SIGINT ignored,
    so Ctrl-C's signal never reaches a run started with ``&``."""
    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, stop)
    except ValueError:  # not the main thread: leave the signals alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _run(grid: Any, out: Path, workers: int, backend: str, address: str | None, progress: bool, batch: int) -> None:
    import time

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from meloch.sim.simulate import MANIFEST, SimError, read_results, simulate

    bar = Progress(TextColumn("simulate"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[rate]}"),
                   TextColumn("ETA {task.fields[eta]}"), disable=not progress)
    task_id = bar.add_task("games", total=None, rate="-- games/s", eta="--")
    start: list[float] = []

    def on_games(done: int, total: int) -> None:
        """The rate counts only this run's games (a resumed run starts from what is saved)."""
        now = time.perf_counter()
        if not start:
            start.extend((now, float(done)))
            bar.update(task_id, total=total, completed=done)
            return
        rate = (done - start[1]) / (now - start[0]) if now > start[0] else 0.0
        eta = time.strftime("%H:%M:%S", time.gmtime((total - done) / rate)) if rate > 0 else "--"
        bar.update(task_id, completed=done, rate=f"{rate:.1f} games/s", eta=eta)

    try:
        with bar, _term_interrupts():
            res = simulate(grid, out, workers=workers, backend=backend, address=address, on_games=on_games,
                           batch=batch)
    except (SimError, ValueError) as err:
        _fail(err)
        return
    except KeyboardInterrupt:  # before the first game was handed out (a SIGTERM while the run starts)
        if (out / MANIFEST).is_file():
            saved = read_results(out, ["game_id"]).num_rows
            typer.echo(f"Interrupted while starting: {saved} games saved in {out}; "
                       f"`meloch simulate resume {out}` continues.")
        else:
            typer.echo("Interrupted before the run started: nothing was written.")
        raise typer.Exit(code=130) from None
    for cfg, why in res.refused:
        typer.echo(f"skipped (setup refused): {cfg}: {why}")
    rate = res.games / res.wall_s if res.wall_s > 0 else 0.0
    typer.echo(f"{res.games} games played ({res.skipped} already in {out}), {res.wall_s:.1f} s wall, "
               f"{res.cpu_s:.1f} s CPU in games, {rate:.1f} games/s")
    if res.interrupted:
        typer.echo(f"Interrupted: {res.skipped + res.games} of {res.total} games saved; "
                   f"`meloch simulate resume {out}` continues.")
        raise typer.Exit(code=130)
    typer.echo(f"Done: {res.total} games in {out}. Next: meloch report {out}")


BATCH_HELP = ("Games a worker task plays (0: about eight tasks a worker, at most 64, at most 2 with a "
              "search agent: an interrupt waits for the tasks in play).")


@simulate_app.command("run")
def run(
    out: Path = typer.Argument(..., help="Results directory (created; an existing one of the same grid resumes)."),
    maps: str = typer.Option("jungle", "--maps", help=f"Map sides: {_AXIS_HELP}."),
    tracks: str = typer.Option("A", "--tracks", help=f"Triumph Track sides: {_AXIS_HELP}."),
    variants: str = typer.Option("standard", "--variants", help=f"standard, scythe_vs_scythe, "
                                 f"expeditions_vs_expeditions: {_AXIS_HELP}."),
    factions: str = typer.Option("constantinople", "--factions", help=f"Scythe factions: {_AXIS_HELP}."),
    mats: str = typer.Option("adventurous", "--mats", help=f"Scythe player mats: {_AXIS_HELP}."),
    mechs: str = typer.Option("voyager", "--mechs", help=f"Expeditions mechs: {_AXIS_HELP}."),
    agents0: str = typer.Option("random", "--agents0", help=f"Agents for seat 0 (Scythe in the duel): {_AXIS_HELP}."),
    agents1: str = typer.Option("random", "--agents1", help=f"Agents for seat 1: {_AXIS_HELP}."),
    games: int = typer.Option(10, "--games", "-n", min=1, help="Games per configuration."),
    root: int = typer.Option(0, "--root", help="Root seed (numpy SeedSequence)."),
    turn_limit: int = typer.Option(300, "--turn-limit", min=2, help="Turns before a game ends undecided."),
    workers: int = typer.Option(0, "--workers", "-w", min=0, help="Worker processes (0: all cores)."),
    backend: str = typer.Option("local", "--backend", help="local (processes) or ray."),
    address: str | None = typer.Option(None, "--address", help="Ray: address of an existing cluster (ray://...)."),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Show a progress bar."),
    batch: int = typer.Option(0, "--batch", min=0, help=BATCH_HELP),
    only: list[str] = typer.Option([], "--only", help="Play a slice: FIELD=VALUE[,VALUE...] (repeatable; fields "
                                   "map_side, track_side, variant, faction, mat, mech, agent0, agent1). Its games keep "
                                   "the whole grid's ids and seeds, so they pair with a run of the whole grid."),
) -> None:
    """Play every configuration of the grid (the product of the axes) --games times. Who starts is
    not an axis: the duel's rules fix it (Expeditions) and the variants draw it from the seed; each
    row records it (first_seat)."""
    from meloch.sim.simulate import Grid, SimError, parse_axis, parse_only

    try:
        grid = Grid(maps=parse_axis("maps", maps), tracks=parse_axis("tracks", tracks),
                    variants=parse_axis("variants", variants), factions=parse_axis("factions", factions),
                    mats=parse_axis("mats", mats), mechs=parse_axis("mechs", mechs),
                    agents0=parse_axis("agents0", agents0), agents1=parse_axis("agents1", agents1),
                    games=games, root=root, turn_limit=turn_limit, only=parse_only(only))
    except SimError as err:
        _fail(err)
        return
    _run(grid, out, workers, backend, address, progress, batch)


@simulate_app.command("resume")
def resume(
    out: Path = typer.Argument(..., help="Results directory of an interrupted run."),
    workers: int = typer.Option(0, "--workers", "-w", min=0, help="Worker processes (0: all cores)."),
    backend: str = typer.Option("local", "--backend", help="local (processes) or ray."),
    address: str | None = typer.Option(None, "--address", help="Ray: address of an existing cluster."),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Show a progress bar."),
    batch: int = typer.Option(0, "--batch", min=0, help=BATCH_HELP),
) -> None:
    """Continue a run where it stopped (its grid is read from the directory's manifest)."""
    from meloch.sim.simulate import SimError, read_manifest

    try:
        grid = read_manifest(out)
    except SimError as err:
        _fail(err)
        return
    _run(grid, out, workers, backend, address, progress, batch)


@simulate_app.command("replay")
def replay(
    out: Path = typer.Argument(..., help="Results directory."),
    game: int = typer.Option(..., "--game", help="The game_id of the game to replay."),
) -> None:
    """Play one stored game again (same setup, seed and agents) and check it ends as stored."""
    from meloch.sim.simulate import SimError, find_row, replay_row

    try:
        ok, msg = replay_row(find_row(out, game))
    except SimError as err:
        _fail(err)
        return
    typer.echo(msg)
    if not ok:
        raise typer.Exit(code=1)


@simulate_app.command("scale")
def scale(
    games: int = typer.Option(50, "--games", "-n", min=1, help="Games per configuration (8 configurations)."),
    repeats: int = typer.Option(3, "--repeats", min=1, help="Interleaved repetitions of 1 and 2 workers."),
    agents: str = typer.Option("random", "--agents", help="Agent in both seats."),
) -> None:
    """Measure throughput with 1 and 2 local workers on the same games (the figure in docs/simulate.md)."""
    from statistics import median

    from meloch.sim.simulate import Grid, ScaleRun, SimError, measure_scale, parse_axis

    try:
        ag = parse_axis("agents0", agents)
    except SimError as err:
        _fail(err)
        return
    grid = Grid(mechs=parse_axis("mechs", "all"), agents0=ag, agents1=ag, games=games, root=1)

    def show(r: ScaleRun) -> None:
        typer.echo(f"{r.workers} worker(s): {r.games} games in {r.wall_s:.1f} s wall = {r.rate:.1f} games/s; "
                   f"CPU in games {r.game_cpu_s:.1f} s, all CPU {r.total_cpu_s:.1f} s "
                   f"({r.game_cpu_s / r.games * 1000:.1f} ms per game; the scheduler gave "
                   f"{r.total_cpu_s / r.wall_s:.2f} cores)")

    runs = measure_scale(grid, (1, 2), repeats, on_run=show)
    one = median(r.rate for r in runs if r.workers == 1)
    two = median(r.rate for r in runs if r.workers == 2)
    eff = median(r.game_cpu_s / r.total_cpu_s for r in runs if r.workers == 2)
    per_core = 3600 * median(r.games / r.game_cpu_s for r in runs)
    typer.echo(f"median throughput: 1 worker {one:.1f} games/s, 2 workers {two:.1f} games/s: x{two / one:.2f} (wall)")
    typer.echo(f"2 workers spend {100 * eff:.1f}% of their CPU in games (x{2 * eff:.2f} bound on an idle machine); "
               f"{per_core:,.0f} games per CPU-hour per core")


def report(
    results: list[Path] = typer.Argument(..., help="Results directory written by `meloch simulate run`; several "
                                         "(runs of other root seeds) pool their games."),
    out: Path | None = typer.Option(None, "--out", "-o", help="Report directory (default: the first RESULTS/report)."),
    title: str = typer.Option("Balance report", "--title", help="Title of the report."),
    same_agent: bool = typer.Option(False, "--same-agent", help="Only games with the same agent in both seats."),
    agent: str | None = typer.Option(None, "--agent", help="Only games with this agent in both seats."),
    over: list[Path] = typer.Option([], "--over", help="Results of changed content played on some of the same "
                                    "deals (`simulate run --only ...`, the same root): each game replaces "
                                    "RESULTS' game of the same configuration and seed. Repeatable."),
) -> None:
    """Write a self-contained HTML report, its PNG plots and a Markdown summary."""
    from meloch.sim.report import write_report
    from meloch.sim.simulate import SimError

    try:
        paths = write_report(results, out or results[0] / "report", title=title, same_agent=same_agent,
                             agent=agent, over=over)
    except SimError as err:
        _fail(err)
        return
    for p in paths:
        typer.echo(str(p))


def register(app: typer.Typer) -> None:
    app.add_typer(simulate_app, name="simulate")
    app.command("report")(report)
