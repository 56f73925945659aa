"""The terminal game behind ``meloch play``: hot-seat, or a human against any registered agent.

The game runs on the one runner (``meloch.sim.runner.play_game``): each human seat is a
``TerminalAgent`` that shows ``view(state, seat)`` and the engine's described ``options(state)``
and reads a line; it answers with an action or a runner ``Control`` (undo, quit). A forced
decision (one option) is taken without asking. Undo is the engine's question
(``undo_refusal``): a seat takes back its own steps, never past a random draw, a reveal of hidden
information or the opponent's action. Nothing here reads a ``State`` field: states are opaque
values handed back to the engine's protocol.

``run_game`` is testable: it takes an ``input_fn`` (called with a prompt string, returns a line,
raises ``EOFError`` at the end of input) and a rich ``Console`` to print to.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from meloch.agents import Agent, Sampler, agent_names, agent_seed, make_agent, wants_sampler
from meloch.cli import render
from meloch.engine import (
    Action,
    IllegalAction,
    Option,
    Setup,
    State,
    apply,
    decision,
    legal_actions,
    options,
    outcome,
    parse,
    view,
)
from meloch.sim.runner import Control, GameRecord, History, Hooks, play_game, view_field

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
  hint        the hard search agent's top 3 options, with their share of its
              visits and a one-line reason (it sees only what you see)
  help        this list
  quit        leave the game (anything not saved is lost)"""

MAX_EVENT_LINES = 30
_TAG_LIKE = re.compile(r"^[SE][12]?$")


def opponents() -> list[str]:
    """What ``--vs`` accepts: ``human`` (hot-seat) or any registered agent."""
    return ["human", *agent_names()]


@dataclass
class Session(History):
    """A terminal game in progress: the runner's history plus who plays which seat."""

    vs: str = "human"
    """"human" (hot-seat: both seats at this terminal) or an agent name (it plays the other seat)."""
    human_seat: int = 0
    """The human's seat when ``vs`` is an agent."""
    quit: bool = False
    saved_actions: int = -1
    """How many actions the last save held (-1: never saved in this session)."""

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
            out.extend(str(x) for x in view_field(view(s, seat), "events"))
        if len(out) > MAX_EVENT_LINES:
            out = [f"... ({len(out) - MAX_EVENT_LINES} earlier events)", *out[-MAX_EVENT_LINES:]]
        return out

    def to_save(self) -> dict[str, Any]:
        return {"setup": msgspec.to_builtins(self.setup), "seed": self.seed, "actions": list(self.actions),
                "vs": self.vs, "human_seat": self.human_seat}


def label_of(state: State, action: str) -> str:
    """The engine's label of ``action`` at ``state`` (the notation if it is not an option there)."""
    return next((o.label for o in options(state) if o.action == action), action)


# ---------------------------------------------------------------- save, load


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
    vs = data.get("vs") if data.get("vs") in opponents() else None
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


# ---------------------------------------------------------------- the screen


def order_options(opts: Sequence[Option]) -> list[Option]:
    """The options in the order the terminal numbers them: the decision's own options first, in the
    engine's order, then the free actions (discarding combat cards, abilities), so '1' never discards."""
    return [o for o in opts if not o.free] + [o for o in opts if o.free]


def render_options(opts: Sequence[Option]) -> Table:
    """The numbered options with the engine's labels and their notation; free actions under their own heading."""
    t = Table(show_header=True, header_style="bold", pad_edge=False, box=None)
    t.add_column("#", justify="right", style="bold cyan")
    t.add_column("option", overflow="fold")
    t.add_column("notation", style="dim", no_wrap=True)
    free_shown = False
    for i, o in enumerate(opts):
        if o.free and not free_shown:
            if i > 0:
                t.add_row("", Text("free actions, at any pause of your turn:", style="dim italic"), "")
            free_shown = True
        t.add_row(str(i + 1), o.label, o.action)
    return t


