"""The terminal game behind ``meloch play``: hot-seat, or a human against any registered agent.

The game runs on the one runner (``meloch.sim.runner.play_game``): each human seat is a
``TerminalAgent`` that shows the compact screen (``screen.py``, 80×24) built from
``view(state, seat)`` and the engine's described ``options(state)``, and reads a line; it answers
with an action or a runner ``Control`` (undo, quit). A forced decision (one option) is taken
without asking. Undo is the engine's question (``undo_refusal``). Nothing here reads a ``State``
field: states are opaque values handed back to the engine's protocol.

Every accepted action is autosaved (``saves.autosave_path``), so a crash or a closed terminal
never loses a game: ``meloch play --resume`` continues it. No input line can end the program:
each one is bounded, decoded leniently and handled under one guard that reports a clean message.

Commands are a table (``COMMANDS``: name -> handler method), so a new command is one entry.
``run_game`` is testable: it takes an ``input_fn`` (called with a prompt string, returns a line,
raises ``EOFError`` at the end of input) and a rich ``Console`` to print to.
"""

from __future__ import annotations

import concurrent.futures
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console, RenderableType
from rich.panel import Panel
from rich.rule import Rule
from rich.text import Text

from meloch.agents import Agent, Sampler, agent_names, agent_seed, make_agent, wants_sampler
from meloch.agents.hints import DEFAULT_HINT_AGENT, STAR, Hint
from meloch.agents.hints import hint as search_hint
from meloch.cli import guide, render, screen
from meloch.cli.saves import SavedGame, SaveError, load_game, save_document, write_save
from meloch.engine import (
    Action,
    IllegalAction,
    Option,
    Setup,
    State,
    View,
    apply,
    decision,
    legal_actions,
    options,
    outcome,
    parse,
    view,
)
from meloch.sim.runner import Control, GameRecord, History, Hooks, play_game, view_field

__all__ = ["SaveError", "SavedGame", "Session", "TerminalAgent", "intro", "load_game", "opponents", "resume",
           "run_game", "save_game"]

InputFn = Callable[[str], str]

HELP = """\
Answer with the key in front of an option (a section keeps its number; x opens the free actions;
n / p page through a long list; b goes back), an action in notation ('S section 2', the seat tag
may be left out, any case), or a command:
  explain        the current decision in plain words: each option's cost and gain
  rules [TOPIC]  the rules in short (topics: goal, scythe, expeditions, combat, track, meloch, map,
                 keys) or a keyword (rules sweep, rules glossary)
  card NAME|ID   a card's text (card i02, card machete, card riverwalk, card ambush)
  show WHAT      board (full map), track, log, cards (yours), opponent; 'show' redraws
  undo           take back your last decision (within your turn, never past a draw or a reveal)
  hint           the strongest agent's (search:hard) top 3 options, how far each falls behind
                 the best and a one-line reason (it sees only what you see)
  save FILE      save to FILE (the game is also autosaved after every action)
  help           this list
  quit           leave (resume an autosaved game with: meloch play --resume)"""

MAX_LINE = 400
"""Longer input lines are refused without being echoed back."""
MAX_EVENT_LINES = 30
_TAG_LIKE = re.compile(r"^[SE][12]?$")

RESUME_HINT = "python -m meloch.cli.main play --resume"
"""How to resume, written so that it works where ``meloch`` is not on PATH (after ``make play``)."""


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
    """How many actions the last save (autosave included) held (-1: never saved in this session)."""
    autosave: Path | None = None
    """Where every action is saved (None: no autosave)."""

    def is_human(self, seat: int) -> bool:
        return self.vs == "human" or seat == self.human_seat

    def events_since_last_decision(self, seat: int) -> list[str]:
        """Event texts (as ``seat`` may read them) since ``seat`` last decided, its own results included;
        a line repeating the one before it is dropped."""
        start = 0
        for j in range(len(self.actions) - 1, -1, -1):
            if parse(self.actions[j]).seat == seat:
                start = j + 1
                break
        out: list[str] = []
        for k in range(max(start, 1), len(self.states)):
            for x in view_field(view(self.states[k], seat), "events"):
                text = str(x)
                if not out or out[-1] != text:
                    out.append(text)
        if start == 0:
            out = [str(x) for x in view_field(view(self.states[0], seat), "events")] + out
        if len(out) > MAX_EVENT_LINES:
            out = [f"... ({len(out) - MAX_EVENT_LINES} earlier events)", *out[-MAX_EVENT_LINES:]]
        return out

    def to_save(self) -> dict[str, Any]:
        return save_document(self.setup, self.seed, self.actions, self.vs, self.human_seat)


