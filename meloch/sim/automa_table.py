"""The Automa's difficulty table behind ``meloch automa-table`` (issue 12, ``docs/automa.md``).

A *cell* is one side the Automa plays (Scythian = seat 0, Explorer = seat 1), one level and Threat
on or off; an agent plays the other seat. Game ``k`` of every cell uses deal seed ``first_seed + k``
on map side ``MAP_SIDES[k % 2]`` and track side ``TRACK_SIDES[k // 2 % 2]``, so all cells play the
same deals (the level comparisons are paired) and a cell's games cover both map and track sides.
The games of all cells are interleaved (game k of every cell before game k + 1), so a run stopped
early has about as many games in every cell; each game is appended to a JSON-lines file as it ends
and a later run with the same file plays only what is missing (resume). Every game records the
rules of its cell (``cell_rules``: every engine source, every content data file, and of the level
table only the cell's own level as its side plays it): games of other rules are never mixed in, and
retuning one level leaves the other levels' games counted (a level's game reads only its own
level's entry). ``restamp`` moves games recorded with the whole-content ``fingerprint`` of the
current tree (the file format before per-cell rules) to their cell's rules. ``carry_over`` moves
games of an earlier engine to the current rules after re-playing a sample of every cell exactly (an
engine change that keeps the rules: a faster engine, a glance for the research API).

The targets (issue 12), per side: the agent's win rate falls strictly from level 1 to 5, the 95%
Wilson intervals of levels 1, 3 and 5 do not overlap, level 1 is won >= 80%, Threat costs the agent
>= 5 points at the same level, >= 300 games per cell; for ISMCTS-medium, level 5 is won <= 50%.
"""

from __future__ import annotations

import gzip
import hashlib
import itertools
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import msgspec

from meloch.agents import agent_seed, make_agent
from meloch.content import load as load_content
from meloch.content.schema import AutomaContent, Role
from meloch.engine import Setup
from meloch.sim import stats
from meloch.sim.runner import play_game

MAP_SIDES = ("jungle", "desert")
TRACK_SIDES = ("A", "B")
SIDES = ("scythian", "explorer")
"""The side the Automa plays; its seat is the index (the Scythian is seat 0 in the standard duel)."""
ROLE: dict[str, Role] = {"scythian": "scythe", "explorer": "expeditions"}
"""The role the Automa plays on each side (the key of a level's per-side values)."""
AUTOMA_DATA = "automa.yaml"
DEFAULT_CELLS = "1,2,3,4,5,3+threat"
MIN_GAMES = 300
ROOT = Path(__file__).resolve().parents[1]


class TableGame(msgspec.Struct, frozen=True):
    """One game of a cell: ``score`` is the agent's (1 win, 0.5 no winner, 0 loss)."""

    agent: str
    side: str
    level: int
    threat: bool
    k: int
    seed: int
    map_side: str
    track_side: str
    score: float
    reason: str
    turns: int
    cpu_s: float
    rules: str
    """``cell_rules`` of the game's cell: the content and engine it was played with."""


@dataclass(frozen=True)
class Cell:
    agent: str
    side: str
    level: int
    threat: bool

    @property
    def automa(self) -> str:
        return f"automa:{self.level}{'+threat' if self.threat else ''}"

    @property
    def label(self) -> str:
        return f"L{self.level}{' + Threat' if self.threat else ''}"