def render_screen(v: Any, opts: Sequence[Option], events: Sequence[str]) -> Group:
    """Everything shown before a prompt, from the deciding seat's view: the header, the Triumph Track and
    Meloch row, both seats, the board, the private panel, a combat, what happened, and the options."""
    parts: list[RenderableType] = [
        render.render_header(v),
        Columns([render.render_track(v), render.render_meloch(v)], padding=(0, 3)),
        render.render_seats(v),
        render.render_board(v),
    ]
    private = render.render_private(v)
    if private is not None:
        parts.append(private)
    combat = render.render_combat(v)
    if combat is not None:
        parts.append(combat)
    parts.append(render.render_events(events))
    d = view_field(v, "decision")
    if d is not None:
        seat, prompt = (d["seat"], d["prompt"]) if isinstance(d, dict) else (d.seat, d.prompt)
        parts.append(Text(f"{view_field(v, 'tags')[seat]} to decide: {prompt}", style=render.SEAT_STYLES[seat]))
        parts.append(render_options(opts))
        numbers = "1" if len(opts) == 1 else f"a number from 1 to {len(opts)}"
        parts.append(Text(f"Type {numbers}, an action in notation, or a command (help, undo, save FILE, show, quit).",
                          style="dim"))
    return Group(*parts)


def _tag(session: Session, seat: int) -> str:
    return str(view_field(view(session.state, None), "tags")[seat])


def _who(session: Session, seat: int) -> str:
    return f"{_tag(session, seat)} ({session.setup.seats[seat].role.capitalize()})"


def intro(session: Session, start: int | None = None) -> str:
    """What a new player reads before the first screen: who is who, the goal, how to answer.

    ``start``: how many actions the session held when this sitting began (default: all of them)."""
    start = len(session.actions) if start is None else start
    roles = ", ".join(f"{_tag(session, i)} plays {session.setup.seats[i].role.capitalize()}"
                      for i in range(len(session.setup.seats)))
    first = decision(session.states[start])
    text = (f"Duel of Meloch: {roles}. The first to place {session.setup.seats[0].stars_to_win} stars on the "
            "Triumph Track wins at once.")
    if first is not None and start:
        # no seed here: both seats read this screen, and the seed with the actions reveals every
        # deck order and face-down token (it is shown when the game ends)
        turn = view_field(view(session.states[start], None), "turn")
        text += (f"\nThis game resumes at turn {turn} after {start} actions; "
                 f"{_tag(session, first.seat)} decides next.")
    elif first is not None:
        text += f" {_tag(session, first.seat)} moves first."
    if session.vs == "human":
        text += ("\nHot-seat: whenever the other seat must decide, the screen is cleared and you are asked to pass "
                 "the device, so each seat sees only its own cards and Power Dial.")
    else:
        text += f"\nYou play {_who(session, session.human_seat)}; the {session.vs} agent plays the other seat."
    return text + ("\nAt each prompt type the number of an option (or an action in notation); 'help' lists the "
                   "commands: undo, save FILE, show, quit. A decision with a single option is taken for you.")


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
    if low in ("hint", "hints"):
        return "command", "hint"
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


# ---------------------------------------------------------------- the human at the terminal


