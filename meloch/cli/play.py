"""The terminal game loop behind ``meloch play``: hot-seat, or a human against the random agent.

The loop only talks to the engine's public protocol: it shows ``view(state, deciding_seat)``, numbers
``legal_actions(state)``, and hands the chosen action to ``apply``. It is testable: ``run_game`` takes
an ``input_fn`` (called with a prompt string, returns a line, raises ``EOFError`` at the end of
input) and a rich ``Console`` to print to.

Undo rule (``undo_refusal``): the last action may be taken back only if

- it was made by the seat now deciding (your own decision, not the opponent's or the agent's),
- the same seat was deciding before and after it, and it was the same turn (no hand-over),
- the RNG state is unchanged (no shuffle, no random draw),
- every deck and supply has the same size (nothing drawn), the face-down map tokens and the
  combat's ``revealed`` flag are unchanged, no private fact was learnt (``known``), and none of its
  events was private (nothing secret was shown to anyone).

So undo never goes back past a reveal of hidden information or a random draw, and never into the
other seat's turn.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
from rich.console import Console
from rich.panel import Panel
from rich.rule import Rule

from meloch.agents import RandomAgent
from meloch.cli import render
from meloch.engine import (
    Action,
    IllegalAction,
    Setup,
    State,
    apply,
    decision,
    events_for,
    legal_actions,
    new_game,
    outcome,
    parse,
    view,
)

InputFn = Callable[[str], str]

HELP = """\
Commands:
  <number>    choose that option from the numbered list
  <action>    an action in notation, e.g. 'S section 2'
              (the seat tag may be left out: 'section 2')
  undo        take back your last decision: only within your own turn,
              never past a random draw or a reveal of hidden information
  save FILE   save the game (setup, seed, actions) as JSON;
              resume it with 'meloch play --load FILE'
  show        show the board again
  help        this list
  quit        leave the game (anything not saved is lost)"""

MAX_EVENT_LINES = 30
_TAG_LIKE = re.compile(r"^[SE][12]?$")


@dataclass
class Session:
    """A game in progress: its setup, seed, and every state after every accepted action."""

    setup: Setup
    seed: int
    vs: str = "human"
    """"human" (hot-seat: both seats at this terminal) or "random" (the other seat is the random agent)."""
    human_seat: int = 0
    """The human's seat when ``vs == "random"``."""
    states: list[State] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    quit: bool = False
    saved_actions: int = -1
    """How many actions the last save held (-1: never saved in this session)."""

    def __post_init__(self) -> None:
        if not self.states:
            self.states = [new_game(self.setup, self.seed)]

    @property
    def state(self) -> State:
        return self.states[-1]

    def push(self, action: Action | str) -> State:
        """Apply ``action`` (raises ``IllegalAction``) and record it."""
        s = apply(self.state, action)
        self.states.append(s)
        self.actions.append(str(action) if isinstance(action, Action) else str(parse(action)))
        return s

    def is_human(self, seat: int) -> bool:
        return self.vs == "human" or seat == self.human_seat

    def events_since_last_decision(self, seat: int) -> list[str]:
        """Event texts (as ``seat`` may read them) since ``seat`` last decided, its own results included."""
        start = 0
        for j in range(len(self.actions) - 1, -1, -1):
            if parse(self.actions[j]).seat == seat:
                start = j + 1
                break
        out: list[str] = []
        for s in self.states[start:]:
            out.extend(events_for(s.events, seat))
        if len(out) > MAX_EVENT_LINES:
            out = [f"... ({len(out) - MAX_EVENT_LINES} earlier events)", *out[-MAX_EVENT_LINES:]]
        return out

    def to_save(self) -> dict[str, Any]:
        return {"setup": msgspec.to_builtins(self.setup), "seed": self.seed, "actions": list(self.actions),
                "vs": self.vs, "human_seat": self.human_seat}


# ---------------------------------------------------------------- undo, save, load


def _deck_sizes(s: State) -> tuple[int, ...]:
    return (len(s.discovery_deck), len(s.discovery_discard), len(s.combat_deck), len(s.combat_discard),
            len(s.encounter_deck), len(s.factory_cards), len(s.meloch_deck), len(s.map_token_supply))


