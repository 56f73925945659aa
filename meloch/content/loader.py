"""Load and validate the content files into a frozen ``Content``.

Each YAML file is read with ``yaml.safe_load``, its effect shorthands are expanded (see
``docs/content.md``), then it is decoded with ``msgspec.convert(..., strict=True)``, which rejects
unknown keys and wrong types. Cross-checks (counts, references, vocabularies) follow. Every
failure raises ``ContentError`` naming the file, the entry and the field.
"""

from __future__ import annotations

import functools
import itertools
import re
import typing
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import msgspec
import yaml

from meloch.content import vocab
from meloch.content.schema import (
    AutomaContent,
    CombatCardType,
    Content,
    CorruptionToken,
    DiscoveryCard,
    Effect,
    EncounterCard,
    Faction,
    FactoryCard,
    MapSide,
    MapToken,
    Mech,
    MelochCard,
    PlayerMat,
    Role,
    Supply,
    TrackSide,
)

DATA_DIR = Path(__file__).parent / "data"

T = TypeVar("T")

COST_FIELDS = frozenset({"cost", "solve_cost"})
"""Struct fields whose effects are costs (ops restricted to ``vocab.COST_OPS``)."""


class ContentError(Exception):
    """A content file is missing, malformed or inconsistent."""

    def __init__(self, file: str, entry: str, field: str, message: str) -> None:
        self.file = file
        self.entry = entry
        self.field = field
        self.message = message
        parts = [file]
        if entry:
            parts.append(f"entry '{entry}'")
        if field:
            parts.append(f"field '{field}'")
        super().__init__(": ".join([*parts, message]))


# ---------------------------------------------------------------- paths -> entry + field

Path_ = list[str | int]


def _ident(node: Any) -> str | None:
    """How an entry is named in messages: its id, an edge's ends, a column, a token's face."""
    if not isinstance(node, dict):
        return None
    if isinstance(node.get("id"), str | int):
        return str(node["id"])
    if "a" in node and "b" in node:
        return f"edge {node['a']}-{node['b']}"
    if "column" in node:
        return f"column {node['column']}"
    if "colour" in node and "value" in node:
        return f"{node['colour']}-{node['value']}"
    return None


def _fmt_field(segments: Iterable[str | int]) -> str:
    out = ""
    for seg in segments:
        out += f"[{seg}]" if isinstance(seg, int) else (f".{seg}" if out else str(seg))
    return out


def _locate(root: Any, path: Path_) -> tuple[str, str]:
    """Split a path into (entry, field): the entry is the chain of named list elements."""
    idents: list[str] = []
    rest_start = 0
    node = root
    root_ident = _ident(root)
    if root_ident is not None:
        idents.append(root_ident)
    for i, seg in enumerate(path):
        try:
            node = node[seg]
        except (KeyError, IndexError, TypeError):
            break
        if isinstance(seg, int):
            ident = _ident(node)
            if ident is not None:
                idents.append(ident)
                rest_start = i + 1
            elif not idents:
                idents.append(f"#{seg}")
                rest_start = i + 1
    return "/".join(idents), _fmt_field(path[rest_start:])


_SEG = re.compile(r"\.([A-Za-z_][A-Za-z_0-9]*)|\[(\d+)\]|\[\"((?:[^\"\\]|\\.)*)\"\]")


def _parse_msgspec_path(text: str) -> Path_:
    out: Path_ = []
    for m in _SEG.finditer(text.removeprefix("$")):
        if m.group(1) is not None:
            out.append(m.group(1))
        elif m.group(2) is not None:
            out.append(int(m.group(2)))
        else:
            out.append(m.group(3))
    return out