class TerminalAgent(Hooks):
    """Every human seat of the session: shows the deciding seat's screen and reads its answer.

    It is also the runner's hooks, so that it learns of the other seat's moves and of undos.
    """

    name = "human"
    uses_view = True

    def __init__(self, session: Session, console: Console, input_fn: InputFn, pass_prompt: bool, echo: bool) -> None:
        self.session, self.console, self.input_fn = session, console, input_fn
        self.pass_prompt, self.echo = pass_prompt, echo
        self.start = len(session.actions)
        """Actions already played when this sitting began (the intro speaks of that point)."""
        self.prompted: int | None = None
        """The seat whose information is on screen (None: nobody's yet)."""
        self.redraw = True
        self.notice = ""
        """A line to show under the next screen, just above the prompt (what was chosen or undone)."""
        self.forced: dict[int, list[str]] = {}
        self.hint_level = "hard"
        """The search level behind ``hint`` (tests use a cheaper one)."""
        """Per seat: the forced steps taken for it since its screen was last drawn (shown only to it)."""

    # -- runner hooks

    def on_step(self, before: State, action: Action, after: State) -> None:
        if not self.session.is_human(action.seat):
            self.notice = ""  # the human's last choice is old news once the agent has played

    def on_undo(self, seat: int, undone: Sequence[tuple[State, str]], refusal: str | None, blocked: str = "") -> None:
        if refusal is not None:
            if not self.session.actions:
                self.console.print("Nothing to undo.", style="red")
            else:
                self.console.print(f"Cannot undo '{blocked or self.session.actions[-1]}': {refusal}", style="red",
                                   markup=False)
            return
        self.forced.pop(seat, None)
        self.notice = "Undone: " + "; ".join(f"{a} ({label_of(s, a)})" for s, a in undone) + "."
        self.redraw = True

    # -- the agent

    def _read(self, prompt: str) -> str:
        """Print ``prompt`` and read a line (``EOFError`` propagates); ``echo`` prints the line read."""
        self.console.print(prompt, end="", markup=False, highlight=False)
        self.console.file.flush()
        line = self.input_fn("")
        if self.echo:
            self.console.print(line, markup=False, highlight=False)
        return line

    def _pass_device(self, seat: int, first: bool) -> None:
        console = self.console
        if console.is_terminal:
            console.clear()
            console.file.write("\x1b[3J")  # and the scrollback, where the other seat's screen still is
            console.file.flush()
        else:
            console.print(Rule(style="dim"))
            console.print("\n" * 3, end="")
        if first:
            console.print(intro(self.session, self.start), markup=False, highlight=False)
            console.print()
        self._read(f"Pass the device to {_who(self.session, seat)}; press Enter when ready. ")

    def choose(self, v: Any, legal: list[Action]) -> Action | Control:
        session, console = self.session, self.console
        state = session.state
        d = decision(state)
        assert d is not None
        if d.forced:
            # Nothing to decide: taken at once; the seat reads it under its next screen.
            a = legal[0]
            self.forced.setdefault(d.seat, []).append(f"Forced ({a}): {label_of(state, str(a))}.")
            return a
        if d.seat != self.prompted:
            self.notice = ""  # never show one seat's last choice to the other
            if session.vs == "human" and self.pass_prompt:
                self._pass_device(d.seat, first=self.prompted is None)
            self.redraw = True
        self.prompted = d.seat
        opts = order_options(options(state))
        tag = _tag(session, d.seat)
        while True:
            if self.redraw:
                console.print(render_screen(v, opts, session.events_since_last_decision(d.seat)))
                for line in (self.notice, *self.forced.pop(d.seat, [])):
                    if line:
                        console.print(line, style="green", markup=False, highlight=False)
                self.redraw, self.notice = False, ""
            line = self._read(f"{tag}> ")
            kind, value = _resolve_line(line, tag, len(opts)) if line.strip() else ("empty", 0)
            if kind == "empty":
                continue
            if kind == "bad":
                console.print(f"{value} {_hint(len(opts))}", style="red", markup=False)
                continue
            if kind == "command":
                if value == "help":
                    console.print(HELP, markup=False, highlight=False)
                elif value == "quit":
                    console.print("You left the game.", markup=False)
                    return Control("quit")
                elif value == "show":
                    self.redraw = True
                elif value == "undo":
                    return Control("undo")
                elif value == "save":
                    self._save(line)
                elif value == "hint":
                    self._hint(state, d.seat)
                continue
            try:
                action = parse(opts[int(value)].action) if kind == "number" else parse(str(value))
                apply(state, action)  # the engine's refusal, with its reason, for a typed action
            except IllegalAction as err:
                console.print(f"{err.message} {_hint(len(opts))}", style="red", markup=False, highlight=False)
                continue
            self.notice = f"Done ({action}): {label_of(state, str(action))}."
            self.redraw = True
            return action

    def _hint(self, state: State, seat: int) -> None:
        """The hard agent's top options for this seat, searched from the seat's information only."""
        from meloch.agents import Sampler
        from meloch.agents.ismcts import hint

        with self.console.status("thinking…"):
            hints = hint(Sampler(state, seat), legal_actions(state), seed=len(self.session.actions),
                         level=self.hint_level)
        for i, h in enumerate(hints, 1):
            self.console.print(f"hint {i}: {h.action} ({label_of(state, h.action)}), {100 * h.share:.0f}% of visits: "
                               f"{h.reason}", markup=False, highlight=False, soft_wrap=True)

    def _save(self, line: str) -> None:
        parts = line.strip().split(maxsplit=1)
        if len(parts) < 2:
            self.console.print("Usage: save FILE", style="red")
            return
        try:
            save_game(parts[1], self.session)
            self.session.saved_actions = len(self.session.actions)
        except OSError as err:
            self.console.print(f"Cannot save to {parts[1]}: {err.strerror or err}", style="red", markup=False)
            return
        self.console.print(f"Saved {len(self.session.actions)} actions to {parts[1]}; resume with: "
                           f"meloch play --load {parts[1]}", markup=False, highlight=False)


