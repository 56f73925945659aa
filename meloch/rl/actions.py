"""A fixed discrete action space: verb templates x argument domains, derived from the content.

An action ``"S move char 3 4"`` has the *key* ``("move", "char", "3", "4")``: the notation without
the seat tag (the deciding seat is implied), with every combat-card instance ``c<n>`` replaced by
its type ``c:<type id>`` (instances of one type are interchangeable, and an instance id would leak
nothing but would blow up the space). The space lists every key that the verb templates below can
form, in a fixed order, so an index means the same action in every game.

``encode`` maps a legal action to its index; ``decode`` maps an index back to a legal action of the
current decision (the first legal one with that key, so a combat type picks the lowest-listed
instance). ``mask`` is the legal-action mask. Unknown verbs or arguments raise ``ActionSpaceError``
(a rule that adds a verb must add its template here; the fuzz test catches a missing one).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from typing import Any, NoReturn

import numpy as np

from meloch.content import load
from meloch.engine import Action
from meloch.rl import native

Key = tuple[str, ...]


class ActionSpaceError(ValueError):
    """An action the fixed space cannot express (a verb or argument missing from the templates)."""


@cache
def combat_type_ids() -> tuple[str, ...]:
    """Combat-card type id of every instance id (0..59), in the engine's order (content order x count)."""
    out: list[str] = []
    for t in load().combat_cards:
        out.extend([t.id] * t.count)
    return tuple(out)


def _num(n: int, start: int = 0) -> list[str]:
    return [str(i) for i in range(start, n)]


@cache
def location_ids() -> tuple[str, ...]:
    """Every location id of both map sides, in content order (shared by the action space and the
    observation's board block)."""
    out: list[str] = []
    for side in load().maps.values():
        out.extend(loc.id for loc in side.locations if loc.id not in out)
    return tuple(out)


@cache
def _domains() -> dict[str, list[str]]:
    """Named argument domains, from the content where the content names the things."""
    c = load()
    locs = list(location_ids())
    cards = list(c.cards)
    combat = [f"c:{t.id}" for t in c.combat_cards]
    factory = [f.id for f in c.factory_cards]
    tokens = [t.id for t in c.map_tokens]
    res = ["food", "metal", "oil", "wood"]
    colours = ["blue", "green", "purple", "red", "yellow"]
    abilities = sorted({m.ability for f in c.factions.values() for m in f.mechs})
    corruption = sorted({f"{t.colour}-{t.value}" for t in c.corruption})
    top_upgrades = ["bolster_cards", "bolster_power", "move_coins", "move_units", "produce_territories",
                    "trade_popularity"]
    sections = [*_num(5, 1), "factory", *[f"tech-{f}" for f in factory]]
    return {
        "loc": locs, "card": cards, "combat": combat, "factory": factory, "token": tokens, "res": res,
        "colour": colours, "ability": abilities, "corruption": corruption, "top_upgrade": top_upgrades,
        "section": sections, "anycard": [*cards, *combat, *factory, *tokens],
    }