def _from_validation(file: str, root: Any, err: msgspec.ValidationError) -> ContentError:
    text = str(err)
    message, _, where = text.partition(" - at `")
    path = _parse_msgspec_path(where.rstrip("`")) if where else []
    m = re.match(r"Object (?:contains unknown|missing required) field `([^`]+)`", message)
    if m:
        path.append(m.group(1))
        message = "unknown key" if "unknown" in message else "missing required key"
    message = message.replace("`", "")
    message = message[:1].lower() + message[1:]
    entry, field = _locate(root, path)
    return ContentError(file, entry, field, message)


# ---------------------------------------------------------------- effect shorthand


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


class _Normalizer:
    """Type-directed walk that expands effect shorthands and checks effect vocabularies."""

    def __init__(self, file: str, root: Any) -> None:
        self.file = file
        self.root = root

    def fail(self, path: Path_, message: str) -> ContentError:
        entry, field = _locate(self.root, path)
        return ContentError(self.file, entry, field, message)

    def value(self, value: Any, tp: Any, path: Path_, cost: bool = False) -> Any:
        if tp is Effect:
            return self.effect(value, path, cost)
        origin = typing.get_origin(tp)
        if origin is tuple or origin is list:
            args = typing.get_args(tp)
            if isinstance(value, list) and (origin is list or (len(args) == 2 and args[1] is Ellipsis)):
                return [self.value(v, args[0], [*path, i], cost) for i, v in enumerate(value)]
            return value
        if origin is dict and isinstance(value, dict):
            vt = typing.get_args(tp)[1]
            return {k: self.value(v, vt, [*path, k]) for k, v in value.items()}
        if isinstance(tp, type) and issubclass(tp, msgspec.Struct) and isinstance(value, dict):
            hints = _hints(tp)
            return {
                k: (self.value(v, hints[k], [*path, k], k in COST_FIELDS) if k in hints else v)
                for k, v in value.items()
            }
        return value

    def effect(self, value: Any, path: Path_, cost: bool) -> Any:
        if isinstance(value, str):
            d: dict[str, Any] = self.parse(value, path)
        elif isinstance(value, dict):
            d = dict(value)
            if "one_of" in d and "op" not in d:
                d["op"] = "one_of"
        else:
            return value  # msgspec reports the type error
        if "one_of" in d and isinstance(d["one_of"], list):
            d["one_of"] = [
                [self.effect(e, [*path, "one_of", i, j], cost) for j, e in enumerate(alt)]
                if isinstance(alt, list)
                else alt
                for i, alt in enumerate(d["one_of"])
            ]
        self.check(d, path, cost)
        return d

    def parse(self, text: str, path: Path_) -> dict[str, Any]:
        if "/" in text:
            alts = [a.strip() for a in text.split("/")]
            if any(not a for a in alts):
                raise self.fail(path, f"bad effect shorthand {text!r}")
            return {"op": "one_of", "one_of": [[a] for a in alts]}
        tokens = text.split()
        if not tokens or len(tokens) > 3:
            raise self.fail(path, f"bad effect shorthand {text!r}: expected 'op [n] [arg]'")
        d: dict[str, Any] = {"op": tokens[0]}
        rest = tokens[1:]
        if rest and re.fullmatch(r"-?\d+", rest[0]):
            d["n"] = int(rest.pop(0))
        if len(rest) > 1:
            raise self.fail(path, f"bad effect shorthand {text!r}: expected 'op [n] [arg]'")
        if rest:
            d["arg"] = rest[0]
        return d

    def check(self, d: dict[str, Any], path: Path_, cost: bool) -> None:
        op = d.get("op")
        if not isinstance(op, str):
            return  # msgspec reports it
        if op not in vocab.EFFECT_OPS:
            raise self.fail([*path, "op"], f"unknown effect op {op!r}")
        if cost and op not in vocab.COST_OPS:
            raise self.fail([*path, "op"], f"effect op {op!r} cannot be a cost")
        arg = d.get("arg", "")
        if op == "resource" and arg not in vocab.RESOURCE_ARGS | {""}:
            raise self.fail([*path, "arg"], f"unknown resource {arg!r}")
        if op == "worker" and arg not in vocab.WORKER_ARGS | {""}:
            raise self.fail([*path, "arg"], f"unknown worker colour {arg!r}")
        if op == "map_token_at" and arg not in vocab.MAP_TOKEN_AT_ARGS | {""}:
            raise self.fail([*path, "arg"], f"map_token_at takes adjacent or any, not {arg!r}")
        if op == "custom" and not arg:
            raise self.fail([*path, "arg"], "custom effect needs a handler name in arg")
        if op == "one_of" and not d.get("one_of"):
            raise self.fail([*path, "one_of"], "one_of needs at least one alternative")