# ---------------------------------------------------------------- the loop


class Thinking:
    """An agent run off the main thread while the screen shows "thinking…" (search agents take up to
    seconds a move); the main thread stays free to draw and to take Ctrl-C."""

    def __init__(self, agent: Agent, console: Console) -> None:
        self.agent, self.console = agent, console
        self.name, self.uses_view = agent.name, agent.uses_view
        self.uses_sampler = wants_sampler(agent)

    def _run(self, fn: Callable[[], Any]) -> Any:
        import concurrent.futures

        with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
            future = pool.submit(fn)
            with self.console.status(f"{self.name} is thinking…"):
                return future.result()

    def choose(self, v: Any, legal: list[Action]) -> Any:
        return self._run(lambda: self.agent.choose(v, legal))

    def choose_from(self, v: Any, legal: list[Action], sampler: Sampler) -> Any:
        if len(legal) == 1:
            return legal[0]
        return self._run(lambda: self.agent.choose_from(v, legal, sampler))  # type: ignore[attr-defined]



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
    hint_level: str = "hard",
) -> Session:
    """Play a game at the terminal until it ends, the player quits, or the input ends.

    ``vs`` is "human" (hot-seat) or an agent name (that agent plays every seat but ``human_seat``).
    ``actions`` are replayed first (as from a save file). ``pass_prompt`` (hot-seat only) asks for
    Enter whenever the deciding seat changes, before any of that seat's private state is shown.
    ``echo`` prints each line read (useful when input is piped or scripted).
    Returns the session (its ``state``, ``actions``, and ``quit`` if the player left early).
    """
    console = console or Console()
    if session is None:
        session = resume(SavedGame(setup or Setup(), seed, list(actions)), vs=vs, human_seat=human_seat)
    human = TerminalAgent(session, console, input_fn, pass_prompt, echo)
    human.hint_level = hint_level
    agents = [human if session.is_human(seat) else Thinking(make_agent(session.vs, agent_seed(session.seed, seat)),
                                                            console) for seat in (0, 1)]
    if session.vs != "human" or not pass_prompt:
        console.print(intro(session), markup=False, highlight=False)
    try:
        record = play_game(session.setup, session.seed, agents, human, history=session)
    except (EOFError, KeyboardInterrupt):
        console.print("\nInput ended: leaving the game.", markup=False)
        session.quit = True
        return session
    if record.quit:
        session.quit = True
        return session
    _game_over(session, record, console)
    return session


def _game_over(session: Session, record: GameRecord, console: Console) -> None:
    """The end-of-game screen: the final position as everyone may see it, then the result."""
    s = session.state
    seat = session.human_seat if session.vs != "human" else None
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
    lines = ([str(x) for x in view_field(v, "events")] if seat is None
             else session.events_since_last_decision(seat))
    console.print(render.render_events(lines, "Last events"))
    o = outcome(s)
    if o is None:
        return
    stars = ", ".join(f"{_tag(session, i)} {n}" for i, n in enumerate(record.stars))
    if o.winner is None:
        text = f"No winner: {o.reason} (after {record.turns} turns; stars {stars})."
    else:
        text = f"{_who(session, o.winner)} wins: {o.reason} (after {record.turns} turns; stars {stars})."
    console.print(Panel(text, title="Result", title_align="left", border_style="bold", expand=False))
    console.print(f"Seed {session.seed}, {len(session.actions)} actions. Play again with: meloch play", style="dim",
                  markup=False, highlight=False)
