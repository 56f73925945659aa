"""``meloch play``: a game at the terminal, hot-seat or against any registered agent."""

from __future__ import annotations

import io
import secrets
import sys
from pathlib import Path

import typer

PLAY_HELP = (
    "Play Duel of Meloch at the terminal, hot-seat (default) or against an agent (random, aggressive...).\n\n"
    "Each decision shows a compact screen (80x24): a small map, your state, the opponent's public state, "
    "the Triumph Track, the last events and the options with their costs. Answer with an option's key or an "
    "action in notation ('S section 2'); 'explain' says what the decision means, 'rules' and 'card NAME' "
    "explain the game, 'show board|track|log|cards|opponent' give detail, 'help' lists every command. "
    "A decision with a single option is taken for you (it still shows under your next screen).\n\n"
    "Every action is autosaved to the user's data directory ($MELOCH_DATA_DIR, else "
    "$XDG_DATA_HOME/meloch or ~/.local/share/meloch); '--resume' continues that game.\n\n"
    "Undo takes back your own last decision within your turn, never past a random draw or a reveal.\n\n"
    "In hot-seat play the screen is cleared and the device passed whenever the deciding seat changes, "
    "so a seat's secrets are shown only to that seat.\n\n"
    "Examples: 'meloch play' (hot-seat), 'meloch play --vs random' (you are S against the random agent), "
    "'meloch play --vs random --seat E --map desert'."
)


AGENT_NAMES = ("random", "heuristic", "aggressive", "ismcts:easy", "ismcts:medium", "ismcts:hard", "search:medium",
               "search:hard")
"""The registered agents, written out so that the help needs no agent import at start-up; a test checks
it against ``meloch.agents.agent_names()``."""
AUTOMA_LEVELS = tuple(f"automa:{n}" for n in range(1, 6))


def _choice(name: str, value: str, allowed: list[str]) -> str:
    if value not in allowed:
        raise typer.BadParameter(f"unknown {value!r}; choose one of: {', '.join(sorted(allowed))}",
                                 param_hint=name)
    return value