def _digest(skip: str = "") -> str:
    """A digest of every content data file (but one named ``skip``) and engine source."""
    h = hashlib.sha256()
    for p in sorted([*(ROOT / "content" / "data").rglob("*.yaml"), *(ROOT / "engine").rglob("*.py")]):
        if p.name != skip:
            h.update(str(p.relative_to(ROOT)).encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()[:12]


def fingerprint() -> str:
    """A digest of every content data file and engine source (the games' rules before per-cell
    rules; ``restamp`` reads it)."""
    return _digest()


def base_rules() -> str:
    """A digest of every engine source and every content data file but the Automa's: the part of
    the rules that every cell shares (``cell_rules`` adds the Automa content of the cell's level)."""
    return _digest(skip=AUTOMA_DATA)


def level_rules(automa: AutomaContent, cell: Cell) -> str:
    """A digest of the Automa content a game of ``cell`` plays with: everything but the level
    table, and of it only the cell's level as the cell's side plays it (``level_for``)."""
    lv = msgspec.structs.replace(automa.level_for(cell.level, ROLE[cell.side]), sides={})  # (the other side's)
    own = msgspec.structs.replace(automa, levels=[lv])
    return hashlib.sha256(msgspec.json.encode(own)).hexdigest()[:8]


def rules_of(cells: Iterable[Cell]) -> dict[Cell, str]:
    """``cell_rules`` of each cell (the shared part digested once)."""
    base = base_rules()
    automa = load_content().automa
    assert automa is not None
    return {c: f"{base}.{level_rules(automa, c)}" for c in cells}


def cell_rules(cell: Cell) -> str:
    """The rules a game of ``cell`` is played with: ``base_rules`` and the cell's ``level_rules``."""
    return rules_of([cell])[cell]


def parse_cells(agent: str, text: str, sides: Sequence[str] = SIDES) -> list[Cell]:
    """``1,2,3+threat`` for every side in ``sides`` (a level 1-5, optionally ``+threat``)."""
    out: list[Cell] = []
    for side in sides:
        if side not in SIDES:
            raise ValueError(f"unknown side {side!r}; choose scythian or explorer")
        for item in (x.strip() for x in text.split(",") if x.strip()):
            lv, _, extra = item.partition("+")
            if not lv.isdigit() or not 1 <= int(lv) <= 5 or extra not in ("", "threat"):
                raise ValueError(f"bad cell {item!r}: use a level 1-5, optionally +threat (e.g. 3+threat)")
            out.append(Cell(agent, side, int(lv), extra == "threat"))
    return list(dict.fromkeys(out))


def deal(k: int, first_seed: int = 1) -> tuple[int, str, str]:
    """(seed, map side, track side) of game ``k`` of every cell."""
    return first_seed + k, MAP_SIDES[k % 2], TRACK_SIDES[k // 2 % 2]


def play(cell: Cell, k: int, first_seed: int = 1, turn_limit: int = 300, rules: str = "") -> TableGame:
    seed, map_side, track_side = deal(k, first_seed)
    seat = SIDES.index(cell.side)
    names = [cell.automa, cell.agent] if seat == 0 else [cell.agent, cell.automa]
    agents = [make_agent(n, agent_seed(seed, i)) for i, n in enumerate(names)]
    t = time.process_time()
    rec = play_game(Setup(map_side=map_side, track_side=track_side, turn_limit=turn_limit), seed, agents)
    cpu = time.process_time() - t
    o = rec.outcome
    winner = o.winner if o is not None else None
    score = 0.5 if winner is None else float(winner == 1 - seat)
    return TableGame(cell.agent, cell.side, cell.level, cell.threat, k, seed, map_side, track_side, score,
                     o.reason if o is not None else "unfinished", rec.turns, round(cpu, 3), rules or cell_rules(cell))


ARCHIVE_SUFFIX = ".gz"
"""A games file ending so is a gzip archive of finished tables (``docs/automa/history.jsonl.gz``): read
by ``load`` (so ``--show --rules`` prints an older table), never played into or rewritten."""


def writable(path: Path) -> None:
    """Raise ``ValueError`` if ``path`` is an archive (``ARCHIVE_SUFFIX``): games are appended to a
    plain JSON-lines file, and appending to a gzip file would corrupt it."""
    if path.suffix == ARCHIVE_SUFFIX:
        raise ValueError(f"{path} is a compressed archive of finished tables, read-only (--show only); "
                         "play, --restamp and --carry-over into a .jsonl file")


def load(path: Path) -> list[TableGame]:
    if not path.exists():
        return []
    dec = msgspec.json.Decoder(TableGame)
    out: list[TableGame] = []
    data = path.read_bytes()
    if path.suffix == ARCHIVE_SUFFIX:
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as err:
            raise ValueError(f"{path} is not a gzip archive of table games ({err})") from None
    for i, line in enumerate(data.splitlines(), 1):
        if line.strip():
            try:
                out.append(dec.decode(line))
            except msgspec.DecodeError as err:
                raise ValueError(f"{path}:{i} is not a table game ({err}); every line must be one game "
                                 "as `meloch automa-table` writes it") from None
    return out


def _key(g: TableGame) -> tuple[Cell, int]:
    return Cell(g.agent, g.side, g.level, g.threat), g.k


def run(cells: Sequence[Cell], games: int, out: Path, *, first_seed: int = 1, turn_limit: int = 300,
        max_cpu: float = 0.0, on_game: Callable[[TableGame], None] | None = None, start: int = 0,
        ) -> tuple[int, bool]:
    """Play the missing games ``start .. games - 1`` of ``cells`` (interleaved), appending each to
    ``out``; several processes may split the game numbers between them (a deal depends only on its
    number). Stops early once ``max_cpu`` CPU seconds are spent (0: no limit). Returns (games
    played, stopped early)."""
    writable(out)
    rules = rules_of(cells)
    done = {_key(g) for g in load(out)
            if rules.get(_key(g)[0]) == g.rules and g.seed == deal(g.k, first_seed)[0]}
    cpu0 = time.process_time()
    played = 0
    for k in range(start, games):
        for cell in cells:
            if (cell, k) in done:
                continue
            if max_cpu and time.process_time() - cpu0 >= max_cpu:
                return played, True
            g = play(cell, k, first_seed, turn_limit, rules[cell])
            with out.open("ab") as f:
                f.write(msgspec.json.encode(g) + b"\n")
            played += 1
            if on_game is not None:
                on_game(g)
    return played, False


# ---------------------------------------------------------------- the table and its targets


class Rate(msgspec.Struct, frozen=True):
    games: int
    rate: float
    low: float
    high: float
    turns: float
    """Median game length in turns."""
    cpu_s: float
    """Mean CPU seconds per game."""


def rate(games: Sequence[TableGame]) -> Rate:
    n = len(games)
    score = sum(g.score for g in games)
    low, high = stats.wilson(score, n)
    turns = sorted(g.turns for g in games)
    med = (turns[(n - 1) // 2] + turns[n // 2]) / 2 if n else 0.0
    return Rate(n, score / n if n else 0.0, low, high, med, sum(g.cpu_s for g in games) / n if n else 0.0)


class Target(msgspec.Struct, frozen=True):
    agent: str
    side: str
    text: str
    ok: bool
    detail: str


@dataclass(frozen=True)
class Table:
    rates: dict[Cell, Rate]
    targets: list[Target]
    ignored: int
    """Games in the file played with other rules (not counted)."""
    rules: str
    """The rules counted (``base_rules`` and each cell's level, or the one asked for)."""


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def side_targets(agent: str, side: str, r: dict[tuple[int, bool], Rate]) -> list[Target]:
    """The issue's targets for one agent and side from the cells present."""
    out: list[Target] = []

    def add(text: str, ok: bool, detail: str) -> None:
        out.append(Target(agent, side, text, ok, detail))

    plain = {lv: r[(lv, False)] for lv in range(1, 6) if (lv, False) in r}
    if agent == "heuristic":
        if len(plain) == 5:
            seq = [plain[lv].rate for lv in range(1, 6)]
            add("win rate falls strictly L1 > L2 > L3 > L4 > L5", all(a > b for a, b in itertools.pairwise(seq)),
                " > ".join(_pct(x) for x in seq))
        if all(lv in plain for lv in (1, 3, 5)):
            pairs = [(1, 3), (3, 5), (1, 5)]
            bad = [f"L{a}/L{b}" for a, b in pairs if plain[a].low <= plain[b].high]
            add("95% intervals of L1, L3, L5 do not overlap", not bad, "overlap: " + ", ".join(bad) if bad else
                ", ".join(f"L{lv} [{_pct(plain[lv].low)}, {_pct(plain[lv].high)}]" for lv in (1, 3, 5)))
        if 1 in plain:
            add("L1 won >= 80%", plain[1].rate >= 0.8, _pct(plain[1].rate))
        for (lv, th), x in sorted(r.items()):
            if th and (lv, False) in r:
                diff = r[(lv, False)].rate - x.rate
                add(f"Threat at L{lv} >= 5 points harder", diff >= 0.05,
                    f"{100 * diff:+.1f} points ({_pct(r[(lv, False)].rate)} -> {_pct(x.rate)})")
    if agent == "ismcts:medium" and 5 in plain:
        add("L5 won <= 50% by ismcts:medium", plain[5].rate <= 0.5, _pct(plain[5].rate))
    if r:
        least = min(x.games for x in r.values())
        add(f">= {MIN_GAMES} games per cell", least >= MIN_GAMES, f"fewest {least}")
    return out


def _played_with(rules: str, want: str) -> bool:
    """A game's ``rules`` match ``want``: a whole ``BASE.LEVEL``, or only ``BASE`` (any of its cells)."""
    return rules == want if "." in want else rules.partition(".")[0] == want


def table(games: Iterable[TableGame], rules: str | None = None) -> Table:
    """Rates and targets of every cell in ``games`` played with ``rules`` (default: each cell's
    current ``cell_rules``). ``rules`` is a game's whole rules (``BASE.LEVEL``) or only the shared
    part ``BASE``, which counts every cell played with it."""
    games = list(games)
    current = rules_of({_key(g)[0] for g in games}) if rules is None else {}
    mine: dict[Cell, list[TableGame]] = {}
    ignored = 0
    for g in games:
        cell = _key(g)[0]
        if not _played_with(g.rules, current[cell] if rules is None else rules):
            ignored += 1
            continue
        mine.setdefault(cell, []).append(g)
    order = sorted(mine, key=lambda c: (c.agent != "heuristic", c.agent, SIDES.index(c.side), c.threat, c.level))
    rates = {c: rate(mine[c]) for c in order}
    targets: list[Target] = []
    for agent in dict.fromkeys(c.agent for c in order):
        for side in SIDES:
            r = {(c.level, c.threat): x for c, x in rates.items() if c.agent == agent and c.side == side}
            targets += side_targets(agent, side, r)
    return Table(rates, targets, ignored, rules if rules is not None else f"{base_rules()}.<level>")


def restamp(path: Path) -> int:
    """Give the games in ``path`` recorded with the current tree's whole-content ``fingerprint``
    (so played with exactly the current content and engine) their cell's ``cell_rules``; other
    games are left as they are. Rewrites the file (atomically) and returns how many moved."""
    games = load(path)
    old = fingerprint()
    rules = rules_of({_key(g)[0] for g in games if g.rules == old})
    moved = [msgspec.structs.replace(g, rules=rules[_key(g)[0]]) if g.rules == old else g for g in games]
    n = sum(1 for g in games if g.rules == old)
    if n:
        _rewrite(path, moved)
    return n


def _rewrite(path: Path, games: Iterable[TableGame]) -> None:
    """Replace the games file whole (a new file renamed over it: an interrupted rewrite loses no game)."""
    writable(path)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_bytes(b"".join(msgspec.json.encode(g) + b"\n" for g in games))
    tmp.replace(path)


class CarryOver(msgspec.Struct, frozen=True):
    """What ``carry_over`` did: the games re-played, those that differed, and the games moved."""

    old: str
    """The shared rules (``base_rules``) the games were recorded with."""
    new: str
    replayed: int
    differed: tuple[str, ...]
    """Each re-played game that came out otherwise: cell, game number, recorded vs now."""
    moved: int


def same_result(a: TableGame, b: TableGame) -> bool:
    """The two plays of a deal ended alike: score, reason and number of turns."""
    return (a.score, a.reason, a.turns) == (b.score, b.reason, b.turns)


def _spread(games: Sequence[TableGame], n: int) -> list[TableGame]:
    """``n`` games of one cell spread over its game numbers (both map and track sides among them)."""
    ordered = sorted(games, key=lambda g: g.k)
    if len(ordered) <= n:
        return ordered
    return [ordered[(i * (len(ordered) - 1)) // (n - 1)] for i in range(n)] if n > 1 else ordered[:1]


def carry_over(path: Path, old: str, per_cell: int = 4, turn_limit: int = 300,
               on_game: Callable[[TableGame, TableGame], None] | None = None) -> CarryOver:
    """Carry the games recorded with shared rules ``old`` over to the current engine when an engine
    change kept the rules (a faster engine, a glance for the research API): re-play ``per_cell``
    games of every such cell with the current code (spread over the cell's game numbers) and, only
    if every one ends exactly as recorded (score, reason and number of turns: a game is a long
    chaotic line, so a change in any rule it meets shows), give all of them the current rules.
    A cell's own level part must already be the current one (a level retune is a real change).
    Nothing is rewritten when a game differs; the file is replaced whole (atomically) otherwise."""
    games = load(path)
    new = base_rules()
    if old == new:
        return CarryOver(old, new, 0, (), 0)
    automa = load_content().automa
    assert automa is not None
    cells: dict[Cell, list[TableGame]] = {}
    for g in games:
        base, _, level = g.rules.partition(".")
        cell = _key(g)[0]
        if base == old and level == level_rules(automa, cell):
            cells.setdefault(cell, []).append(g)
    differed: list[str] = []
    replayed = 0
    for cell, mine in cells.items():
        for g in _spread(mine, per_cell):
            again = play(cell, g.k, g.seed - g.k, turn_limit, g.rules)
            replayed += 1
            if on_game is not None:
                on_game(g, again)
            if not same_result(g, again):
                differed.append(f"{cell.agent} vs {cell.automa} as {cell.side}, game {g.k}: recorded "
                                f"{g.score}/{g.reason}/{g.turns} turns, now {again.score}/{again.reason}/{again.turns}")
    if differed or not cells:
        return CarryOver(old, new, replayed, tuple(differed), 0)
    rules = rules_of(cells)
    chosen = {id(g) for mine in cells.values() for g in mine}
    moved = [msgspec.structs.replace(g, rules=rules[_key(g)[0]]) if id(g) in chosen else g for g in games]
    _rewrite(path, moved)
    return CarryOver(old, new, replayed, (), len(chosen))