def label_of(state: State, action: str) -> str:
    """The engine's label of ``action`` at ``state`` (the notation if it is not an option there)."""
    return next((o.label for o in options(state) if o.action == action), action)


# ---------------------------------------------------------------- save, load


def save_game(path: str | Path, session: Session) -> None:
    write_save(path, session.to_save())


def resume(saved: SavedGame, vs: str = "human", human_seat: int = 0) -> Session:
    """Replay a saved game into a session (every intermediate state kept, so undo still works)."""
    try:
        session = Session(saved.setup, saved.seed, vs=vs, human_seat=human_seat)
    except ValueError as err:  # SetupError: load_game checks it, a hand-made SavedGame may not
        raise SaveError(f"bad setup: {err}") from None
    for i, a in enumerate(saved.actions):
        try:
            session.push(a)
        except IllegalAction as err:
            raise SaveError(f"action {i + 1} ({a[:60]!r}) does not replay: {err.message}") from None
    return session


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
    elif session.setup.automa is not None:
        a = session.setup.automa
        side = "Scythian" if session.setup.seats[a.seat].role == "scythe" else "Explorer"
        text += (f"\nYou play {_who(session, session.human_seat)} against the solo Automa, level {a.level}"
                 f"{' with Threat' if a.threat else ''}: it plays {_tag(session, a.seat)} as the {side}, drawing "
                 "its action and support cards; its progress track, deck sizes and card are on the screen's "
                 "Automa line.")
    else:
        text += f"\nYou play {_who(session, session.human_seat)}; the {session.vs} agent plays the other seat."
    return text + ("\nAt each prompt type the key in front of an option (or an action in notation). New to the "
                   "game? 'rules' gives the rules in short, 'explain' the current decision, 'help' every command. "
                   "A decision with a single option is taken for you.")


def _standing_of(h: Hint) -> str:
    """How a hint's option compares: the best, or how far behind it (a star is ``STAR`` points), or
    an ISMCTS agent's share of visits."""
    if h.share is not None:
        return f"{100 * h.share:.0f}% of visits"
    if not h.behind:
        return "the best found"
    return f"{h.behind:.1f} points behind the best (a star is {STAR:g})"


def _hint() -> str:
    return "Type a key shown in front of an option, 'explain', or 'help'."


def _shorten(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} characters)"


def _match_notation(text: str, seat_tag: str, opts: Sequence[Option]) -> str:
    """``text`` as an action in notation: the seat tag added when left out, and matched to an option
    regardless of case ("PRODUCE 2" is "S produce 2"); unmatched, it is returned for the engine to refuse."""
    words = text.split()
    if _TAG_LIKE.match(words[0].upper()):
        words[0] = words[0].upper()
    else:
        words.insert(0, seat_tag)
    typed = " ".join(words)
    low = typed.lower()
    return next((o.action for o in opts if o.action.lower() == low), typed)


# ---------------------------------------------------------------- the human at the terminal


Handler = Callable[["TerminalAgent", str], "Action | Control | None"]


