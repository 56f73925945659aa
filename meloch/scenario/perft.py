"""Decision perft: the number of legal action sequences of each length from fixed positions.

Like chess perft, the counts pin down the whole legal-action generator at once: any change in what
is allowed changes a count. ``tests/perft/positions.json`` stores the positions (setup, seed and a
prefix of actions) with their counts to depth 3; ``tests/test_perft.py`` recomputes them.

Regenerate after an intended rules change with ``python -m meloch.scenario.perft --write`` and add
a note to ``docs/rules-notes.md`` saying which rule changed and why the counts moved.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import msgspec

from meloch.engine import Setup, State, apply, legal_actions, new_game
from meloch.scenario.games import random_game, varied_setup
from meloch.scenario.patch import apply_patch

DEPTH = 3
DEFAULT_FILE = Path(__file__).resolve().parents[2] / "tests" / "perft" / "positions.json"


def perft(state: State, depth: int) -> list[int]:
    """Counts of legal action sequences of length 1..depth from ``state`` (a sequence stops
    counting when the game ends before its length)."""
    counts = [0] * depth

    def walk(s: State, d: int) -> None:
        acts = legal_actions(s)
        counts[d] += len(acts)
        if d + 1 < depth:
            for a in acts:
                walk(apply(s, a), d + 1)

    walk(state, 0)
    return counts


def position_state(pos: dict[str, Any]) -> State:
    """The state of a position: setup + seed, ``prefix`` actions, an optional scenario ``patch``
    (see ``meloch.scenario.patch``) and then the optional ``then`` actions."""
    s = new_game(msgspec.convert(pos["setup"], Setup), pos["seed"])
    for a in pos["prefix"]:
        s = apply(s, a)
    if pos.get("patch"):
        s = apply_patch(s, pos["patch"])
    for a in pos.get("then", ()):
        s = apply(s, a)
    return s


_AMBUSH_PATCH: dict[str, Any] = {
    "seats.0.character": "4", "seats.0.mechs": ["4"], "seats.0.mech_slots": [0], "seats.0.power": 5,
    "seats.0.combat_cards": [18, 30, 9, 3], "seats.1.loc": "4", "seats.1.power": 4,
    "seats.1.combat_cards": [19, 42], "seats.0.section": 0, "turn_of": 0,
}
_AMBUSH_THEN = ["S section 2", "S top move", "S move done", "S fight yes", "S dial 2", "S tuck c18", "S tuck c30",
                "E dial 1", "E tuck c42"]


def _prefix_until(setup: Setup, seed: int, stop: int | str) -> tuple[int, list[str]]:
    """(seed, actions) of a random game up to step ``stop``, or up to the first decision of kind
    ``stop`` (trying the following seeds until a game reaches one)."""
    for sd in range(seed, seed + 200):
        out: list[str] = []
        for s, a in random_game(setup, sd):
            done = (s.step >= stop) if isinstance(stop, int) else (bool(s.frames) and s.frames[-1].kind == stop)
            if done:
                return sd, out
            if a is None:
                break
            out.append(str(a))
    raise ValueError(f"no random game of {setup} reaches {stop!r}")


def default_positions() -> list[dict[str, Any]]:
    """The perft positions: 6 setups, 14 mid-game positions after random prefixes, 4 combat
    decisions (dial, tuck), 1 Meloch decision and a patched Ambush position (26 in all)."""
    specs: list[tuple[str, int, int, int | str]] = []
    specs += [(f"setup-{i}", i, 1, 0) for i in (0, 1, 2, 3, 6, 10)]
    specs += [(f"mid-{i}-{k}", i, 200 + i, k) for i, k in
              ((0, 15), (1, 40), (2, 60), (3, 90), (4, 120), (5, 150), (7, 180), (8, 220), (9, 260),
               (6, 40), (6, 120), (10, 40), (10, 120), (12, 300))]
    specs += [(f"combat-{i}", i, 300 + i, "c_dial") for i in (0, 1, 4)]
    specs += [("tuck-0", 0, 350, "c_tuck")]
    specs += [("meloch-0", 0, 400, "meloch_orient")]
    out = []
    for name, i, seed, stop in specs:
        setup = varied_setup(i)
        sd, prefix = _prefix_until(setup, seed, stop)
        out.append({"id": name, "setup": msgspec.to_builtins(setup), "seed": sd, "prefix": prefix})
    out.append({"id": "ambush-patched", "setup": msgspec.to_builtins(varied_setup(0)), "seed": 5, "prefix": [],
                "patch": _AMBUSH_PATCH, "then": _AMBUSH_THEN})
    return out


def compute(positions: list[dict[str, Any]], depth: int = DEPTH) -> list[dict[str, Any]]:
    return [{**p, "depth": depth, "counts": perft(position_state(p), depth)} for p in positions]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--write", action="store_true", help="regenerate the positions and counts file")
    ap.add_argument("--file", type=Path, default=DEFAULT_FILE)
    args = ap.parse_args(argv)
    if args.write:
        data = compute(default_positions())
        args.file.parent.mkdir(parents=True, exist_ok=True)
        args.file.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {len(data)} positions to {args.file}; note the rules change in docs/rules-notes.md")
    else:
        data = json.loads(args.file.read_text(encoding="utf-8"))
        for p in data:
            got = perft(position_state(p), p["depth"])
            print(f"{p['id']:>14} {'ok ' if got == p['counts'] else 'DIFF'} {got} (stored {p['counts']})")


if __name__ == "__main__":
    main()
