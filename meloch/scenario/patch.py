"""The declarative state patch of a scenario file.

A patch is a mapping applied to a state in this order: plain paths (file order), hands and piles,
deck tops and lakes, ``turn_of``:

- **plain paths** (``seats.0.coins: 5``, ``seats.1.loc: "7"``, ``active: 0``, ``track: [[1], [], ...]``):
  replace the value at a dotted path of the state's JSON form (list indices are numbers). The
  field must exist and the value must have the field's type (msgspec validates the whole state).
- **hands by name** (``seats.N.combat_cards: [ambush, swarm_tactics]`` or instance ids; for an
  Expeditions seat ``seats.N.hand: [q01, i03, nikte]``): the seat's hand becomes exactly these
  cards. Each is taken from wherever it is; a card taken from anywhere but the deck is replaced
  there by a card from the deck, and the cards the seat held before go back under the deck, so
  every card stays in exactly one place.
- **deck tops** (``combat_deck_top: [ambush, ...]`` by combat type, ``discovery_deck_top``,
  ``encounter_deck_top``, ``meloch_deck_top`` by card id): the listed cards are drawn first, in
  that order, found and moved the same way.
- **discovery zones by id** (``seats.N.active: [[nikte, green], i05]``, ``seats.N.solved`` /
  ``upgraded`` / ``melded``): like ``hand``, the zones of one seat set together.
- **``turn_of: N``**: seat N starts a fresh turn now (``active`` is N, no combat, no turn flags, the
  decision stack is N's first decision of a turn).

After the patch the state must pass ``invariants.check`` (component conservation, limits); any
failure raises ``PatchError`` naming the key.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import msgspec

from meloch.engine import flow
from meloch.engine.cards import combat_types, discovery_deck_ids
from meloch.engine.game_content import active
from meloch.engine.model import State
from meloch.scenario import invariants


class PatchError(ValueError):
    """A patch key names an unknown field, has a value of the wrong type, or breaks an invariant."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"patch {key}: {message}")
        self.key = key
        self.message = message


_DECK_TOPS = ("combat_deck_top", "discovery_deck_top", "encounter_deck_top", "meloch_deck_top")
_ENC = msgspec.json.Encoder()


_SEGMENT = re.compile(r'"([^"]*)"|([^."]+)')


def _split(path: str) -> list[str | int]:
    """Dotted path -> segments: a number is a list index; a quoted segment (``corruption."10"``)
    is a map key even when it looks like a number. ``""`` or ``.`` is the root (no segment)."""
    if path in ("", "."):
        return []
    out: list[str | int] = []
    pos = 0
    while True:
        m = _SEGMENT.match(path, pos)
        if m is None:
            raise KeyError(f"bad path {path!r} at character {pos}: empty segment or stray quote")
        quoted, plain = m.group(1), m.group(2)
        if quoted is not None:
            out.append(quoted)
        elif plain.lstrip("-").isdigit():
            out.append(int(plain))
        else:
            out.append(plain)
        pos = m.end()
        if pos == len(path):
            return out
        if path[pos] != ".":
            raise KeyError(f"bad path {path!r} at character {pos}: expected '.'")
        pos += 1


def _has(cur: Any, seg: str | int) -> bool:
    if isinstance(cur, dict):
        return isinstance(seg, str) and seg in cur
    return isinstance(cur, list) and isinstance(seg, int) and -len(cur) <= seg < len(cur)


def resolve(root: Any, path: str) -> Any:
    """The value at a dotted path of a JSON-like value; a final ``len`` segment gives a length.

    Raises ``KeyError`` with the first segment that does not exist."""
    cur = root
    done: list[str] = []
    for seg in _split(path):
        if seg == "len" and isinstance(cur, list | dict | str) and not (isinstance(cur, dict) and "len" in cur):
            return len(cur)
        if _has(cur, seg):
            cur = cur[seg]
        else:
            where = ".".join(done) or "the state"
            if isinstance(cur, dict):
                known = ", ".join(sorted(str(k) for k in cur))
                raise KeyError(f"{where} has no field {seg!r} (fields: {known})")
            if isinstance(cur, list):
                raise KeyError(f"{where} has {len(cur)} entries; {seg!r} is not an index")
            raise KeyError(f"{where} is a {type(cur).__name__}, not a container")
        done.append(str(seg))
    return cur