def play(
    vs: str | None = typer.Option(
        None, "--vs", help="Opponent: 'human' (hot-seat, both seats at this terminal; the default); "
        f"an agent that plays the other seat: {', '.join(AGENT_NAMES)}; or the solo Automa at a level: "
        f"{', '.join(AUTOMA_LEVELS)} (add +threat, or --threat, for its Threat variant)."),
    seat: str | None = typer.Option(
        None, "--seat", help="With --vs AGENT: your seat, S (Scythe, the default) or E (Expeditions). "
        "E moves first."),
    map_side: str | None = typer.Option(None, "--map", help="Map side: jungle (default) or desert."),
    track: str | None = typer.Option(None, "--track", help="Triumph Track side: A (default) or B."),
    seed: int | None = typer.Option(None, "--seed", help="Game seed (default: random; shown when the game ends)."),
    faction: str | None = typer.Option(None, "--faction", help="Scythe faction id (default constantinople)."),
    mat: str | None = typer.Option(None, "--mat", help="Scythe player mat id (default adventurous)."),
    mech: str | None = typer.Option(None, "--mech", help="Expeditions mech id (default voyager)."),
    turn_limit: int | None = typer.Option(None, "--turn-limit", help="Turns (both seats) before a draw (300)."),
    load: Path | None = typer.Option(
        None, "--load", help="Resume a game saved with the in-game 'save FILE' command (replays it exactly)."),
    resume_last: bool = typer.Option(
        False, "--resume", help="Continue the autosaved game (the last one left unfinished)."),
    no_autosave: bool = typer.Option(False, "--no-autosave", help="Do not autosave after every action."),
    no_pass_prompt: bool = typer.Option(
        False, "--no-pass-prompt", help="Hot-seat: do not ask to pass the device when the seat changes."),
    threat: bool = typer.Option(False, "--threat", help="With --vs automa:N: the Automa's Threat variant."),
) -> None:
    """Play Duel of Meloch at the terminal (see PLAY_HELP)."""
    from rich.console import Console

    from meloch.cli.play import SaveError, load_game, opponents, resume, run_game
    from meloch.cli.saves import autosave_path
    from meloch.content import load as load_content
    from meloch.engine import SeatSetup, Setup, SetupError, new_game

    console = Console()
    if isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(errors="replace")  # bytes that are not UTF-8 become a refused line, not a crash
    echo = not sys.stdin.isatty()
    from meloch.agents import automa_option, with_engine_seats
    try:
        solo = automa_option(vs or "")
    except ValueError as err:
        raise typer.BadParameter(str(err), param_hint="--vs") from None
    if threat and solo is None:
        raise typer.BadParameter("--threat needs --vs automa:N", param_hint="--threat")
    if solo is not None and threat and not (vs or "").endswith("+threat"):
        vs = f"{vs}+threat"
    if vs is not None and solo is None and vs not in opponents():
        raise typer.BadParameter(f"unknown {vs!r}; choose one of: {', '.join(opponents())}", param_hint="--vs")
    if seat is not None and seat.upper() not in ("S", "E"):
        raise typer.BadParameter(f"unknown {seat!r}; choose S or E", param_hint="--seat")
    if seat is not None and (vs is None or vs == "human") and load is None and not resume_last:
        raise typer.BadParameter("--seat needs --vs AGENT (in hot-seat play both seats are at this terminal)",
                                 param_hint="--seat")
    if resume_last and load is not None:
        raise typer.BadParameter("give either --resume or --load FILE", param_hint="--resume")
    human_seat = None if seat is None else ("S", "E").index(seat.upper())
    auto = None if no_autosave else autosave_path()
    if resume_last:
        if auto is None or not auto.exists():
            console.print(f"Error: no autosaved game to resume ({autosave_path()} does not exist).", style="red",
                          markup=False)
            raise typer.Exit(code=1)
        load = auto
    if load is not None:
        given = [n for n, v in (("--map", map_side), ("--track", track), ("--seed", seed), ("--faction", faction),
                                ("--mat", mat), ("--mech", mech), ("--turn-limit", turn_limit)) if v is not None]
        if given:
            raise typer.BadParameter(f"the saved game fixes the setup; drop {', '.join(given)}", param_hint="--load")
        try:
            saved = load_game(load, opponents)
            session = resume(saved, vs=vs or saved.vs or "human",
                             human_seat=human_seat if human_seat is not None else saved.human_seat or 0)
        except SaveError as err:
            console.print(f"Error: {err}", style="red", markup=False)
            raise typer.Exit(code=1) from None
        console.print(f"Resumed {load}: {len(session.actions)} actions replayed.", markup=False)
        result = run_game(session=session, console=console, pass_prompt=not no_pass_prompt, echo=echo, autosave=auto,
                          height=console.height)
    else:
        c = load_content()
        setup = Setup(
            map_side=_choice("--map", map_side or "jungle", list(c.maps)),
            track_side=_choice("--track", track or "A", list(c.tracks)),
            seats=(SeatSetup(role="scythe", faction=_choice("--faction", faction or "constantinople", list(c.factions)),
                             mat=_choice("--mat", mat or "adventurous", list(c.mats))),
                   SeatSetup(role="expeditions", mech=_choice("--mech", mech or "voyager", list(c.mechs)))),
            turn_limit=turn_limit if turn_limit is not None else 300,
        )
        if solo is not None and vs is not None:
            setup = with_engine_seats(setup, [vs if i != (human_seat or 0) else "human" for i in (0, 1)])
        if seed is None:
            seed = secrets.randbelow(1_000_000)
        try:
            new_game(setup, seed)
        except SetupError as err:
            console.print(f"Error: {err}", style="red", markup=False)
            raise typer.Exit(code=2) from None
        # The seed decides every shuffle, so it is shown only at the end of the game (and kept in saves).
        console.print("New game.", markup=False)
        result = run_game(setup, seed, vs=vs or "human", human_seat=human_seat or 0, console=console,
                          pass_prompt=not no_pass_prompt, echo=echo, autosave=auto, height=console.height)
    if result.quit and result.actions and result.saved_actions != len(result.actions):
        console.print("Tip: 'save FILE' before 'quit' keeps the game for 'python -m meloch.cli.main play --load FILE'.",
                      style="dim")


def register(app: typer.Typer) -> None:
    """Add ``meloch play`` to the main app."""
    app.command("play", help=PLAY_HELP)(play)
