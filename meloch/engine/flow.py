"""The decision loop: frame handlers, the run loop between decisions, turn start and end.

Each frame kind registers a handler: ``options`` lists the legal actions when the frame is on top
(``None`` marks an automatic frame that resolves without a choice), ``resolve`` carries the choice
out on a ``Tx`` (the frame is already popped) and may push follow-up frames.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, NamedTuple

from meloch.engine.actions import Action
from meloch.engine.frames import FrameKind
from meloch.engine.model import SEAT_TAGS, Frame, State
from meloch.engine.tx import Tx

# Compiled (mypyc), a module name marked Final is read from a C static; any other name, imported
# ones included, is a dictionary lookup. The names read at every step are Final (docs/speed.md).
ACTION: Final = Action
"""``Action``, for the option lists that build many actions of one seat: ``ACTION(tag(state, seat),
verb, args)`` looks the tag up once where ``act`` looks it up per action."""
_SEAT_TAGS: Final = SEAT_TAGS

Options = Callable[[State, Frame], list[Action]]
Resolve = Callable[[Tx, Frame, Action | None], None]
Prompt = Callable[[State, Frame], str]


class Handler(NamedTuple):
    kind: FrameKind
    prompt: Prompt
    options: Options | None
    resolve: Resolve
    secret: bool = False
    """A secret choice (a Power Dial, a tucked card): never shown to the other seat."""


HANDLERS: Final[dict[str, Handler]] = {}


def handler(
    kind: FrameKind, prompt: str | Prompt, options: Options | None = None, *, secret: bool = False
) -> Callable[[Resolve], Resolve]:
    """Register ``resolve`` for frames of ``kind``. A string prompt is used as is."""

    def deco(resolve: Resolve) -> Resolve:
        p: Prompt = (lambda _s, _f: prompt) if isinstance(prompt, str) else prompt
        HANDLERS[str(kind)] = Handler(kind, p, options, resolve, secret)  # plain-str keys: the fast lookup
        return resolve

    return deco


def tag(state: State, seat: int) -> str:
    return _SEAT_TAGS[state.setup.variant][seat]


def act(state: State, seat: int, verb: str, *args: str) -> Action:
    return ACTION(_SEAT_TAGS[state.setup.variant][seat], verb, args)



# Hooks filled by the rule modules (kept here so flow imports no rule module).
START_TURN: Final[dict[str, Callable[[Tx, int], None]]] = {}
AFTER_STEP: Final[list[Callable[[Tx], None]]] = []
END_TURN: Final[list[Callable[[Tx, int], None]]] = []
NEW_GAME: Final[list[Callable[[Tx], None]]] = []
"""Run at the end of setup, before the first turn (the Automa's decks)."""
SEAT_TURN: Final[list[Callable[[Tx, int], bool]]] = []
"""Run before ``START_TURN``: a hook that returns True has started the turn itself (the Automa)."""
AUTO_CHOICE: Final[list[Callable[[State, Frame, list[Action]], Action | None]]] = []
"""A seat the rules drive (the Automa) answers its own choice frames: the first action returned is taken."""
GAME_END: Final[list[Callable[[Tx], None]]] = []
"""Run when the game ends, before the pending frames are dropped (components they hold go home)."""


def remember_options(state: State, opts: list[Action]) -> None:
    """Keep ``opts`` in the state object itself (``State`` has ``dict=True``): every live state keeps
    its own options, which a search holding many states needs, and nothing outlives the state. The
    slot is not a field: it is never encoded, compared, or carried by a copy or ``replace``. It
    relies on states being values (never mutated once returned), which the protocol promises."""
    state.__dict__["_options"] = tuple(opts)


def cached_options(state: State) -> tuple[Action, ...] | None:
    got: tuple[Action, ...] | None = state.__dict__.get("_options")
    return got


def role(state: State, seat: int) -> str:
    return state.setup.seats[seat].role


def run(tx: Tx) -> None:
    """Resolve automatic frames and turn changes until a seat must choose or the game ends."""
    s = tx.s  # the transaction's one (mutable) state
    while True:
        if s.winner >= 0:
            for end_hook in GAME_END:
                end_hook(tx)
            s.frames = ()
            return
        f = tx.top()
        if f is None:
            for hook in AFTER_STEP:
                hook(tx)
            if s.winner >= 0 or tx.top() is not None:
                continue
            _end_turn(tx)
            if s.winner >= 0:
                continue
            _start_turn(tx)
            continue
        h = HANDLERS[f.kind]
        options = h.options
        if options is None:
            tx.pop()
            h.resolve(tx, f, None)
            continue
        for hook in AFTER_STEP:
            hook(tx)
        if s.winner >= 0 or tx.top() is not f:
            continue
        opts = options(s, f)
        if not opts:
            tx.pop()
            continue
        auto = _auto_choice(s, f, opts)
        if auto is not None:
            tx.pop()
            h.resolve(tx, f, auto)
            continue
        remember_options(s, opts)
        return


def _auto_choice(state: State, f: Frame, opts: list[Action]) -> Action | None:
    for hook in AUTO_CHOICE:
        got = hook(state, f, opts)
        if got is not None:
            return got
    return None


def _start_turn(tx: Tx) -> None:
    s = tx.s
    s.turn += 1
    s.turn_flags = ()
    seat = s.active
    tx.log("turn", f"Turn {s.turn}: {tag(s, seat)} ({role(s, seat)}) to play.", seat=seat)
    if any(hook(tx, seat) for hook in SEAT_TURN):
        return
    START_TURN[role(s, seat)](tx, seat)


def _end_turn(tx: Tx) -> None:
    s = tx.s
    if s.turn > 0:
        for hook in END_TURN:
            hook(tx, s.active)
        if s.winner >= 0:
            return
        if s.turn >= s.setup.turn_limit:
            s.winner = 2
            s.reason = "turn limit"
            tx.log("end", f"The game ends at the turn limit ({s.setup.turn_limit} turns) without a winner.")
            return
        s.active = 1 - s.active