def undo_refusal(before: State, after: State, action: Action, seat: int) -> str | None:
    """Why ``action`` (taking ``before`` to ``after``) may not be undone by ``seat``; None if it may.

    See the module docstring for the rule.
    """
    d0, d1 = decision(before), decision(after)
    if action.seat != seat:
        return "the last action was your opponent's, not yours."
    if d0 is None or d1 is None or d0.seat != seat or d1.seat != seat or before.turn != after.turn:
        return "it ended your part of the turn."
    if before.rng != after.rng:
        return "it used a random draw or shuffle."
    if _deck_sizes(before) != _deck_sizes(after):
        return "it drew or revealed cards."
    if before.map_tokens != after.map_tokens:
        return "it revealed a map token."
    if (before.combat is not None and before.combat.revealed) != (after.combat is not None and after.combat.revealed):
        return "it revealed the combat."
    if before.known != after.known or any(e.private_to >= 0 for e in after.events):
        return "it made a secret choice or showed hidden information (undo never goes back past one)."
    return None


class SaveError(ValueError):
    """A save file that cannot be read or replayed."""


@dataclass
class SavedGame:
    setup: Setup
    seed: int
    actions: list[str]
    vs: str | None = None
    human_seat: int | None = None


def save_game(path: str | Path, session: Session) -> None:
    Path(path).write_text(json.dumps(session.to_save(), indent=1) + "\n", encoding="utf-8")