# ---------------------------------------------------------------- reading files


def _read(base: Path, rel: str) -> Any:
    path = base / rel
    if not path.is_file():
        raise ContentError(rel, "", "", f"file not found in {base}")
    try:
        with path.open(encoding="utf-8") as fh:
            return yaml.safe_load(fh)
    except yaml.YAMLError as exc:
        raise ContentError(rel, "", "", f"YAML error: {exc}") from exc


def _decode(base: Path, rel: str, tp: type[T]) -> tuple[T, Any]:
    raw = _read(base, rel)
    data = _Normalizer(rel, raw).value(raw, tp, [])
    try:
        return msgspec.convert(data, type=tp, strict=True), raw
    except msgspec.ValidationError as exc:
        raise _from_validation(rel, raw, exc) from exc


def _by_id(rel: str, items: Iterable[T]) -> dict[str, T]:
    out: dict[str, T] = {}
    for item in items:
        key = getattr(item, "id")  # noqa: B009
        if key in out:
            raise ContentError(rel, key, "id", "duplicate id")
        out[key] = item
    return out


def load_dir(path: str | Path) -> Content:
    """Load and validate every content file under ``path`` (uncached)."""
    base = Path(path)
    files: dict[str, str] = {}

    def dec(rel: str, tp: type[T]) -> T:
        value, _ = _decode(base, rel, tp)
        return value

    map_files = sorted(p.relative_to(base).as_posix() for p in (base / "maps").glob("*.yaml"))
    for required in ("maps/jungle.yaml", "maps/desert.yaml"):
        if required not in map_files:
            raise ContentError(required, "", "", f"file not found in {base}")
    maps: dict[str, MapSide] = {}
    for rel in map_files:
        side = dec(rel, MapSide)
        if side.id in maps:
            raise ContentError(rel, side.id, "id", "duplicate map id")
        maps[side.id] = side
        files[f"map:{side.id}"] = rel

    cards = _with_base(base, "cards.yaml", "cards_expeditions.yaml", tuple[DiscoveryCard, ...], "expeditions")
    content = Content(
        maps=maps,
        tracks=_by_id("tracks.yaml", dec("tracks.yaml", tuple[TrackSide, ...])),
        combat_cards=dec("combat_cards.yaml", tuple[CombatCardType, ...]),
        corruption=dec("corruption.yaml", tuple[CorruptionToken, ...]),
        map_tokens=dec("map_tokens.yaml", tuple[MapToken, ...]),
        supply=dec("supply.yaml", Supply),
        meloch_cards=dec("meloch_cards.yaml", tuple[MelochCard, ...]),
        factions=_by_id("factions.yaml", dec("factions.yaml", tuple[Faction, ...])),
        mats=_by_id("mats.yaml", dec("mats.yaml", tuple[PlayerMat, ...])),
        encounters=_with_base(base, "encounters.yaml", "encounters_scythe.yaml", tuple[EncounterCard, ...]),
        factory_cards=_with_base(base, "factory_cards.yaml", "factory_cards_scythe.yaml", tuple[FactoryCard, ...]),
        mechs=_by_id("mechs.yaml", dec("mechs.yaml", tuple[Mech, ...])),
        cards=_by_id("cards.yaml", cards),
        automa=dec("automa.yaml", AutomaContent) if (base / "automa.yaml").exists() else None,
    )
    _check(content, files)
    _check_automa(content)
    return content