class TerminalAgent(Hooks):
    """Every human seat of the session: shows the deciding seat's screen and reads its answer.

    It is also the runner's hooks, so that it learns of every step (to autosave) and of undos.
    """

    name = "human"
    uses_view = True

    def __init__(self, session: Session, console: Console, input_fn: InputFn, pass_prompt: bool, echo: bool,
                 height: int = screen.HEIGHT) -> None:
        self.session, self.console, self.input_fn = session, console, input_fn
        self.pass_prompt, self.echo, self.height = pass_prompt, echo, height
        self.start = len(session.actions)
        """Actions already played when this sitting began (the intro speaks of that point)."""
        self.prompted: int | None = None
        """The seat whose information is on screen (None: nobody's yet)."""
        self.redraw = True
        self.hint_agent = DEFAULT_HINT_AGENT
        """The agent `hint` asks (the strongest, searching from this seat's information only)."""
        self.notice = ""
        """A line to show under the next screen (what was chosen or undone)."""
        self.forced: dict[int, list[str]] = {}
        """Per seat: the forced steps taken for it since its screen was last drawn (shown only to it)."""
        self.level = ""
        """The menu level of the current decision: "" (top), "free", or a first argument."""
        self.page = 0
        self.pages = 1
        self.menu = screen.Menu()
        self.view: View | None = None
        self.opts: list[Option] = []

    # -- runner hooks

    def on_step(self, before: State, action: Action, after: State) -> None:
        if not self.session.is_human(action.seat):
            self.notice = ""  # the human's last choice is old news once the agent has played
        self.autosave()

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
        self.autosave()

    def autosave(self) -> None:
        path = self.session.autosave
        if path is None:
            return
        try:
            save_game(path, self.session)
            self.session.saved_actions = len(self.session.actions)
        except OSError as err:
            self.session.autosave = None
            self.console.print(f"Autosave to {path} failed ({err.strerror or err}); it is off for this game: "
                               "use 'save FILE'.", style="red", markup=False)

    # -- input

    def _read(self, prompt: str) -> str:
        """Print ``prompt`` and read a line (``EOFError`` propagates); ``echo`` prints the line read.
        Bytes that are not UTF-8 never end the game: the line is refused with a message."""
        self.console.print(prompt, end="", markup=False, highlight=False)
        self.console.file.flush()
        try:
            line = self.input_fn("")
        except UnicodeDecodeError:
            line = "\ufffd"
        if self.echo:
            self.console.print(_shorten(line, MAX_LINE), markup=False, highlight=False)
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

    # -- the screen

    def _draw(self, seat: int) -> None:
        assert self.view is not None
        self.menu = screen.build_menu(self.opts, screen.have_of(self.view), self.level)
        notes = [n for n in (self.notice, *self.forced.pop(seat, [])) if n]
        if self.console.is_terminal:
            self.console.clear()
        scr = screen.compose(self.view, self.menu, self.session.events_since_last_decision(seat), notes,
                             page=self.page, height=self.height, width=min(self.console.width, screen.WIDTH))
        self.page, self.pages = scr.page, scr.pages
        self.console.print(scr.renderable)
        self.redraw, self.notice = False, ""

    def _print(self, text: str | RenderableType, style: str = "") -> None:
        if isinstance(text, str):
            self.console.print(text, style=style or None, markup=False, highlight=False)
        else:
            self.console.print(text)

    def choose(self, v: Any, legal: list[Action]) -> Action | Control:
        session = self.session
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
        self.view, self.opts = v, options(state)
        self.level, self.page = "", 0
        tag = _tag(session, d.seat)
        while True:
            if self.redraw:
                self._draw(d.seat)
            line = self._read(f"{tag}> ")
            try:
                result = self.handle(line, tag, state)
            except (EOFError, KeyboardInterrupt):
                raise
            except Exception as err:  # no input may end the game; the game state is untouched
                self.console.print(f"That line could not be handled ({type(err).__name__}); the game is intact. "
                                   f"{_hint()}", style="red", markup=False, highlight=False)
                continue
            if result is not None:
                return result

    def handle(self, line: str, tag: str, state: State) -> Action | Control | None:
        """One input line: an action or a control to return, or None (keep asking)."""
        if len(line) > MAX_LINE:
            self._print(f"That line is too long ({len(line)} characters; at most {MAX_LINE}). {_hint()}", "red")
            return None
        text = line.strip()
        if not text:
            return None
        if not text.isprintable() or "\ufffd" in text:  # U+FFFD: bytes that were not UTF-8 (decoded leniently)
            self._print(f"That line holds characters that cannot be typed or read. {_hint()}", "red")
            return None
        word, _, rest = text.partition(" ")
        cmd = COMMANDS.get(word.lower())
        if cmd is not None:
            return cmd(self, rest.strip())
        key = text.lower()
        entry = next((e for e in self.menu.entries if e.key == key), None)
        if entry is None and re.fullmatch(r"[+-]?\d+|[a-z]", key):
            self._print(f"There is no option {_shorten(text, 12)} here. {_hint()}", "red")
            return None
        if entry is not None:
            if entry.submenu:
                self.level, self.page, self.redraw = entry.submenu, 0, True
                return None
            assert entry.option is not None
            action = parse(entry.option.action)
        else:
            try:
                action = parse(_match_notation(text, tag, self.opts))
            except IllegalAction as err:
                self._print(f"{_shorten(err.message, 200)} {_hint()}", "red")
                return None
        try:
            apply(state, action)  # the engine's refusal, with its reason, for a typed action
        except IllegalAction as err:
            self._print(f"{_shorten(err.message, 300)} {_hint()}", "red")
            return None
        self.notice = f"Done ({action}): {label_of(state, str(action))}."
        self.redraw = True
        return action

    # -- commands (``COMMANDS`` maps each name to one of these)

    def cmd_help(self, arg: str) -> None:
        self._print(HELP)

    def cmd_quit(self, arg: str) -> Control | None:
        s = self.session
        if s.actions and s.saved_actions != len(s.actions):
            answer = self._read("This game is not saved. Leave anyway? (y/N) ").strip().lower()
            if answer not in ("y", "yes"):
                self._print("Staying in the game.")
                return None
        if s.autosave is not None and s.actions:
            self._print(f"You left the game. It is saved: resume with '{RESUME_HINT}' (or make play ARGS=--resume).")
        else:
            self._print("You left the game.")
        return Control("quit")

    def cmd_undo(self, arg: str) -> Control:
        return Control("undo")

    def cmd_show(self, arg: str) -> None:
        assert self.view is not None
        v, what = self.view, arg.lower()
        if what in ("", "screen", "options"):
            self.redraw = True
            return
        parts: dict[str, Callable[[], list[RenderableType]]] = {
            "board": lambda: [render.render_board(v)],
            "map": lambda: [render.render_board(v)],
            "track": lambda: [render.render_track(v), render.render_meloch(v)],
            "log": lambda: [render.render_events(self.session.events_since_last_decision(
                v.seat if v.seat is not None else 0), "Since your last decision")],
            "cards": lambda: [x for x in (render.render_private(v), render.render_combat(v)) if x is not None],
            "me": lambda: [render.render_seats(v)],
            "opponent": lambda: [render.render_seats(v)],
        }
        fn = parts.get(what)
        if fn is None:
            self._print("Usage: show board|track|log|cards|opponent (or 'show' to redraw).", "red")
            return
        for r in fn():
            self._print(r)
        self._print("(type 'show' to see the decision again)", "dim")

    def cmd_rules(self, arg: str) -> None:
        self._print(guide.rules_text(arg))

    def cmd_card(self, arg: str) -> None:
        self._print(guide.card_text(arg))

    def cmd_explain(self, arg: str) -> None:
        assert self.view is not None
        self._print(guide.explain_text(self.view, self.opts))

    def cmd_next(self, arg: str) -> None:
        if self.page + 1 >= self.pages:
            self._print("This is the last page.", "red")
            return
        self.page += 1
        self.redraw = True

    def cmd_prev(self, arg: str) -> None:
        self.page = max(0, self.page - 1)
        self.redraw = True

    def cmd_back(self, arg: str) -> None:
        self.level, self.page, self.redraw = "", 0, True

    def cmd_hint(self, arg: str) -> None:
        """The strongest agent's top options for this seat, searched from the seat's information only."""
        state = self.session.state
        d = decision(state)
        if d is None:
            return
        with self.console.status("thinking…"):
            hints = search_hint(Sampler(state, d.seat), legal_actions(state), seed=len(self.session.actions),
                                agent=self.hint_agent)
        for i, h in enumerate(hints, 1):
            self._print(f"hint {i}: {h.action} ({label_of(state, h.action)}), {_standing_of(h)}: {h.reason}")

    def cmd_save(self, arg: str) -> None:
        if not arg:
            self._print("Usage: save FILE", "red")
            return
        try:
            save_game(arg, self.session)
            self.session.saved_actions = len(self.session.actions)
        except OSError as err:
            self._print(f"Cannot save to {_shorten(arg)}: {err.strerror or err}", "red")
            return
        self._print(f"Saved {len(self.session.actions)} actions to {arg}; resume with: "
                    f"python -m meloch.cli.main play --load {arg}")


