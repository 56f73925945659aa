"""``meloch automa-table``: the solo Automa's difficulty table (issue 12): an agent against the Automa
on both sides, levels 1-5 and Threat, win rates with 95% Wilson intervals and the issue's targets.
Resumable: the games go to a JSON-lines file and a rerun plays only the missing ones."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from rich.console import Console

    from meloch.sim.automa_table import Table, TableGame


def automa_table(
    games: int = typer.Option(300, "--games", "-g", min=1, help="Games per cell (side x level)."),
    agent: str = typer.Option("heuristic", "--agent", "-a", help="The agent playing against the Automa."),
    cells: str = typer.Option("1,2,3,4,5,3+threat", "--cells",
                              help="Levels per side, comma-separated; N+threat for the Threat variant."),
    sides: str = typer.Option("scythian,explorer", "--sides", help="The sides the Automa plays."),
    out: Path = typer.Option(Path("automa-table.jsonl"), "--out",
                             help="Games file (JSON lines): appended to, and what is in it is not played again."),
    seed: int = typer.Option(1, "--seed", help="First deal seed (game k of every cell uses seed S+k)."),
    start: int = typer.Option(0, "--from", min=0, help="First game number to play (split the games "
                              "between processes: --games 150, and --from 150 --games 300)."),
    turn_limit: int = typer.Option(300, "--turn-limit", min=2, help="Turns before a game ends without a winner."),
    max_cpu: float = typer.Option(0.0, "--max-cpu", min=0.0,
                                  help="Stop after this many CPU seconds of games (0: no limit); rerun to go on."),
    show_only: bool = typer.Option(False, "--show", help="Only print the table of the games in --out."),
    rules: str = typer.Option("", "--rules", help="Count the games of these rules (see the file: a game's "
                              "BASE.LEVEL, or only BASE for every cell played with it) instead of the "
                              "current content and engine's."),
    restamp_games: bool = typer.Option(False, "--restamp",
                                       help="First give the games recorded with this tree's whole-content "
                                       "fingerprint (the format before per-cell rules) their cell's rules."),
    carry: str = typer.Option("", "--carry-over",
                              help="First carry the games of these earlier shared rules (the part before the "
                              "dot) over to the current engine: --verify games of each of their cells are "
                              "re-played, and only if all end exactly as recorded are the games moved."),
    verify: int = typer.Option(4, "--verify", min=1, help="Games re-played per cell by --carry-over."),
) -> None:
    """Play the missing games (interleaved over the cells), then print the table of every agent in
    the file: win rate of the agent, 95% Wilson interval, n, median turns, CPU per game, targets."""
    from rich.console import Console

    from meloch.agents import make_agent
    from meloch.sim.automa_table import carry_over, load, parse_cells, restamp, run, same_result, table, writable

    console = Console(highlight=False, soft_wrap=True)
    if not console.is_terminal:
        console = Console(highlight=False, soft_wrap=True, width=140)
    try:
        load(out)
        if restamp_games or carry or not show_only:
            writable(out)
    except ValueError as err:
        console.print(f"[red]Error:[/] {err}")
        raise typer.Exit(code=2) from None
    if restamp_games:
        console.print(f"{restamp(out)} games in {out} given their cell's rules.")
    if carry:
        def said(g: TableGame, again: TableGame) -> None:
            console.print(f"  re-played {g.agent} vs automa:{g.level}{'+threat' if g.threat else ''} as {g.side}, "
                          f"game {g.k}: {'as recorded' if same_result(g, again) else 'DIFFERS'}")

        c = carry_over(out, carry, verify, turn_limit, on_game=said)
        if c.differed:
            console.print(f"[red]Not carried over:[/] {len(c.differed)} of {c.replayed} re-played games ended "
                          "otherwise, so the engine change changed the rules; play the table again.")
            for line in c.differed:
                console.print(f"  {line}")
            raise typer.Exit(code=1)
        console.print(f"{c.moved} games carried over from rules {c.old} to {c.new} ({c.replayed} re-played, "
                      "all exactly as recorded)." if c.moved else f"No games of rules {c.old} to carry over "
                      f"(current: {c.new}).")
    if not show_only:
        try:
            make_agent(agent, 0)
            todo = parse_cells(agent, cells, [s.strip() for s in sides.split(",") if s.strip()])
        except ValueError as err:
            console.print(f"[red]Error:[/] {err}")
            raise typer.Exit(code=2) from None
        have = len(load(out))
        console.print(f"{agent} against the Automa: {len(todo)} cells x {games} games into {out} "
                      f"({have} games already there)")
        count = [0]

        def tick(g: object) -> None:
            count[0] += 1
            if count[0] % 25 == 0:
                console.print(f"  {count[0]} games played")

        try:
            played, stopped = run(todo, games, out, first_seed=seed, turn_limit=turn_limit, max_cpu=max_cpu,
                                  on_game=tick, start=start)
        except KeyboardInterrupt:
            played, stopped = count[0], True
        console.print(f"{played} games played" + ("; stopped early, rerun the same command to go on." if stopped
                                                  else "."))
    _show(console, table(load(out), rules or None), out)


def _show(console: Console, t: Table, out: Path) -> None:
    from rich.table import Table as RichTable

    rows = RichTable(title=f"Win rate of the agent against the Automa ({out})")
    for col in ("agent", "Automa as", "level", "n", "win rate [95% CI]", "median turns", "CPU s/game"):
        rows.add_column(col, justify="left" if col in ("agent", "Automa as", "level") else "right")
    for c, r in t.rates.items():
        rows.add_row(c.agent, c.side, c.label, str(r.games),
                     f"{100 * r.rate:.1f}% [{100 * r.low:.1f}, {100 * r.high:.1f}]", f"{r.turns:.0f}",
                     f"{r.cpu_s:.2f}")
    console.print(rows)
    tg = RichTable(title="Targets (issue 12)")
    for col in ("agent", "Automa as", "target", "", "measured"):
        tg.add_column(col)
    for x in t.targets:
        tg.add_row(x.agent, x.side, x.text, "[green]pass[/]" if x.ok else "[red]FAIL[/]", x.detail)
    console.print(tg)
    console.print(f"Rules {t.rules} (engine sources and content data; of the level table, each cell's own level).")
    if t.ignored:
        console.print(f"({t.ignored} games in {out} were played with other content or engine sources: not counted; "
                      "--rules picks them.)")


def register(app: typer.Typer) -> None:
    app.command("automa-table")(automa_table)