_Card = TypeVar("_Card", EncounterCard, FactoryCard, DiscoveryCard)


def _with_base(base: Path, rel: str, rel_base: str, tp: type[tuple[_Card, ...]],
               base_set: str = "scythe") -> tuple[_Card, ...]:
    """The Duel's cards (``rel``, every entry ``set: duel``) followed by a base game's optional
    mix-in (``rel_base``, every entry ``set: <base_set>``; the file may be absent or an empty list)."""
    duel: tuple[_Card, ...] = _decode(base, rel, tp)[0]
    extra: tuple[_Card, ...] = ()
    if (base / rel_base).is_file() and _read(base, rel_base) is not None:
        extra = _decode(base, rel_base, tp)[0]
    for f, items, want in ((rel, duel, "duel"), (rel_base, extra, base_set)):
        for item in items:
            if item.set != want:
                raise ContentError(f, item.id, "set", f"entries of {f} have set: {want}")
    ids = {item.id for item in duel}
    for item in extra:
        if item.id in ids:
            raise ContentError(rel_base, item.id, "id", f"duplicate id (also in {rel})")
        ids.add(item.id)
    return duel + extra


@functools.cache
def _load_cached() -> Content:
    return load_dir(DATA_DIR)


def load() -> Content:
    """The package's content, loaded once and shared (it is frozen)."""
    return _load_cached()


# ---------------------------------------------------------------- cross-checks

COMBAT_TOTAL = 60
COMBAT_TYPES = 8
CORRUPTION_SET = {("guile", 2): 4, ("guile", 3): 4, ("power", 2): 2, ("power", 3): 2}
MAP_TOKENS = 9
NUMBERED = frozenset(str(i) for i in range(1, 11))
BASE_NUMBERED = frozenset(str(i) for i in range(1, 21))
"""Base Expeditions' board numbers its locations 1-20; its quests may name any of them."""


def _check(c: Content, files: dict[str, str]) -> None:
    for side in c.maps.values():
        _check_map(files[f"map:{side.id}"], side)
    _check_tracks(c)
    _check_shared(c)
    _check_scythe(c)
    _check_expeditions(c)


def _unique(rel: str, ids: Iterable[str]) -> None:
    seen: set[str] = set()
    for i in ids:
        if i in seen:
            raise ContentError(rel, i, "id", "duplicate id")
        seen.add(i)