COMMANDS: dict[str, Handler] = {
    "help": TerminalAgent.cmd_help, "?": TerminalAgent.cmd_help, "h": TerminalAgent.cmd_help,
    "quit": TerminalAgent.cmd_quit, "exit": TerminalAgent.cmd_quit, "q": TerminalAgent.cmd_quit,
    "undo": TerminalAgent.cmd_undo, "u": TerminalAgent.cmd_undo,
    "show": TerminalAgent.cmd_show, "redraw": TerminalAgent.cmd_show,
    "rules": TerminalAgent.cmd_rules, "card": TerminalAgent.cmd_card, "explain": TerminalAgent.cmd_explain,
    "n": TerminalAgent.cmd_next, "more": TerminalAgent.cmd_next, "p": TerminalAgent.cmd_prev,
    "b": TerminalAgent.cmd_back, "back": TerminalAgent.cmd_back,
    "save": TerminalAgent.cmd_save,
    "hint": TerminalAgent.cmd_hint, "hints": TerminalAgent.cmd_hint,
}
"""Command words (lower case) and their handlers; a handler returns an action or control to answer the
decision with, or None to keep asking. Add a command by adding an entry."""


# ---------------------------------------------------------------- the loop


class Thinking:
    """An agent run off the main thread while the screen shows "thinking…" (search agents take up to
    seconds a move); the main thread stays free to draw and to take Ctrl-C."""

    def __init__(self, agent: Agent, console: Console) -> None:
        self.agent, self.console = agent, console
        self.name, self.uses_view = agent.name, agent.uses_view
        self.uses_sampler = wants_sampler(agent)

    def _run(self, fn: Callable[[], Any]) -> Any:
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
    autosave: Path | None = None,
    height: int = screen.HEIGHT,
    hint_agent: str = DEFAULT_HINT_AGENT,
) -> Session:
    """Play a game at the terminal until it ends, the player quits, or the input ends.

    ``vs`` is "human" (hot-seat) or an agent name (that agent plays every seat but ``human_seat``).
    ``actions`` are replayed first (as from a save file). ``pass_prompt`` (hot-seat only) asks for
    Enter whenever the deciding seat changes, before any of that seat's private state is shown.
    ``echo`` prints each line read (useful when input is piped or scripted). ``autosave``: the file
    written after every action (removed when the game ends). ``height``: the terminal's lines.
    Returns the session (its ``state``, ``actions``, and ``quit`` if the player left early).
    """
    console = console or Console()
    if session is None:
        session = resume(SavedGame(setup or Setup(), seed, list(actions)), vs=vs, human_seat=human_seat)
    if autosave is not None:
        session.autosave = autosave
    human = TerminalAgent(session, console, input_fn, pass_prompt, echo, height)
    human.hint_agent = hint_agent
    if session.actions:
        human.autosave()  # a resumed game is saved as it stands
    agents = [human if session.is_human(seat) else Thinking(make_agent(session.vs, agent_seed(session.seed, seat)),
                                                            console) for seat in (0, 1)]
    if session.vs != "human" or not pass_prompt:
        console.print(intro(session), markup=False, highlight=False)
    try:
        record = play_game(session.setup, session.seed, agents, human, history=session)
    except (EOFError, KeyboardInterrupt):
        kept = f" It is saved: resume with '{RESUME_HINT}'." if session.autosave is not None and session.actions else ""
        console.print(f"\nInput ended: leaving the game.{kept}", markup=False)
        session.quit = True
        return session
    if record.quit:
        session.quit = True
        return session
    if session.autosave is not None:
        session.autosave.unlink(missing_ok=True)  # a finished game is not resumed
    _game_over(session, record, console)
    return session