def _templates() -> list[tuple[str, int, list[list[str]]]]:
    """(verb, minimum arity, argument domains by position): every shape of action the engine forms."""
    d = _domains()
    loc, card, combat, res = d["loc"], d["card"], d["combat"], d["res"]
    units = ["char", "worker", "mech", *[f"mech{i}" for i in range(1, 5)], "done"]
    return [
        ("end", 0, []),
        ("activate", 1, [loc]),
        ("adjacent", 1, [loc, _num(8)]),
        ("ambush", 1, [[*combat, "none"]]),
        ("artillery", 1, [["yes", "no"]]),
        ("boast", 1, [_num(16)]),
        ("bottom", 1, [["build", "deploy", "enlist", "factory-move", "skip", "upgrade"]]),
        ("build", 2, [["armory", "mill", "mine", "monument"], loc]),
        ("carry", 1, [["done", "worker", *res]]),
        ("deploy", 2, [_num(5, 1), loc]),
        ("dial", 1, [_num(21)]),
        ("discard", 1, [d["anycard"]]),
        ("discard-combat", 1, [combat]),
        ("do", 1, [["gather", "move", "nothing", "play"]]),
        ("draw2", 1, [["combat-combat", "combat-discovery", "discovery-discovery"]]),
        ("encounter", 1, [_num(4, 1)]),
        ("enlist", 2, [["build", "deploy", "enlist", "upgrade"], ["cards", "coins", "popularity", "power"]]),
        ("factory", 1, [d["factory"]]),
        ("fight", 1, [["yes", "no"]]),
        ("gained-to", 1, [["hand", "row"]]),
        ("keep", 1, [d["anycard"]]),
        ("leverage", 2, [["gain", "regain"], res, loc]),
        ("map-token-at", 1, [loc]),
        ("meld", 1, [card]),
        ("meloch", 1, [["rotated", "upright"]]),
        ("mole", 1, [["gather", "no"]]),
        ("move", 1, [[*units, *loc], loc, loc]),
        ("odins-wrath", 1, [["coins", "guile", "power"]]),
        ("option", 1, [_num(5, 1)]),
        ("pay", 2, [[*loc, "coerce"], [*res, *combat]]),
        ("pay-combat", 1, [combat]),
        ("pay-map-token", 1, [d["token"]]),
        ("pay-worker", 1, [[*d["colour"], "hero"]]),
        ("peek", 1, [["combat", "discovery"]]),
        ("place-resource", 2, [loc, res]),
        ("place-worker", 1, [loc]),
        ("play", 1, [card]),
        ("produce", 1, [[*loc, "done"]]),
        ("refresh-to", 1, [d["section"]]),
        ("rescue", 1, [card]),
        ("return-worker", 1, [loc]),
        ("scarecrow", 1, [["gather", "move", "play"]]),
        ("section", 1, [d["section"]]),
        ("star", 1, [_num(16)]),
        ("solve", 1, [card]),
        ("sweep", 1, [["done", *loc]]),
        ("take", 1, [["all", "first", "none", "skip-first", *loc], card]),
        ("token", 1, [["all", "flag", "gather", "influence", "move", "no", "play", "refresh", "trap"],
                      ["cards", "coins", "popularity", "power"]]),
        ("top", 1, [["card", "coin", "factory", "move", "popularity", "power", "produce", "resources", "skip"]]),
        ("trade", 2, [loc, res]),
        ("trash", 1, [d["anycard"]]),
        ("trash-corruption", 1, [d["corruption"]]),
        ("tuck", 1, [[*combat, "done"]]),
        ("upgrade", 1, [[*d["top_upgrade"], *card], _num(5, 1)]),
        ("vanquish", 1, [["attack", "corruption", "stop"]]),
        ("veer", 1, [[*d["section"], "no"]]),
        ("vesna-token", 1, [d["ability"]]),
        ("via", 1, [[*loc, "none"]]),
        ("voyager", 1, [["boast", "meld", "upgrade"]]),
        ("worker", 1, [[*d["colour"], "hero", "none"]]),
        ("worker-colour", 1, [d["colour"]]),
    ]


@cache
def action_keys() -> tuple[Key, ...]:
    """Every key of the space, in index order."""
    keys: list[Key] = []
    for verb, lo, doms in _templates():
        for arity in range(lo, len(doms) + 1):
            keys.extend((verb, *args) for args in itertools.product(*doms[:arity]))
    return tuple(dict.fromkeys(keys))


@cache
def _index() -> dict[Key, int]:
    return {k: i for i, k in enumerate(action_keys())}


@cache
def size() -> int:
    """Number of actions in the space (``docs/rl.md`` gives the figure)."""
    return len(action_keys())


def key(action: Action) -> Key:
    """The key of ``action``: verb and arguments, combat instances replaced by their type."""
    types = combat_type_ids()
    args = []
    for a in action.args:
        if len(a) > 1 and a[0] == "c" and a[1:].isdigit() and int(a[1:]) < len(types):
            a = "c:" + types[int(a[1:])]
        args.append(a)
    return (action.verb, *args)


def _hashable() -> bool:
    try:
        hash(Action("S", "end"))
    except TypeError:  # the mypyc build (make fast) loses the Struct's frozen=True: Actions do not hash
        return False
    return True


_HASHABLE = _hashable()
"""Actions hash in the pure-Python engine; with the compiled build the caches key by ``_ident``."""


def _ident(a: Action) -> Any:
    """A hashable stand-in for ``a`` (equal actions give equal ones)."""
    return (a.who, a.verb, a.args)


_SEEN: dict[Any, int] = {}
"""Action (or ``_ident``) -> index, remembered (actions are small values and recur across games)."""


def encode(action: Action) -> int:
    """The index of ``action``; ``ActionSpaceError`` when the templates cannot express it."""
    ident = action if _HASHABLE else _ident(action)
    i = _SEEN.get(ident)
    if i is not None:
        return i
    k = key(action)
    i = _index().get(k)
    if i is None:
        raise ActionSpaceError(f"action {str(action)!r} (key {' '.join(k)!r}) is not in the fixed action space")
    if len(_SEEN) > 200_000:
        _SEEN.clear()
    _SEEN[ident] = i
    return i