def _check_map(rel: str, m: MapSide) -> None:
    def fail(entry: str, field: str, msg: str) -> ContentError:
        return ContentError(rel, f"{m.id}/{entry}" if entry else m.id, field, msg)

    _unique(rel, (loc.id for loc in m.locations))
    locs = {loc.id: loc for loc in m.locations}
    numbered = [loc for loc in m.locations if loc.kind == "location"]
    for loc in m.locations:
        if loc.kind == "location":
            if loc.number is None or loc.id != str(loc.number) or loc.id not in NUMBERED:
                raise fail(loc.id, "number", "a numbered location needs number 1..10 equal to its id")
            if loc.terrain in ("lake", "home"):
                raise fail(loc.id, "terrain", f"terrain {loc.terrain!r} is not for a numbered location")
            if (loc.terrain == "factory") != loc.factory:
                raise fail(loc.id, "factory", "factory: true goes with terrain factory and vice versa")
        else:
            if loc.terrain != loc.kind:
                raise fail(loc.id, "terrain", f"a {loc.kind} has terrain {loc.kind!r}")
            if loc.number is not None or loc.gather or loc.revealed or loc.map_token or loc.corruption:
                raise fail(loc.id, "kind", f"a {loc.kind} has no number, benefits, tokens or corruption")
            if loc.tunnel or loc.factory:
                raise fail(loc.id, "kind", f"a {loc.kind} is neither tunnel nor Factory")
        if not (0 <= loc.x <= 10 and 0 <= loc.y <= 8):
            raise fail(loc.id, "x", "coordinates must lie in x 0..10, y 0..8")
        if loc.corruption != bool(loc.revealed):
            raise fail(loc.id, "revealed", "corruption locations (and only they) have a revealed benefit")
    if sorted(loc.id for loc in numbered) != sorted(NUMBERED):
        raise fail("", "locations", "need exactly the 10 numbered locations 1..10")
    for kind, want in (("lake", 2), ("home", 2)):
        got = sum(loc.kind == kind for loc in m.locations)
        if got != want:
            raise fail("", "locations", f"need exactly {want} {kind} entries, found {got}")
    for fname, home in (("home_scythe", m.home_scythe), ("home_expeditions", m.home_expeditions)):
        if home not in locs or locs[home].kind != "home":
            raise fail("", fname, f"{home!r} is not a home base of this map")
    if m.home_scythe == m.home_expeditions:
        raise fail("", "home_expeditions", "the two home bases must differ")
    factories = [loc.id for loc in numbered if loc.factory]
    if len(factories) != 1:
        raise fail("", "locations", f"need exactly one Factory, found {factories}")
    for flag in ("map_token", "corruption"):
        got = sum(getattr(loc, flag) for loc in numbered)
        if got != 6:
            raise fail("", "locations", f"need exactly 6 {flag} locations, found {got}")
    terrains = Counter(loc.terrain for loc in numbered if not loc.factory)
    for terrain, count in terrains.items():
        if count < 2:
            lid = next(loc.id for loc in numbered if loc.terrain == terrain)
            raise fail(lid, "terrain", f"terrain {terrain!r} is used only once (Warp needs 2)")

    seen: set[frozenset[str]] = set()
    adj: dict[str, set[str]] = {lid: set() for lid in locs}
    for e in m.edges:
        name = f"edge {e.a}-{e.b}"
        for end in ("a", "b"):
            if getattr(e, end) not in locs:
                raise fail(name, end, f"unknown location {getattr(e, end)!r}")
        if e.a == e.b:
            raise fail(name, "b", "an edge joins two different locations")
        key = frozenset((e.a, e.b))
        if key in seen:
            raise fail(name, "a", "duplicate edge")
        seen.add(key)
        adj[e.a].add(e.b)
        adj[e.b].add(e.a)
    start = next(iter(locs))
    reached = {start}
    todo = [start]
    while todo:
        for nb in adj[todo.pop()]:
            if nb not in reached:
                reached.add(nb)
                todo.append(nb)
    if len(reached) != len(locs):
        missing = sorted(set(locs) - reached)
        raise fail("", "edges", f"the map is not connected: cannot reach {missing}")
    land = {
        (e.b if e.a == m.home_scythe else e.a)
        for e in m.edges
        if m.home_scythe in (e.a, e.b) and not e.river
    }
    land_numbered = sorted(i for i in land if locs[i].kind == "location")
    if len(land_numbered) != 2:
        raise fail(m.home_scythe, "edges", f"the Scythe home base must touch exactly 2 locations over land, "
                   f"touches {land_numbered}")


def _check_tracks(c: Content) -> None:
    rel = "tracks.yaml"
    for side in c.tracks.values():
        cols = sorted(cat.column for cat in side.categories)
        if cols != list(range(1, 9)):
            raise ContentError(rel, side.id, "categories", f"need columns 1..8 once each, found {cols}")
        for cat in side.categories:
            entry = f"{side.id}/column {cat.column}"
            for role in ("scythe", "expeditions"):
                req = getattr(cat, role)
                if req.metric not in vocab.METRICS:
                    raise ContentError(rel, entry, f"{role}.metric", f"unknown metric {req.metric!r}")
                if (req.metric == "combat") != cat.combat:
                    raise ContentError(rel, entry, "combat", "combat: true exactly when the metric is combat")


