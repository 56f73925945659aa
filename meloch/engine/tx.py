"""``Tx``: the one place rules write to a state.

A Tx starts from a shallow copy of the caller's state and copies each seat the first time it is
written, so the caller's state is never changed (value semantics) and an apply costs only what it
touches. Everything random goes through ``Tx.rand*`` so the RNG state stays inside the state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final, TypeVar

from msgspec.structs import replace

from meloch.content.schema import Content
from meloch.engine import rng
from meloch.engine.contract import Event, EventData
from meloch.engine.model import ExpSeat, Frame, ScytheSeat, Seat, State

if TYPE_CHECKING:
    from typing_extensions import TypeIs

T = TypeVar("T")

# Compiled (mypyc), a Final module name is a C static and any other a dictionary lookup: the names
# read at every step are Final here and in the rule modules (docs/speed.md).
_replace: Final = replace
_EVENT: Final = Event
_SCYTHE_SEAT: Final = ScytheSeat
_EXP_SEAT: Final = ExpSeat


def is_scythe(p: Seat) -> TypeIs[ScytheSeat]:
    """``isinstance(p, ScytheSeat)``, fast: a Struct class has a metaclass, so ``isinstance`` of
    anything but an exact instance takes CPython's ``__instancecheck__`` path (~700 instructions, the
    rules ask this at every step); the seat classes are ``@final``, so the exact type decides."""
    return type(p) is _SCYTHE_SEAT


def is_exp(p: Seat) -> TypeIs[ExpSeat]:
    """``isinstance(p, ExpSeat)``, fast (see ``is_scythe``)."""
    return type(p) is _EXP_SEAT


SETTLED: Final = "_settled"
"""Key in a State's slot dict (``State`` has ``dict=True``): set by ``apply`` / ``new_game`` on a state
whose automatic Triumph stars are all placed. Never encoded or copied, so a state built by hand
(``replace``, ``from_json``, ``determinize``) is checked in full at its first step."""


def settle(tx: Tx) -> None:
    """Mark ``tx.s`` settled when no seat was handed out since the last Triumph check."""
    if not tx.touched:
        tx.s.__dict__[SETTLED] = True


class Tx:
    def __init__(self, state: State, content: Content) -> None:
        self.s = _replace(state)  # msgspec's copy (not the copy module's); the slot dict is not carried
        self.c = content
        self._copied: set[int] = set()
        self.events: list[Event] = []
        self.touched: set[int] = set() if SETTLED in state.__dict__ else {0, 1}
        """Seats handed out for writing since the Triumph metrics were last checked. A state that
        ``apply`` returned settled starts with none (``track.check_scythe_stars`` skips)."""

    # ---------------------------------------------------------------- seats
    def seat(self, i: int) -> Seat:
        """The writable seat ``i`` (copied on first access)."""
        self.touched.add(i)
        if i not in self._copied:
            seats = list(self.s.seats)
            seats[i] = _replace(seats[i])
            self.s.seats = (seats[0], seats[1])
            self._copied.add(i)
        return self.s.seats[i]

    def sc(self, i: int) -> ScytheSeat:
        p = self.seat(i)
        assert is_scythe(p)
        return p

    def ex(self, i: int) -> ExpSeat:
        p = self.seat(i)
        assert is_exp(p)
        return p

    # ---------------------------------------------------------------- frames
    def push(self, *frames: Frame) -> None:
        """Push frames; the LAST one given ends on top (runs first)."""
        self.s.frames = self.s.frames + frames

    def push_in_order(self, *frames: Frame) -> None:
        """Push frames so that the FIRST one given runs first."""
        self.s.frames = self.s.frames + tuple(reversed(frames))

    def pop(self) -> Frame:
        frames = self.s.frames
        self.s.frames = frames[:-1]
        return frames[-1]

    def top(self) -> Frame | None:
        frames = self.s.frames
        return frames[-1] if frames else None

    # ---------------------------------------------------------------- events
    def log(self, kind: str, text: str, seat: int = -1, private_to: int = -1, public: str = "",
            data: EventData | None = None, public_data: EventData | None = None) -> None:
        """Record an event; a private one (``private_to`` >= 0) shows ``public``/``public_data`` to
        the other seats."""
        self.events.append(_EVENT(kind=kind, text=text, seat=seat, private_to=private_to, public_text=public,
                                 data=data, public_data=public_data))

    # ---------------------------------------------------------------- randomness
    def randbelow(self, n: int) -> int:
        v, self.s.rng = rng.randbelow(self.s.rng, n)
        return v

    def shuffled(self, items: Sequence[T]) -> tuple[T, ...]:
        out, self.s.rng = rng.shuffled(self.s.rng, items)
        return out

    def flag(self, name: str) -> bool:
        return name in self.s.turn_flags

    def set_flag(self, name: str) -> None:
        if name not in self.s.turn_flags:
            self.s.turn_flags = (*self.s.turn_flags, name)