def load_game(path: str | Path) -> SavedGame:
    """Read a save file; raises ``SaveError`` with a readable message."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as err:
        raise SaveError(f"cannot read {path}: {err.strerror or err}") from None
    except json.JSONDecodeError as err:
        raise SaveError(f"{path} is not JSON: {err}") from None
    if not isinstance(data, dict) or not {"setup", "seed", "actions"} <= data.keys():
        raise SaveError(f"{path} is not a meloch save: it needs the keys setup, seed and actions")
    try:
        setup = msgspec.convert(data["setup"], Setup)
    except msgspec.ValidationError as err:
        raise SaveError(f"{path}: bad setup: {err}") from None
    seed, actions = data["seed"], data["actions"]
    if not isinstance(seed, int) or not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise SaveError(f"{path}: seed must be an integer and actions a list of strings")
    vs = data.get("vs") if data.get("vs") in ("human", "random") else None
    hs = data.get("human_seat") if data.get("human_seat") in (0, 1) else None
    return SavedGame(setup, seed, actions, vs, hs)


def resume(saved: SavedGame, vs: str = "human", human_seat: int = 0) -> Session:
    """Replay a saved game into a session (every intermediate state kept, so undo still works)."""
    session = Session(saved.setup, saved.seed, vs=vs, human_seat=human_seat)
    for i, a in enumerate(saved.actions):
        try:
            session.push(a)
        except IllegalAction as err:
            raise SaveError(f"action {i + 1} ({a!r}) does not replay: {err.message}") from None
    return session


# ---------------------------------------------------------------- the loop


def _read(input_fn: InputFn, console: Console, prompt: str, echo: bool = False) -> str:
    """Print ``prompt`` on the console and read a line (``EOFError`` propagates).

    ``echo`` prints the line read (for input that is not typed at a terminal, so transcripts read well).
    """
    console.print(prompt, end="", markup=False, highlight=False)
    console.file.flush()
    line = input_fn("")
    if echo:
        console.print(line, markup=False, highlight=False)
    return line


def _tag(session: Session, seat: int) -> str:
    return str(view(session.state, None)["tags"][seat])


def _who(session: Session, seat: int) -> str:
    return f"{_tag(session, seat)} ({session.setup.seats[seat].role.capitalize()})"


def intro(session: Session) -> str:
    """What a new player reads before the first screen: who is who, the goal, how to answer."""
    roles = ", ".join(f"{_tag(session, i)} plays {session.setup.seats[i].role.capitalize()}"
                      for i in range(len(session.setup.seats)))
    first = decision(session.state)
    text = (f"Duel of Meloch: {roles}. The first to place {session.setup.seats[0].stars_to_win} stars on the "
            "Triumph Track wins at once.")
    if first is not None and session.actions:
        # no seed here: both seats read this screen, and the seed with the actions reveals every
        # deck order and face-down token (it is shown when the game ends)
        text += (f"\nThis game resumes at turn {session.state.turn} after {len(session.actions)} actions; "
                 f"{_tag(session, first.seat)} decides next.")
    elif first is not None:
        text += f" {_tag(session, first.seat)} moves first."
    if session.vs == "human":
        text += ("\nHot-seat: whenever the other seat must decide, the screen is cleared and you are asked to pass "
                 "the device, so each seat sees only its own cards and Power Dial.")
    else:
        text += f"\nYou play {_who(session, session.human_seat)}; the random agent plays the other seat."
    return text + ("\nAt each prompt type the number of an option (or an action in notation); 'help' lists the "
                   "commands: undo, save FILE, show, quit.")


def _pass_device(session: Session, seat: int, input_fn: InputFn, console: Console, echo: bool,
                 first: bool = False) -> None:
    if console.is_terminal:
        console.clear()
        console.file.write("\x1b[3J")  # and the scrollback, where the other seat's screen still is
        console.file.flush()
    else:
        console.print(Rule(style="dim"))
        console.print("\n" * 3, end="")
    if first:
        console.print(intro(session), markup=False, highlight=False)
        console.print()
    _read(input_fn, console, f"Pass the device to {_who(session, seat)}; press Enter when ready. ", echo)


def _show(session: Session, seat: int, legal: Sequence[Action], console: Console) -> None:
    v = view(session.state, seat)
    console.print(render.render_screen(v, legal, session.events_since_last_decision(seat)))


def _hint(n_options: int) -> str:
    numbers = "1" if n_options == 1 else f"a number from 1 to {n_options}"
    return f"Type {numbers}, or 'help' for the commands."


def _resolve_line(line: str, seat_tag: str, n_options: int) -> tuple[str, int | str]:
    """Classify an input line: ("command", name) / ("number", i) / ("action", text) / ("bad", message)."""
    text = line.strip()
    low = text.lower()
    words = text.split()
    if low in ("help", "?", "h"):
        return "command", "help"
    if low in ("quit", "exit", "q"):
        return "command", "quit"
    if low in ("undo", "u"):
        return "command", "undo"
    if low in ("show", "board", "redraw"):
        return "command", "show"
    if words and words[0].lower() == "save":
        return "command", "save"
    if re.fullmatch(r"[+-]?\d+", text):
        i = int(text)
        if not 1 <= i <= n_options:
            return "bad", f"There is no option {i}."
        return "number", i - 1
    if _TAG_LIKE.match(words[0].upper()):
        words[0] = words[0].upper()
    else:
        words.insert(0, seat_tag)
    return "action", " ".join(words)


def run_game(
    setup: Setup | None = None,
    seed: int = 1,
    *,
    actions: Sequence[str] = (),
    vs: str = "human",
    human_seat: int = 0,
    input_fn: InputFn = input,
    console: Console | None = None,
    pass_prompt: bool = True,
    session: Session | None = None,
    echo: bool = False,
) -> Session:
    """Play a game at the terminal until it ends, the player quits, or the input ends.

    ``vs`` is "human" (hot-seat) or "random" (the random agent plays every seat but ``human_seat``).
    ``actions`` are replayed first (as from a save file). ``pass_prompt`` (hot-seat only) asks for
    Enter whenever the deciding seat changes, before any of that seat's private state is shown.
    ``echo`` prints each line read (useful when input is piped or scripted).
    Returns the session (its ``state``, ``actions``, and ``quit`` if the player left early).
    """
    console = console or Console()
    if session is None:
        session = resume(SavedGame(setup or Setup(), seed, list(actions)), vs=vs, human_seat=human_seat)
    agent = RandomAgent(session.seed * 1_000_003 + len(session.actions) + 1)
    prompted: int | None = None
    """The seat whose information is on screen (None: nobody's yet)."""
    redraw = True
    notice = ""
    """A line to show under the next screen, just above the prompt (what was chosen or undone)."""
    if session.vs != "human" or not pass_prompt:
        console.print(intro(session), markup=False, highlight=False)
    try:
        while True:
            state = session.state
            d = decision(state)
            if d is None:
                break
            if not session.is_human(d.seat):
                legal = legal_actions(state)
                session.push(agent.choose(view(state, d.seat), legal))
                notice = ""  # the human's last choice is old news once the agent has played
                continue
            if d.seat != prompted:
                notice = ""  # never show one seat's last choice to the other
                if session.vs == "human" and pass_prompt:
                    _pass_device(session, d.seat, input_fn, console, echo, first=prompted is None)
                redraw = True
            prompted = d.seat
            legal = render.order_options(legal_actions(state))
            if redraw:
                _show(session, d.seat, legal, console)
                if notice:
                    console.print(notice, style="green", markup=False, highlight=False)
                redraw, notice = False, ""
            tag = _tag(session, d.seat)
            line = _read(input_fn, console, f"{tag}> ", echo)
            kind, value = _resolve_line(line, tag, len(legal)) if line.strip() else ("empty", 0)
            if kind == "empty":
                continue
            if kind == "bad":
                console.print(f"{value} {_hint(len(legal))}", style="red", markup=False)
                continue
            if kind == "command":
                if value == "help":
                    console.print(HELP, markup=False, highlight=False)
                elif value == "quit":
                    console.print("You left the game.", markup=False)
                    session.quit = True
                    return session
                elif value == "show":
                    redraw = True
                elif value == "undo":
                    notice = _undo(session, d.seat, console)
                    redraw = bool(notice)
                elif value == "save":
                    _save(session, line, console)
                continue
            try:
                action = legal[int(value)] if kind == "number" else parse(str(value))
                session.push(action)
            except IllegalAction as err:
                console.print(f"{err.message} {_hint(len(legal))}", style="red", markup=False, highlight=False)
                continue
            notice = f"Done ({action}): {render.label(action, view(state, d.seat))}."
            redraw = True
    except (EOFError, KeyboardInterrupt):
        console.print("\nInput ended: leaving the game.", markup=False)
        session.quit = True
        return session
    _game_over(session, console)
    return session


def _undo(session: Session, seat: int, console: Console) -> str:
    """Take back the last action if ``undo_refusal`` allows it; the notice to show, or "" if refused."""
    if not session.actions:
        console.print("Nothing to undo.", style="red")
        return ""
    before, after = session.states[-2], session.states[-1]
    last = parse(session.actions[-1])
    reason = undo_refusal(before, after, last, seat)
    if reason is not None:
        console.print(f"Cannot undo '{last}': {reason}", style="red", markup=False)
        return ""
    session.states.pop()
    session.actions.pop()
    return f"Undone: {last} ({render.label(last, view(before, seat))})."


def _save(session: Session, line: str, console: Console) -> None:
    parts = line.strip().split(maxsplit=1)
    if len(parts) < 2:
        console.print("Usage: save FILE", style="red")
        return
    try:
        save_game(parts[1], session)
        session.saved_actions = len(session.actions)
    except OSError as err:
        console.print(f"Cannot save to {parts[1]}: {err.strerror or err}", style="red", markup=False)
        return
    console.print(f"Saved {len(session.actions)} actions to {parts[1]}; resume with: meloch play --load {parts[1]}",
                  markup=False, highlight=False)


def _game_over(session: Session, console: Console) -> None:
    """The end-of-game screen: the final position as everyone may see it, then the result."""
    s = session.state
    seat = session.human_seat if session.vs == "random" else None
    v = view(s, seat)
    if session.vs == "human" and console.is_terminal:
        console.clear()  # the last seat's private panel is still on screen
        console.file.write("\x1b[3J")
        console.file.flush()
    console.print(Rule("Game over"))
    console.print(render.render_header(v))
    console.print(render.render_track(v))
    console.print(render.render_seats(v))
    console.print(render.render_board(v))
    lines = events_for(s.events, None) if seat is None else session.events_since_last_decision(seat)
    console.print(render.render_events(lines, "Last events"))
    o = outcome(s)
    if o is None:
        return
    stars = ", ".join(f"{_tag(session, i)} {v['stars'][i]}" for i in range(len(v["stars"])))
    if o.winner is None:
        text = f"No winner: {o.reason} (after {s.turn} turns; stars {stars})."
    else:
        text = f"{_who(session, o.winner)} wins: {o.reason} (after {s.turn} turns; stars {stars})."
    console.print(Panel(text, title="Result", title_align="left", border_style="bold", expand=False))
    console.print(f"Seed {session.seed}, {len(session.actions)} actions. Play again with: meloch play", style="dim",
                  markup=False, highlight=False)