def _check_shared(c: Content) -> None:
    rel = "combat_cards.yaml"
    _unique(rel, (t.id for t in c.combat_cards))
    if len(c.combat_cards) != COMBAT_TYPES:
        raise ContentError(rel, "", "", f"need {COMBAT_TYPES} combat-card types, found {len(c.combat_cards)}")
    for t in c.combat_cards:
        if t.combat_effect not in vocab.COMBAT_EFFECTS:
            raise ContentError(rel, t.id, "combat_effect", f"unknown combat effect {t.combat_effect!r}")
        if len(t.discard) != 1:
            raise ContentError(rel, t.id, "discard", "a combat card has exactly one discard benefit")
    total = sum(t.count for t in c.combat_cards)
    if total != COMBAT_TOTAL:
        last = c.combat_cards[-1].id
        raise ContentError(rel, last, "count", f"combat cards total {total}, need {COMBAT_TOTAL}")

    rel = "corruption.yaml"
    got = Counter[tuple[str, int]]()
    for tok in c.corruption:
        got[(tok.colour, tok.value)] += tok.count
    if dict(got) != CORRUPTION_SET:
        bad = next(k for k in CORRUPTION_SET.keys() | got.keys() if got[k] != CORRUPTION_SET.get(k, 0))
        raise ContentError(rel, f"{bad[0]}-{bad[1]}", "count",
                           f"corruption tokens must be {CORRUPTION_SET} (12 in all), found {dict(got)}")

    rel = "map_tokens.yaml"
    _unique(rel, (t.id for t in c.map_tokens))
    if len(c.map_tokens) != MAP_TOKENS:
        raise ContentError(rel, "", "", f"need exactly {MAP_TOKENS} map tokens, found {len(c.map_tokens)}")

    rel = "meloch_cards.yaml"
    _unique(rel, (m.id for m in c.meloch_cards))
    if len(c.meloch_cards) != 10:
        raise ContentError(rel, "", "", f"need exactly 10 Meloch cards, found {len(c.meloch_cards)}")
    if c.supply.resources_per_kind < 1 or c.supply.expeditions_workers_per_colour < 1:
        raise ContentError("supply.yaml", "", "resources_per_kind", "supply counts must be positive")