def _set(root: Any, path: str, value: Any) -> None:
    segs = _split(path)
    if not segs:
        raise KeyError("the whole state cannot be replaced")
    parent = root
    for seg in segs[:-1]:
        if not _has(parent, seg):
            resolve(root, path)  # raises the descriptive KeyError
        parent = parent[seg]
    last = segs[-1]
    if _has(parent, last) and last != "type":
        parent[last] = value
    else:
        resolve(root, path)  # raises the descriptive KeyError
        raise KeyError(f"{path} cannot be set")


def as_data(state: State) -> dict[str, Any]:
    """The JSON form of a state as plain dicts and lists."""
    out: dict[str, Any] = msgspec.json.decode(_ENC.encode(state))
    return out


def to_state(d: dict[str, Any]) -> State:
    return msgspec.convert(d, State)


# ---------------------------------------------------------------- moving cards with accounting


class _Cards:
    """One card family's zones inside the builtins form of a state: every zone is a list whose
    entries are card ids (discovery ids) or instance ids (combat). ``deck`` is the draw pile."""

    def __init__(self, d: dict[str, Any], family: str) -> None:
        self.d = d
        self.family = family
        self.deck: list[Any] = d[f"{family}_deck"]

    def zones(self) -> list[tuple[list[Any], int | None]]:
        """(list, index-in-pair or None) for every zone holding cards of the family, deck first."""
        d = self.d
        if self.family == "combat":
            zs: list[tuple[list[Any], int | None]] = [(d["combat_deck"], None), (d["combat_discard"], None)]
            zs += [(p["combat_cards"], None) for p in d["seats"]]
            return zs
        if self.family == "discovery":
            zs = [(d["discovery_deck"], None), (d["discovery_discard"], None), (d["lakes"], 1)]
            for p in d["seats"]:
                if p.get("type") == "expeditions":
                    zs += [(p["hand"], None), (p["active"], 0), (p["solved"], None), (p["upgraded"], None),
                           (p["melded"], None)]
            return zs
        if self.family == "encounter":
            return [(d["encounter_deck"], None), (d["encounter_used"], None)]
        return [(d["meloch_deck"], None), (d["meloch_row"], 0)]

    def take(self, want: Callable[[Any], bool], avoid: set[Any]) -> Any:
        """Remove and return a card matching ``want`` (not in ``avoid``), deck first; a card taken
        from another zone is replaced there by a deck card outside ``avoid``."""
        for i in range(len(self.deck) - 1, -1, -1):
            if want(self.deck[i]) and self.deck[i] not in avoid:
                return self.deck.pop(i)
        for zone, part in self.zones()[1:]:
            for i, entry in enumerate(zone):
                cid = entry[part] if part is not None else entry
                if not cid or cid in avoid or not want(cid):
                    continue
                j = next((j for j in range(len(self.deck)) if self.deck[j] not in avoid), None)
                if j is None:
                    raise ValueError(f"no {self.family} card left in the deck to take the place of {cid}")
                repl = self.deck.pop(j)
                if part is not None:
                    new = list(entry)
                    new[part] = repl
                    zone[i] = new
                else:
                    zone[i] = repl
                return cid
        raise ValueError("not found")


def _combat_matcher(x: Any, key: str) -> Callable[[Any], bool]:
    types = combat_types()
    if isinstance(x, int) and not isinstance(x, bool):
        if not 0 <= x < len(types):
            raise PatchError(key, f"combat card instance {x} does not exist (0..{len(types) - 1})")
        return lambda c: bool(c == x)
    if isinstance(x, str):
        names = sorted({t.id for t in types})
        if x not in names:
            raise PatchError(key, f"unknown combat card type {x!r}; use one of {', '.join(names)}")
        return lambda c: types[c].id == x
    raise PatchError(key, f"a combat card is a type name or an instance id, not {x!r}")


def _id_matcher(family: str, x: Any, key: str) -> Callable[[Any], bool]:
    c = active()
    known: set[str] = {
        "discovery": set(c.cards),
        "encounter": {e.id for e in c.encounters},
        "meloch": {m.id for m in c.meloch_cards},
    }[family]
    if not isinstance(x, str) or x not in known:
        raise PatchError(key, f"unknown {family} card {x!r}; use one of {', '.join(sorted(known))}")
    return lambda cid: bool(cid == x)


