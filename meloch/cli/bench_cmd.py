"""``meloch bench``: the engine benchmark (one core) as a table, with the targets."""

from __future__ import annotations

import os

import typer
from rich.console import Console
from rich.table import Table

from meloch.agents import _native as agents_native
from meloch.engine import _native


def bench(
    games: int = typer.Option(200, "--games", help="Random games to play (ignored when --seconds > 0)."),
    seconds: float = typer.Option(0.0, "--seconds", help="Play for this many seconds instead of --games."),
    seed: int = typer.Option(1, "--seed", help="First game seed."),
    samples: int = typer.Option(1000, "--samples", help="Mid-game states for the per-operation timings."),
    search_positions: int = typer.Option(20, "--search-positions", min=0,
                                         help="Mid-game decisions searched for the ISMCTS figure (0: skip)."),
    rl: bool = typer.Option(False, "--rl", help="Instead: PettingZoo env steps/s next to raw engine steps/s "
                            "(needs meloch[rl])."),
) -> None:
    """Games/s, steps/s, decisions per game, and p50/p95 of copy, legal actions (cached and not),
    apply, determinize, view and JSON; with --rl, the RL environment's steps/s instead."""
    if rl:
        _bench_rl(games if games != 200 else 5, seed)
        return
    from meloch.sim import bench as b

    r = b.run(games=games, seconds=seconds, seed=seed, sample_states=samples)
    console = Console(highlight=False, soft_wrap=True)
    console_head = _head()
    t = Table(title=f"meloch bench: {r.games} random games in {r.seconds:.2f} CPU s (one core)",
              caption=console_head)
    t.add_column("figure")
    t.add_column("value", justify="right")
    t.add_column("target", justify="right")

    def ok(good: bool) -> str:
        return "[green]ok[/]" if good else "[red]below[/]"

    t.add_row("games / s", f"{r.games_per_s:,.1f}",
              f">= {b.TARGET_GAMES_PER_S:.0f} {ok(r.games_per_s >= b.TARGET_GAMES_PER_S)}; "
              f"search >= {b.SEARCH_GAMES_PER_S:.0f} {ok(r.games_per_s >= b.SEARCH_GAMES_PER_S)}")
    t.add_row("steps / s", f"{r.steps_per_s:,.0f}",
              f">= {b.TARGET_STEPS_PER_S:,.0f} {ok(r.steps_per_s >= b.TARGET_STEPS_PER_S)}; "
              f"search >= {b.SEARCH_STEPS_PER_S:,.0f} {ok(r.steps_per_s >= b.SEARCH_STEPS_PER_S)}")
    t.add_row("decisions / game (mean)", f"{r.decisions_per_game:,.1f}", "")
    t.add_row("state copy (value semantics)", "0 us", "apply includes it")
    console.print(t)
    o = Table(title="per operation on mid-game states (microseconds)")
    o.add_column("operation")
    o.add_column("p50", justify="right")
    o.add_column("p95", justify="right")
    o.add_column("note")
    for op in r.ops:
        note = op.note
        if op.name.startswith("copy"):
            note = f"target <= {b.TARGET_COPY_US:.0f} us {ok(op.p50_us <= b.TARGET_COPY_US)}; {note}"
        elif op.name in b.OP_TARGETS_US:
            want = b.OP_TARGETS_US[op.name]
            note = f"search target p50 <= {want:.0f} us {ok(op.p50_us <= want)}; {note}".rstrip("; ")
        o.add_row(op.name, f"{op.p50_us:,.1f}", f"{op.p95_us:,.1f}", note)
    console.print(o)
    if search_positions:
        from meloch.sim import bench_search

        sb = bench_search.run(positions=search_positions, seed=seed)
        console.print(f"ISMCTS (medium settings): {sb.per_second:,.0f} iterations / CPU s over {sb.positions} "
                      f"positions (target >= {bench_search.TARGET_ITERATIONS_PER_S:,.0f} "
                      f"{ok(sb.per_second >= bench_search.TARGET_ITERATIONS_PER_S)}); search code: {_agents_build()}")


def _agents_build() -> str:
    """Which build of the agents' evaluation and searches ran (``make fast`` compiles them too)."""
    if agents_native.COMPILED:
        return "compiled (mypyc, make fast)"
    reason = agents_native.stale_reason()
    if reason == "no build manifest":
        return "pure Python"
    return f"pure Python (compiled build not used: {reason or _native.PURE_ENV + ' set'})"


def _head() -> str:
    """Which engine build ran, and the load average."""
    build = "compiled (mypyc, make fast)" if _native.COMPILED else "pure Python"
    if not _native.COMPILED and _native.extension_files():
        build += f" (compiled build not used: {_native.stale_reason() or _native.PURE_ENV + ' set'})"
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return f"engine: {build}; load average {load}; times are CPU time of this process"


def _bench_rl(games: int, seed: int) -> None:
    try:
        from meloch.rl import bench as rb
    except ImportError as e:
        raise typer.BadParameter(f"--rl needs the research extra: pip install 'meloch[rl]' ({e})") from e
    r = rb.run(games=games, seed=seed)
    t = Table(title=f"meloch bench --rl: the same {r.games} random games each way, CPU time (one core)",
              caption=f"{_head()}\nobservation encoder and mask: {r.encoder}")
    t.add_column("loop")
    t.add_column("steps / s", justify="right")
    t.add_row("raw engine (legal_actions + apply)", f"{r.raw_per_s:,.0f}")
    t.add_row("raw engine + view() of the deciding seat", f"{r.view_per_s:,.0f}")
    t.add_row("PettingZoo env (last: obs + mask, step)", f"{r.env_per_s:,.0f}")
    ok = "[green]ok[/]" if r.overhead_median <= rb.TARGET_OVERHEAD else "[red]above target[/]"
    lo, hi = (min(r.per_game), max(r.per_game)) if r.per_game else (r.overhead, r.overhead)
    t.add_row("overhead (1 - env/raw)", f"{r.overhead:.0%}",
              f"median per game {r.overhead_median:.0%} ({lo:.0%}..{hi:.0%}); target <= "
              f"{rb.TARGET_OVERHEAD:.0%} {ok}")
    Console(highlight=False, soft_wrap=True).print(t)


def register(app: typer.Typer) -> None:
    """Add the ``bench`` command to the main app."""
    app.command("bench")(bench)