def _check_scythe(c: Content) -> None:
    rel = "factions.yaml"
    for f in c.factions.values():
        if f.ability not in vocab.ABILITIES:
            raise ContentError(rel, f.id, "ability", f"unknown ability {f.ability!r}")
        if len(f.mechs) != 4:
            raise ContentError(rel, f.id, "mechs", f"a faction has 4 mech abilities, found {len(f.mechs)}")
        for i, mech in enumerate(f.mechs):
            if mech.ability not in vocab.ABILITIES:
                raise ContentError(rel, f.id, f"mechs[{i}].ability", f"unknown ability {mech.ability!r}")
        placing = f.ability in vocab.TOKEN_ABILITIES
        if placing != (f.tokens > 0):
            raise ContentError(rel, f.id, "tokens", "tokens > 0 exactly for the token-placing abilities "
                               f"{sorted(vocab.TOKEN_ABILITIES)}")
        if f.traps and f.tokens != len(f.traps):
            raise ContentError(rel, f.id, "tokens", f"one token per trap: tokens must be {len(f.traps)}")
        if bool(f.traps) != (f.ability == "maifuku"):
            raise ContentError(rel, f.id, "traps", "traps are listed exactly for the maifuku ability")
        _unique(rel, (t.id for t in f.traps))
        for t in f.traps:
            if not t.effects:
                raise ContentError(rel, f"{f.id}/{t.id}", "effects", "a trap needs an effect")

    rel = "mats.yaml"
    for mat in c.mats.values():
        if len(mat.sections) != 4:
            raise ContentError(rel, mat.id, "sections", f"a mat has 4 sections, found {len(mat.sections)}")
        for attr in ("top", "bottom"):
            vals = [getattr(s, attr) for s in mat.sections]
            if len(set(vals)) != 4:
                raise ContentError(rel, mat.id, f"sections.{attr}", f"each {attr} action once, found {vals}")
        for i, s in enumerate(mat.sections):
            if not 0 <= s.bottom_cost_min <= s.bottom_cost:
                raise ContentError(rel, mat.id, f"sections[{i}].bottom_cost_min", "need 0 <= min <= cost")
        boxes = sum(s.bottom_cost - s.bottom_cost_min for s in mat.sections)
        if boxes != 6:
            raise ContentError(rel, mat.id, "sections", f"upgradeable cost boxes sum to {boxes}, need 6")

    rel = "encounters.yaml"
    _unique(rel, (e.id for e in c.encounters))
    duel = [e for e in c.encounters if e.set == "duel"]
    if len(duel) != 6:
        raise ContentError(rel, "", "", f"need exactly 6 encounter cards, found {len(duel)}")
    for enc in c.encounters:
        erel = rel if enc.set == "duel" else "encounters_scythe.yaml"
        if len(enc.options) != 3:
            raise ContentError(erel, enc.id, "options", f"need 3 options, found {len(enc.options)}")
        if not enc.duel_sensible and enc.set == "duel":
            raise ContentError(erel, enc.id, "duel_sensible", "only a base Scythe encounter can be "
                               "non-sensible in the Duel")
    if not any(e.duel_sensible for e in c.encounters if e.set == "scythe") and \
            any(e.set == "scythe" for e in c.encounters):
        raise ContentError("encounters_scythe.yaml", "", "duel_sensible",
                           "at least one base encounter must make sense in the Duel (else redraws never end)")

    rel = "factory_cards.yaml"
    _unique(rel, (f.id for f in c.factory_cards))
    missing = {"19", "20", "21"} - {f.id for f in c.factory_cards if f.set == "duel"}
    if missing:
        raise ContentError(rel, "", "id", f"missing Factory cards {sorted(missing)}")


def _check_expeditions(c: Content) -> None:
    rel = "mechs.yaml"
    for mech in c.mechs.values():
        if mech.ability not in vocab.ABILITIES:
            raise ContentError(rel, mech.id, "ability", f"unknown ability {mech.ability!r}")
        if not 1 <= mech.move_min <= mech.move_max:
            raise ContentError(rel, mech.id, "move_max", "need 1 <= move_min <= move_max")

    kinds = Counter(card.kind for card in c.cards.values() if card.set == "duel")
    for kind in ("item", "meteorite", "quest"):
        if kinds[kind] != 10:
            raise ContentError("cards.yaml", "", "kind", f"need exactly 10 {kind} cards, found {kinds[kind]}")
    for card in c.cards.values():
        rel = "cards.yaml" if card.set == "duel" else "cards_expeditions.yaml"
        if card.set != "duel" and card.kind not in ("item", "meteorite", "quest"):
            raise ContentError(rel, card.id, "kind", "a base Expeditions card mixed in is an item, meteorite or quest")
        if card.kind == "quest":
            locs = card.solve_locations
            if len(locs) != 2 or len(set(locs)) != 2:
                raise ContentError(rel, card.id, "solve_locations", "a quest has 2 different locations")
            # base Expeditions quests may name its board's locations 11-20 (redrawn in the Duel)
            allowed, span = (NUMBERED, "1..10") if card.set == "duel" else (BASE_NUMBERED, "1..20")
            for lid in locs:
                if lid not in allowed:
                    raise ContentError(rel, card.id, "solve_locations", f"{lid!r} is not a location {span}")
            if not card.solve_gain:
                raise ContentError(rel, card.id, "solve_gain", "a quest needs a solve benefit")
        elif card.solve_locations or card.solve_cost or card.solve_gain:
            raise ContentError(rel, card.id, "solve_locations", "only quests have solve fields")
        if card.kind == "meteorite" and not card.meld:
            raise ContentError(rel, card.id, "meld", "a meteorite needs a meld bonus")
        if card.kind != "meteorite" and card.meld:
            raise ContentError(rel, card.id, "meld", "only meteorites have a meld bonus")
        if card.ongoing and (card.kind != "item" or card.ongoing not in vocab.ONGOING):
            raise ContentError(rel, card.id, "ongoing", f"unknown item ongoing key {card.ongoing!r}")