def _set_hand(d: dict[str, Any], key: str, seat: int, field: str, want: list[Any]) -> None:
    family = "combat" if field == "combat_cards" else "discovery"
    if not isinstance(want, list):
        raise PatchError(key, f"expected a list of cards, got {want!r}")
    if seat not in (0, 1):
        raise PatchError(key, "seat index must be 0 or 1")
    p = d["seats"][seat]
    if field not in p:
        raise PatchError(key, f"seat {seat} is a {p.get('type')} seat and has no {field}")
    match = [_combat_matcher(x, key) if family == "combat" else _id_matcher(family, x, key) for x in want]
    cards = _Cards(d, family)
    old = list(p[field])
    p[field].clear()
    deck_ids = discovery_deck_ids(bool(d["setup"].get("base_discoveries")))
    non_deck = [] if family == "combat" else [c for c in old if c not in deck_ids]
    cards.deck[:0] = [c for c in old if family == "combat" or c in deck_ids]
    taken: list[Any] = []
    for x, m in zip(want, match, strict=True):
        if family == "discovery" and x not in deck_ids:
            if x not in non_deck:
                raise PatchError(key, f"{x} is not a deck card and is not in this hand")
            non_deck.remove(x)
            taken.append(x)
            continue
        try:
            taken.append(cards.take(m, set(taken)))
        except ValueError as err:
            raise PatchError(key, f"cannot find a free {x!r}: {err}") from None
    p[field].extend(taken)
    if non_deck:
        raise PatchError(key, f"{', '.join(non_deck)} would leave the game: list it in the hand or "
                         "patch the active row")


DISCOVERY_ZONES = ("hand", "active", "solved", "upgraded", "melded")
"""An Expeditions seat's discovery-card zones a patch may set by card id, applied in this order."""


def _anywhere(cards: _Cards, cid: str) -> bool:
    return any((e[part] if part is not None else e) == cid for zone, part in cards.zones() for e in zone)


def _set_discovery_zones(d: dict[str, Any], seat: int, wanted: list[tuple[str, str, Any]]) -> None:
    """Set some of seat ``seat``'s discovery zones (``wanted``: (key, zone, value)) at once, so a
    character or companion may move between them (``hand: [nohoch]`` with ``active: [[nikte, green]]``).
    Deck cards come from wherever they are (as for hands); the zones' old deck cards go under the
    deck; non-deck cards (character, companion) must stay in one of the patched zones. An
    ``active`` entry is a card id (no worker) or ``[card, worker colour or hero]``."""
    keys = ", ".join(k for k, _, _ in wanted)
    if seat not in (0, 1):
        raise PatchError(keys, "seat index must be 0 or 1")
    p = d["seats"][seat]
    if p.get("type") != "expeditions":
        raise PatchError(keys, f"seat {seat} is a {p.get('type')} seat and has no {wanted[0][1]}")
    deck_ids = discovery_deck_ids(bool(d["setup"].get("base_discoveries")))
    cards = _Cards(d, "discovery")
    pool: list[str] = []  # non-deck cards freed by the patched zones
    parsed: dict[str, list[tuple[str, str | None]]] = {}
    for key, zone, value in wanted:
        if not isinstance(value, list):
            raise PatchError(key, f"expected a list of cards, got {value!r}")
        entries: list[tuple[str, str | None]] = []
        for x in value:
            if zone == "active" and isinstance(x, list) and len(x) == 2 and all(isinstance(y, str) for y in x):
                entries.append((x[0], x[1]))
            elif isinstance(x, str):
                entries.append((x, "" if zone == "active" else None))
            else:
                shape = "a card id or [card, worker]" if zone == "active" else "a card id"
                raise PatchError(key, f"bad entry {x!r}: expected {shape}")
        for cid, _ in entries:
            _id_matcher("discovery", cid, key)  # refuses unknown ids
        parsed[zone] = entries
        old = [e[0] if zone == "active" else e for e in p[zone]]
        p[zone].clear()
        cards.deck[:0] = [c for c in old if c in deck_ids]
        pool += [c for c in old if c not in deck_ids]
    taken: set[str] = set()
    for key, zone, _ in sorted(wanted, key=lambda w: DISCOVERY_ZONES.index(w[1])):
        for cid, worker in parsed[zone]:
            if cid not in deck_ids:
                if cid not in pool:
                    raise PatchError(key, f"{cid} is not a deck card and is not in the zones this patch sets")
                pool.remove(cid)
                got = cid
            elif not _anywhere(cards, cid):
                got = cid  # a plain path of this patch took it out of every zone: place it as is
            else:
                try:
                    got = cards.take(_id_matcher("discovery", cid, key), taken)
                except ValueError as err:
                    raise PatchError(key, f"cannot find a free {cid!r}: {err}") from None
            taken.add(got)
            p[zone].append([got, worker] if zone == "active" else got)
    if pool:
        raise PatchError(keys, f"{', '.join(pool)} would leave the game: list it in one of the zones patched "
                         f"({', '.join(DISCOVERY_ZONES)})")