def indices_py(legal: Sequence[Action]) -> list[int]:
    """``indices`` in Python (the fallback and the tests' reference): one look-up in ``_SEEN`` per
    action."""
    try:
        if _HASHABLE:
            return list(map(_SEEN.__getitem__, legal))
        return [_SEEN[(a.who, a.verb, a.args)] for a in legal]  # (``_ident``, inlined)
    except KeyError:
        return [encode(a) for a in legal]


indices: Callable[[Sequence[Action]], list[int]] = indices_py
"""The index of each of ``legal``, in order (about 4 legal actions per decision in random play).
With ``decode_at`` and ``mask_from`` this is all a decision needs: no map or mask is cached per
legal tuple (such a cache missed on about a fifth of the decisions of fresh games, and a miss cost
several hits). The C extension's ``Indexer`` when it is built (a table keyed by the action's text:
hashing a fresh ``Action`` and comparing it with the stored one touched several cold objects per
action), else ``indices_py``; ``meloch.rl.native.use`` switches."""


def legal_map(legal: Sequence[Action]) -> dict[int, Action]:
    """Index -> the first legal action with that index (the decoder of the current decision)."""
    out: dict[int, Action] = {}
    for i, a in zip(indices(legal), legal, strict=True):
        if i not in out:
            out[i] = a
    return out


_I8 = np.dtype(np.int8)


def mask_from_py(idx: Iterable[int]) -> np.ndarray:
    """``mask_from`` in Python (the fallback and the tests' reference): a zeroed allocation and a
    few item writes cost less than copying a cached mask in Python."""
    m = np.zeros(size(), _I8)
    for i in idx:
        m[i] = 1
    return m


mask_from: Callable[[Iterable[int]], np.ndarray] = mask_from_py
"""The legal-action mask (int8, 1 = legal) with ones at ``idx`` (a new, writable array): the C
extension's ``Masker`` (a zero array made by numpy's C API, the ones written into it) when it is
built, else ``mask_from_py``; ``meloch.rl.native.use`` switches."""


NATIVE = False
"""Whether ``indices`` and ``mask_from`` run in C."""


def _use(on: bool) -> None:
    """Switch ``indices`` and ``mask_from`` to the C ``Indexer`` and ``Masker`` (``on``; the
    extension must be built) or to ``indices_py`` and ``mask_from_py``."""
    global indices, mask_from, NATIVE
    mods = native.modules() if on else None
    indices, mask_from, NATIVE = indices_py, mask_from_py, False
    if mods is not None:
        try:
            indices = mods[1].Indexer(encode=encode, action_type=Action).indices
            mask_from = mods[1].Masker(size())
            NATIVE = True
        except (TypeError, ValueError, AttributeError) as e:
            indices, mask_from = indices_py, mask_from_py
            native.broken(e)


def mask(legal: Sequence[Action]) -> np.ndarray:
    """The legal-action mask (int8, 1 = legal) of ``legal`` (a new array)."""
    return mask_from(indices(legal))


def mask_of(legal: dict[int, Action]) -> np.ndarray:
    """The mask of a ``legal_map`` (a new array)."""
    return mask_from(legal)


def no_mask() -> np.ndarray:
    """The all-zero mask of an agent that is not deciding (a new array)."""
    return np.zeros(size(), _I8)


def decode_at(index: int, idx: list[int], legal: Sequence[Action]) -> Action:
    """``decode`` against the ``indices(legal)`` already computed for this decision: the first legal
    action with that index (a list search in C over a handful of ints)."""
    try:
        return legal[idx.index(index)]
    except ValueError:
        _bad(index)


def decode(index: int, legal: Sequence[Action]) -> Action:
    """The legal action of index ``index``; ``ActionSpaceError`` when none of ``legal`` has it."""
    return decode_in(index, legal_map(legal))


def decode_in(index: int, legal: dict[int, Action]) -> Action:
    """``decode`` against a ``legal_map`` already built for this decision."""
    a = legal.get(int(index))
    if a is None:
        _bad(int(index))
    return a


def _bad(index: int) -> NoReturn:
    """Raise the ``ActionSpaceError`` of an index that no legal action has."""
    if not 0 <= index < size():
        raise ActionSpaceError(f"action index {index} is outside the space 0..{size() - 1}")
    raise ActionSpaceError(f"action index {index} ({' '.join(action_keys()[index])}) is not legal now")


_use(native.load() is not None)