def _game_over(session: Session, record: GameRecord, console: Console) -> None:
    """The end-of-game screen: the final position as everyone may see it, then the result."""
    s = session.state
    seat = session.human_seat if session.vs != "human" else None
    v = view(s, seat)
    if console.is_terminal:
        console.clear()  # the end screen starts on a clear 80x24 screen (and the last seat's private panel goes)
        if session.vs == "human":
            console.file.write("\x1b[3J")
        console.file.flush()
    console.print(Rule("Game over"))
    console.print(screen.header(v))
    console.print(screen.small_map(v))
    for i in range(len(session.setup.seats)):
        console.print(screen.seat_line(v, i), no_wrap=True, overflow="ellipsis")
    console.print(screen.track_line(v), no_wrap=True, overflow="ellipsis")
    lines = ([str(x) for x in view_field(v, "events")] if seat is None
             else session.events_since_last_decision(seat))
    for x in lines[-screen.EVENT_LINES:]:
        console.print(Text("- " + x), no_wrap=True, overflow="ellipsis")
    o = outcome(s)
    if o is None:
        return
    stars = ", ".join(f"{_tag(session, i)} {n}" for i, n in enumerate(record.stars))
    if o.winner is None:
        text = f"No winner: {o.reason} (after {record.turns} turns; stars {stars})."
    else:
        text = f"{_who(session, o.winner)} wins: {o.reason} (after {record.turns} turns; stars {stars})."
    console.print(Panel(text, title="Result", title_align="left", border_style="bold", expand=False))
    console.print(f"Seed {session.seed}, {len(session.actions)} actions. Play again with: "
                  "python -m meloch.cli.main play (or make play)", style="dim", markup=False, highlight=False)