def _stack(d: dict[str, Any], key: str, want: list[Any]) -> None:
    family = key.removesuffix("_deck_top")
    if not isinstance(want, list):
        raise PatchError(key, f"expected a list of cards (first = drawn first), got {want!r}")
    match = [_combat_matcher(x, key) if family == "combat" else _id_matcher(family, x, key) for x in want]
    cards = _Cards(d, family)
    taken: list[Any] = []
    for x, m in zip(want, match, strict=True):
        try:
            taken.append(cards.take(m, set(taken)))
        except ValueError as err:
            raise PatchError(key, f"cannot find a free {x!r}: {err}") from None
    cards.deck.extend(reversed(taken))


def _set_lakes(d: dict[str, Any], key: str, want: Any) -> None:
    """``lake_cards: {lake-w: i08}``: deal these face-up cards, with the same accounting as hands
    (the lake's old card goes under the deck; the wanted card comes from wherever it is)."""
    if not isinstance(want, dict):
        raise PatchError(key, f"expected a mapping lake -> card, got {want!r}")
    entries = {e[0]: e for e in d["lakes"]}
    cards = _Cards(d, "discovery")
    for lake in want:
        if lake not in entries:
            raise PatchError(key, f"unknown lake {lake!r}; use one of {', '.join(sorted(entries))}")
        if entries[lake][1]:
            cards.deck.insert(0, entries[lake][1])
            entries[lake][1] = ""
    taken: list[Any] = []
    for lake, cid in want.items():
        try:
            taken.append(cards.take(_id_matcher("discovery", cid, key), set(taken)))
        except ValueError as err:
            raise PatchError(key, f"cannot find a free {cid!r}: {err}") from None
        entries[lake][1] = taken[-1]


def apply_patch(state: State, patch: dict[str, Any]) -> State:
    """``state`` with ``patch`` applied (see the module docstring). Raises ``PatchError``."""
    d = as_data(state)
    plain: list[tuple[str, Any]] = []
    hands: list[tuple[str, Any]] = []
    tops: list[tuple[str, Any]] = []
    turn_of: int | None = None
    for key, value in patch.items():
        if not isinstance(key, str):
            raise PatchError(str(key), "patch keys are dotted paths (strings)")
        segs = key.split(".")
        if key == "turn_of":
            if value not in (0, 1) or isinstance(value, bool):
                raise PatchError(key, f"expected seat 0 or 1, got {value!r}")
            turn_of = int(value)
        elif key in _DECK_TOPS or key == "lake_cards":
            tops.append((key, value))
        elif len(segs) == 3 and segs[0] == "seats" and segs[2] in ("combat_cards", *DISCOVERY_ZONES):
            hands.append((key, value))
        else:
            plain.append((key, value))
    for key, value in plain:
        try:
            _set(d, key, value)
        except KeyError as err:
            raise PatchError(key, f"unknown field: {err.args[0]}") from None
        try:
            to_state(d)
        except msgspec.ValidationError as err:
            raise PatchError(key, f"wrong value {value!r}: {err}") from None
    zones: dict[int, list[tuple[str, str, Any]]] = {}
    for key, value in hands:
        segs = key.split(".")
        if not segs[1].isdigit():
            raise PatchError(key, "seat index must be 0 or 1")
        if segs[2] == "combat_cards":
            _set_hand(d, key, int(segs[1]), segs[2], value)
        else:
            zones.setdefault(int(segs[1]), []).append((key, segs[2], value))
    for seat, wanted in sorted(zones.items()):
        _set_discovery_zones(d, seat, wanted)
    for key, value in tops:
        if key == "lake_cards":
            _set_lakes(d, key, value)
        else:
            _stack(d, key, value)
    try:
        s = to_state(d)
    except msgspec.ValidationError as err:
        raise PatchError(", ".join(k for k, _ in plain) or "patch", str(err)) from None
    if turn_of is not None:
        s = fresh_turn(s, turn_of)
    errs = invariants.check(s)
    if errs:
        raise PatchError(", ".join(str(k) for k in patch), "the patched state breaks invariants: " + "; ".join(errs))
    return s


def fresh_turn(state: State, seat: int) -> State:
    """``state`` with seat ``seat`` about to take the first decision of a new turn."""
    from meloch.engine.tx import Tx

    s = msgspec.structs.replace(state, active=seat, combat=None, turn_flags=(), frames=(), events=())
    tx = Tx(s, active())
    flow.START_TURN[flow.role(s, seat)](tx, seat)
    return tx.s