# ---------------------------------------------------------------- provenance summary


def _prov(items: Iterable[Any]) -> Counter[str]:
    return Counter(str(i.provenance) for i in items)


def provenance_table(c: Content) -> list[tuple[str, Counter[str]]]:
    """(component type, provenance counts) rows for ``meloch content check``."""
    cards = list(c.cards.values())

    def kind(*ks: str) -> Iterator[DiscoveryCard]:
        return (card for card in cards if card.kind in ks)

    return [
        ("map sides", _prov(c.maps.values())),
        ("map locations", _prov(loc for m in c.maps.values() for loc in m.locations)),
        ("map edges", _prov(e for m in c.maps.values() for e in m.edges)),
        ("triumph categories", _prov(cat for t in c.tracks.values() for cat in t.categories)),
        ("combat card types", _prov(c.combat_cards)),
        ("combat discard benefits", Counter(str(t.discard_provenance) for t in c.combat_cards)),
        ("corruption tokens", _prov(c.corruption)),
        ("map tokens", _prov(c.map_tokens)),
        ("supply", _prov([c.supply])),
        ("Meloch cards", _prov(c.meloch_cards)),
        ("factions", _prov(c.factions.values())),
        ("player mats", _prov(c.mats.values())),
        ("encounter cards", _prov(c.encounters)),
        ("Factory cards", _prov(c.factory_cards)),
        ("Expeditions mechs", _prov(c.mechs.values())),
        ("characters/companions", _prov(kind("character", "companion"))),
        ("discovery cards", _prov(kind("item", "meteorite", "quest"))),
    ]


__all__ = ["DATA_DIR", "ContentError", "load", "load_dir", "provenance_table"]


def _check_automa(c: Content) -> None:
    """Levels 1-5 with strictly fewer support cards as the level rises; five star boxes on the track."""
    a = c.automa
    if a is None:
        return
    levels = [lv.level for lv in a.levels]
    if levels != [1, 2, 3, 4, 5]:
        raise ContentError("automa.yaml", "levels", "level", f"levels must be 1..5 in order, got {levels}")
    n_support = sum(1 for x in a.action_cards if x.kind == "support")
    roles: tuple[Role, ...] = ("scythe", "expeditions")
    for role in roles:
        sizes = [lv.for_side(role).support_cards for lv in a.levels]
        if any(b >= s for s, b in itertools.pairwise(sizes)) or sizes[0] > n_support or sizes[-1] < 1:
            raise ContentError("automa.yaml", "levels", "support_cards",
                               f"must fall strictly from level 1 to 5 within 1..{n_support} ({role}), got {sizes}")
    tracks = [("track", a.track), *((f"levels[{lv.level}].track", lv.track) for lv in a.levels if lv.track),
              *((f"levels[{lv.level}].sides.{r}.track", o.track) for lv in a.levels for r, o in lv.sides.items()
                if o.track)]
    for where, t in tracks:
        if len(t.star_boxes) != 5 or any(not 1 <= b <= t.length for b in t.star_boxes):
            raise ContentError("automa.yaml", where, "star_boxes", "five boxes within the track's length")
    for side in ("scythe", "expeditions"):
        if not any(s.side == side for s in a.support_cards):
            raise ContentError("automa.yaml", "support_cards", "side", f"no support card for the {side} side")
