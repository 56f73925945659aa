"""Bulk simulation: a grid of configurations, N games each, on local processes or Ray, to Parquet.

Every game is a pure function of its task (setup, seed, agents), played by the one runner
(``meloch.sim.runner.play_game``); its seed comes from ``numpy.random.SeedSequence(root)``: game
``rep`` of configuration ``config`` uses ``SeedSequence(root, spawn_key=(config, rep))``, which is
``SeedSequence(root).spawn(...)[config].spawn(...)[rep]``. So the rows are the same for any number
of workers, any backend and any order of completion, a re-run reproduces every game, and one row
is enough to replay its game (``replay_row``).

A run writes into a directory: ``manifest.json`` (the grid and the root seed) and
``part-NNNNN.parquet`` files of finished games. Running the same grid into the same directory
skips the games already there, which is how an interrupted run resumes.

Per-game figures come from the public side only: the spectator's view at the end and the typed
events of every transition as a spectator sees them (``last_events``).
"""

from __future__ import annotations

import itertools
import json
import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from meloch.agents import AUTOMA_NAMES, agent_names, agent_seed, agent_settings, make_agent, with_engine_seats
from meloch.content import load as load_content
from meloch.engine import (
    VARIANT_ROLES,
    Action,
    ScytheView,
    Setup,
    SetupError,
    State,
    last_events,
    new_game,
    view,
)
from meloch.sim.runner import Hooks, play_game

MANIFEST = "manifest.json"
FORMAT = 1
"""Version of the manifest and row layout."""

AXES = ("maps", "tracks", "variants", "factions", "mats", "mechs", "agents0", "agents1")
"""The grid's axes, each a list of values (``all``: every value the content and registry know)."""


class SimError(ValueError):
    """Bad input for a simulation (unknown axis value, a results directory of another run...)."""


class Grid(msgspec.Struct, frozen=True, kw_only=True):
    """What a run plays: the product of the axes, ``games`` games each, seeded from ``root``."""

    maps: tuple[str, ...] = ("jungle",)
    tracks: tuple[str, ...] = ("A",)
    variants: tuple[str, ...] = ("standard",)
    factions: tuple[str, ...] = ("constantinople",)
    mats: tuple[str, ...] = ("adventurous",)
    mechs: tuple[str, ...] = ("voyager",)
    agents0: tuple[str, ...] = ("random",)
    agents1: tuple[str, ...] = ("random",)
    games: int = 1
    root: int = 0
    turn_limit: int = 300
    only: tuple[str, ...] = ()
    """A slice: ``field=v1,v2`` filters on configuration fields (``track_side=B``); only the
    matching configurations are played, each under its index in the whole grid, so a slice's games
    (ids and seeds) are the whole grid's: a lever screened on one track side pairs with a baseline
    of the whole grid."""


SLICE_FIELDS = ("map_side", "track_side", "variant", "faction", "mat", "mech", "agent0", "agent1")


def parse_only(texts: Sequence[str]) -> tuple[str, ...]:
    """Check ``field=v1,v2`` filters (clear error otherwise) and give them in a canonical form."""
    out: list[str] = []
    for text in texts:
        field_, sep, vals = text.partition("=")
        values = [v.strip() for v in vals.split(",") if v.strip()]
        if not sep or field_.strip() not in SLICE_FIELDS or not values:
            raise SimError(f"--only {text!r}: write FIELD=VALUE[,VALUE...] with FIELD one of {', '.join(SLICE_FIELDS)}")
        out.append(f"{field_.strip()}={','.join(values)}")
    return tuple(out)


def in_slice(grid: Grid, cfg: Config) -> bool:
    """Whether the grid's slice (``Grid.only``) keeps ``cfg``."""
    for f in grid.only:
        name, _, vals = f.partition("=")
        if getattr(cfg, name) not in vals.split(","):
            return False
    return True


def axis_values(axis: str) -> tuple[str, ...]:
    """Every value of ``axis`` (what ``all`` stands for), in a fixed order."""
    c = load_content()
    table: dict[str, Iterable[str]] = {
        "maps": c.maps, "tracks": c.tracks, "variants": VARIANT_ROLES, "factions": c.factions, "mats": c.mats,
        "mechs": c.mechs, "agents0": agent_names(), "agents1": agent_names()}
    if axis not in table:
        raise SimError(f"unknown axis {axis!r}; the axes are {', '.join(AXES)}")
    return tuple(sorted(table[axis]))


def parse_axis(axis: str, text: str) -> tuple[str, ...]:
    """``a,b,c`` or ``all``; every value must be known (clear error otherwise)."""
    known = axis_values(axis)
    if text.strip() == "all":
        return known
    vals = tuple(dict.fromkeys(v.strip() for v in text.split(",") if v.strip()))
    if not vals:
        raise SimError(f"--{axis}: give at least one value, or all")
    bad = [v for v in vals if v not in known and not (axis.startswith("agents") and _registry_name(v))]
    if bad:
        also = f", {', '.join(AUTOMA_NAMES)}, ismcts:N" if axis.startswith("agents") else ""
        raise SimError(f"--{axis}: unknown {', '.join(map(repr, bad))}; choose from {', '.join(known)}{also} or all")
    return vals


def _registry_name(name: str) -> bool:
    """Whether the agent registry makes ``name``: beyond the listed agents, ``ismcts:N`` and the solo
    Automa ``automa:N[+threat]`` (a seat the engine drives: ``setup_of`` gives the setup its option)."""
    try:
        make_agent(name, 0)
    except ValueError:
        return False
    return True


class Config(msgspec.Struct, frozen=True, kw_only=True):
    """One point of the grid. Axes a variant does not use are empty (Scythe vs Scythe has no mech)."""

    map_side: str
    track_side: str
    variant: str
    faction: str = ""
    mat: str = ""
    mech: str = ""
    agent0: str
    agent1: str


def _next(values: Sequence[str], v: str) -> str:
    return values[(values.index(v) + 1) % len(values)]


def setup_of(cfg: Config, turn_limit: int = 300) -> Setup:
    """The setup of a configuration. In the same-role variants seat 1 takes the next faction and
    mat (or the next mech) in the content's order, so that a grid over seat 0 stays one axis. A seat
    named ``automa:N[+threat]`` is the solo Automa (``with_engine_seats``); a setup the rules refuse
    (two Automa seats, the Automa outside the standard duel) raises ``SetupError``."""
    roles = VARIANT_ROLES[cfg.variant]  # type: ignore[index]
    seats: list[dict[str, str]] = []
    for seat, role in enumerate(roles):
        if role == "scythe":
            fac, mat = cfg.faction, cfg.mat
            if seat == 1 and roles[0] == "scythe":
                fac, mat = _next(axis_values("factions"), fac), _next(axis_values("mats"), mat)
            seats.append({"role": role, "faction": fac, "mat": mat})
        else:
            mech = cfg.mech
            if seat == 1 and roles[0] == "expeditions":
                mech = _next(axis_values("mechs"), mech)
            seats.append({"role": role, "mech": mech})
    setup = msgspec.convert({"map_side": cfg.map_side, "track_side": cfg.track_side, "variant": cfg.variant,
                             "seats": seats, "turn_limit": turn_limit}, Setup)
    try:  # an Automa name is a setup option (the runner would add it too; here the grid sees refusals)
        return with_engine_seats(setup, (cfg.agent0, cfg.agent1))
    except ValueError as err:
        raise SetupError(str(err)) from None


def configs(grid: Grid) -> tuple[list[Config], list[tuple[Config, str]]]:
    """The grid's configurations in a fixed order (axes a variant ignores collapse), and those the
    setup rules refuse, with the reason."""
    out: list[Config] = []
    refused: list[tuple[Config, str]] = []
    seen: set[Config] = set()
    for m, t, var, fac, mat, mech, a0, a1 in itertools.product(grid.maps, grid.tracks, grid.variants, grid.factions,
                                                                 grid.mats, grid.mechs, grid.agents0, grid.agents1):
        roles = VARIANT_ROLES[var]  # type: ignore[index]
        sc, ex = "scythe" in roles, "expeditions" in roles
        cfg = Config(map_side=m, track_side=t, variant=var, faction=fac if sc else "", mat=mat if sc else "",
                     mech=mech if ex else "", agent0=a0, agent1=a1)
        if cfg in seen:
            continue
        seen.add(cfg)
        try:
            new_game(setup_of(cfg, grid.turn_limit), 0)
        except SetupError as err:
            refused.append((cfg, str(err)))
            continue
        out.append(cfg)
    return out, refused


def game_seed(root: int, config: int, rep: int) -> int:
    """The seed of game ``rep`` of configuration ``config`` (63 bits, so it fits a Parquet int64)."""
    import numpy as np

    words = np.random.SeedSequence(root, spawn_key=(config, rep)).generate_state(2, np.uint32)
    return ((int(words[0]) << 32) | int(words[1])) & ((1 << 63) - 1)


@dataclass(frozen=True)
class Task:
    """One game to play: all a worker needs, and all its row records."""

    game_id: int
    config_id: int
    rep: int
    seed: int
    config: Config
    turn_limit: int


def tasks(grid: Grid, cfgs: Sequence[Config]) -> Iterator[Task]:
    """The games of the grid's slice; ids and seeds follow each configuration's index in ``cfgs``."""
    for ci, cfg in enumerate(cfgs):
        if not in_slice(grid, cfg):
            continue
        for rep in range(grid.games):
            yield Task(game_id=ci * grid.games + rep, config_id=ci, rep=rep, seed=game_seed(grid.root, ci, rep),
                       config=cfg, turn_limit=grid.turn_limit)


# ---------------------------------------------------------------- one game


class _Figures(Hooks):
    """Collects the per-seat figures from the events a spectator sees."""

    def __init__(self) -> None:
        self.first_seat = -1
        self.claims: tuple[list[tuple[int, str, int]], ...] = ([], [])
        self.combats = [0, 0]
        self.combat_wins = [0, 0]
        self.meloch: tuple[list[str], ...] = ([], [])
        self.end_view: Any = None

    def on_step(self, before: State, action: Action, after: State) -> None:
        if self.first_seat < 0:
            self.first_seat = action.seat
        for e in last_events(after, None):
            d = e.data
            if d is None:
                continue
            kind = type(d).__name__
            if kind == "StarPlaced":
                turn = int(view(after, None).turn)
                self.claims[e.seat].append((int(d.column), str(d.category), turn))  # type: ignore[union-attr]
            elif kind == "CombatResolved":
                for side in (d.attacker, d.defender):  # type: ignore[union-attr]
                    self.combats[side.seat] += 1
                self.combat_wins[d.winner] += 1  # type: ignore[union-attr]
            elif kind == "MelochCardEvent" and not d.placed:  # type: ignore[union-attr]
                self.meloch[e.seat].append(str(d.card))  # type: ignore[union-attr]

    def on_end(self, state: State, record: Any) -> None:
        self.end_view = view(state, None)


_RESOURCE_FIELDS = ("power", "coins", "popularity", "guile", "combat_cards", "resources", "workers")


def _final(seat_view: Any) -> dict[str, int | None]:
    """A seat's final figures from the spectator's view (None where the role has no such figure)."""
    out: dict[str, int | None] = {k: None for k in _RESOURCE_FIELDS}
    out["power"] = int(seat_view.power)
    out["coins"] = int(seat_view.coins)
    out["combat_cards"] = int(seat_view.combat_cards)
    out["workers"] = len(seat_view.workers)
    if isinstance(seat_view, ScytheView):
        out["popularity"] = int(seat_view.popularity)
        out["resources"] = sum(int(r[2]) for r in seat_view.resources)
    else:
        out["guile"] = int(seat_view.guile)
    return out


def play_task(task: Task) -> dict[str, Any]:
    """Play one game and return its row."""
    cfg = task.config
    setup = setup_of(cfg, task.turn_limit)
    names = (cfg.agent0, cfg.agent1)
    agents = [make_agent(names[i], agent_seed(task.seed, i)) for i in (0, 1)]
    fig = _Figures()
    t0 = time.process_time()
    rec = play_game(setup, task.seed, agents, fig)
    cpu = time.process_time() - t0
    o = rec.outcome
    winner = o.winner if o is not None and o.winner is not None else -1
    roles = VARIANT_ROLES[cfg.variant]  # type: ignore[index]
    row: dict[str, Any] = {
        "game_id": task.game_id, "config_id": task.config_id, "rep": task.rep, "seed": task.seed,
        "map_side": cfg.map_side, "track_side": cfg.track_side, "variant": cfg.variant,
        "faction": cfg.faction, "mat": cfg.mat, "mech": cfg.mech, "agent0": cfg.agent0, "agent1": cfg.agent1,
        "setup": msgspec.json.encode(setup).decode(), "turn_limit": task.turn_limit,
        "winner": winner, "winner_role": roles[winner] if winner >= 0 else "",
        "reason": o.reason if o is not None else "unfinished", "turns": rec.turns, "decisions": rec.decisions,
        "cpu_s": cpu, "first_seat": fig.first_seat, "final_hash": rec.final_hash,
    }
    return row | _seat_columns(fig, roles)


def _seat_columns(fig: _Figures, roles: Sequence[str]) -> dict[str, Any]:
    pv = fig.end_view
    assert pv is not None
    out: dict[str, Any] = {}
    for seat in (0, 1):
        p = f"s{seat}_"
        out[p + "role"] = roles[seat]
        out[p + "stars"] = int(pv.stars[seat])
        claims = fig.claims[seat]
        out[p + "claim_columns"] = [c[0] for c in claims]
        out[p + "claim_categories"] = [c[1] for c in claims]
        out[p + "claim_turns"] = [c[2] for c in claims]
        for k, v in _final(pv.seats[seat]).items():
            out[p + k] = v
        out[p + "combats"] = fig.combats[seat]
        out[p + "combat_wins"] = fig.combat_wins[seat]
        out[p + "meloch_drawn"] = len(fig.meloch[seat])
        out[p + "meloch_cards"] = list(fig.meloch[seat])
    return out


# ---------------------------------------------------------------- rows and files


def schema() -> Any:
    """The Parquet schema of a row (fixed, so that parts written at different times concatenate)."""
    import pyarrow as pa

    cols: list[tuple[str, Any]] = [
        ("game_id", pa.int64()), ("config_id", pa.int64()), ("rep", pa.int64()), ("seed", pa.int64()),
        ("map_side", pa.string()), ("track_side", pa.string()), ("variant", pa.string()), ("faction", pa.string()),
        ("mat", pa.string()), ("mech", pa.string()), ("agent0", pa.string()), ("agent1", pa.string()),
        ("setup", pa.string()), ("turn_limit", pa.int64()), ("winner", pa.int64()), ("winner_role", pa.string()),
        ("reason", pa.string()), ("turns", pa.int64()), ("decisions", pa.int64()), ("cpu_s", pa.float64()),
        ("first_seat", pa.int64()), ("final_hash", pa.string())]
    for seat in (0, 1):
        p = f"s{seat}_"
        cols += [(p + "role", pa.string()), (p + "stars", pa.int64()), (p + "claim_columns", pa.list_(pa.int64())),
                 (p + "claim_categories", pa.list_(pa.string())), (p + "claim_turns", pa.list_(pa.int64()))]
        cols += [(p + k, pa.int64()) for k in _RESOURCE_FIELDS]
        cols += [(p + "combats", pa.int64()), (p + "combat_wins", pa.int64()), (p + "meloch_drawn", pa.int64()),
                 (p + "meloch_cards", pa.list_(pa.string()))]
    return pa.schema(cols)


def _parts(out: Path) -> list[Path]:
    return sorted(out.glob("part-*.parquet"))


def read_results(out: str | Path, columns: Sequence[str] | None = None) -> Any:
    """All finished games of a results directory as one pyarrow Table, sorted by ``game_id``."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    out = Path(out)
    if not (out / MANIFEST).is_file():
        raise SimError(f"{out}: not a results directory (no {MANIFEST}); run `meloch simulate run` first")
    parts = _parts(out)
    if not parts:
        return schema().empty_table() if columns is None else schema().empty_table().select(list(columns))
    t = pa.concat_tables([pq.read_table(p, columns=list(columns) if columns else None) for p in parts])
    return t.sort_by("game_id") if "game_id" in t.column_names else t


def read_manifest(out: str | Path) -> Grid:
    path = Path(out) / MANIFEST
    if not path.is_file():
        raise SimError(f"{out}: not a results directory (no {MANIFEST})")
    d = json.loads(path.read_text(encoding="utf-8"))
    if d.get("format") != FORMAT:
        raise SimError(f"{path}: format {d.get('format')!r}, this version reads {FORMAT}")
    return msgspec.convert(d["grid"], Grid)


def agent_digests(grid: Grid) -> dict[str, str]:
    """Each agent name of ``grid`` -> ``agent_settings`` of what it plays by now. The manifest records
    it because a level name (``search:medium``) is given new settings when a stronger one is measured
    (stop 60 did), and a resumed run must not mix games of the old and the new settings under one name."""
    return {name: agent_settings(make_agent(name, 0)) for name in sorted({*grid.agents0, *grid.agents1})}


def _check_agent_settings(out: Path, grid: Grid) -> None:
    """``SimError`` when an agent of the run in ``out`` now plays by other settings than its games did
    (a manifest written before stop 60 records none: nothing to check)."""
    stored: dict[str, str] = json.loads((out / MANIFEST).read_text(encoding="utf-8")).get("settings") or {}
    now = agent_digests(grid)
    for name, digest in sorted(stored.items()):
        if now.get(name, digest) != digest:
            raise SimError(f"{out}: {name} now plays by other settings than this run's games (settings {digest}, "
                           f"now {now[name]}), so they cannot be resumed together: play the grid into another "
                           "directory, naming the agent by the settings you want as a spec (search:s8t6r1w3/s16t8r1w3)")


def _write_manifest(out: Path, grid: Grid, n_configs: int, n_games: int) -> None:
    d = {"format": FORMAT, "grid": msgspec.to_builtins(grid), "configs": n_configs, "games": n_games,
         "settings": agent_digests(grid)}
    (out / MANIFEST).write_text(json.dumps(d, indent=1) + "\n", encoding="utf-8")


def _write_part(out: Path, rows: list[dict[str, Any]]) -> None:
    """Write finished rows as the next part, atomically (a crash never leaves half a part)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    if not rows:
        return
    n = len(_parts(out))
    path = out / f"part-{n:05d}.parquet"
    while path.exists():
        n += 1
        path = out / f"part-{n:05d}.parquet"
    tmp = path.with_suffix(".tmp")
    pq.write_table(pa.Table.from_pylist(rows, schema=schema()), tmp)
    os.replace(tmp, path)


# ---------------------------------------------------------------- backends


def play_batch(batch: Sequence[Task]) -> list[dict[str, Any]]:
    """Play a batch of games (the unit of work sent to a process or a Ray task)."""
    return [play_task(t) for t in batch]


Backend = Callable[[list[list[Task]], int, str | None], Iterator[list[dict[str, Any]]]]


def _inline(batches: list[list[Task]], workers: int, address: str | None) -> Iterator[list[dict[str, Any]]]:
    for b in batches:
        yield play_batch(b)


def _ignore_sigint() -> None:
    """Workers leave Ctrl-C to the parent, which stops handing out batches and keeps what is done; a
    SIGTERM ends a worker at once (the parent's ``meloch simulate`` turns its own into an interrupt)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _processes(batches: list[list[Task]], workers: int, address: str | None) -> Iterator[list[dict[str, Any]]]:
    """Local processes; results arrive in completion order (the rows do not depend on it)."""
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

    with ProcessPoolExecutor(max_workers=workers, initializer=_ignore_sigint) as pool:
        todo = iter(batches)
        pending: set[Future[list[dict[str, Any]]]] = set()
        ready: list[Future[list[dict[str, Any]]]] = []
        try:
            for b in itertools.islice(todo, 2 * workers):
                pending.add(pool.submit(play_batch, b))
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                ready = list(done)
                while ready:
                    f = ready.pop()
                    nxt = next(todo, None)
                    if nxt is not None:
                        pending.add(pool.submit(play_batch, nxt))
                    yield f.result()
        except KeyboardInterrupt:
            # A worker cannot be stopped mid-batch, so the batches in play are finished anyway (the
            # shutdown below waits for them): hand their games on rather than drop them, then stop.
            for f in pending:
                f.cancel()
            for f in [*ready, *pending]:
                if f.cancelled():
                    continue
                try:
                    rows = f.result()
                except Exception:  # a worker killed with its batch (SIGTERM to the whole group)
                    continue
                yield rows
            raise
        finally:
            for f in pending:
                f.cancel()
            pool.shutdown(wait=True, cancel_futures=True)


def _ray(batches: list[list[Task]], workers: int, address: str | None) -> Iterator[list[dict[str, Any]]]:
    """Ray tasks on a local Ray (``workers`` CPUs) or on the cluster at ``address``."""
    try:
        import ray
    except ImportError as err:
        raise SimError("the Ray backend needs the ray package (pip install 'meloch[ray]')") from err
    started = not ray.is_initialized()
    if started:
        try:
            if address:
                ray.init(address=address, log_to_driver=False)
            else:
                ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False, configure_logging=False)
        except (ConnectionError, RuntimeError, ValueError) as err:
            raise SimError(f"could not start or reach Ray{f' at {address}' if address else ''}: {err}") from err
    remote = ray.remote(play_batch)
    in_flight = 2 * max(workers, int(ray.cluster_resources().get("CPU", workers)))  # type: ignore[no-untyped-call]
    todo = iter(batches)
    pending = [remote.remote(b) for b in itertools.islice(todo, in_flight)]
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            nxt = next(todo, None)
            if nxt is not None:
                pending.append(remote.remote(nxt))
            yield ray.get(done[0])
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()


BACKENDS: dict[str, Backend] = {"local": _processes, "ray": _ray}


# ---------------------------------------------------------------- a run


@dataclass
class RunResult:
    games: int
    """Games played by this call."""
    skipped: int
    """Games already in the directory (a resumed run)."""
    total: int
    wall_s: float
    cpu_s: float
    """CPU time of the games played (sum over workers)."""
    interrupted: bool = False
    refused: list[tuple[Config, str]] = field(default_factory=list)


SEARCHING = ("search:", "ismcts:")
"""Agent name prefixes of the searching agents: a game takes them seconds to minutes of CPU."""

BATCH_CAP = 64
"""Most games a task of cheap agents plays (fewer round trips to the workers)."""

SEARCH_BATCH_CAP = 2
"""Most games a task plays when a searching agent is in the grid: a medium game costs about 19 CPU-s,
so 64 of them were a 20-minute task whose games an interrupt or a crash loses."""


def auto_batch(grid: Grid, todo: int, workers: int) -> int:
    """Games a task: about eight tasks a worker, at most ``BATCH_CAP`` (``SEARCH_BATCH_CAP`` with a
    searching agent in either seat)."""
    searching = any(a.startswith(SEARCHING) for a in (*grid.agents0, *grid.agents1))
    return max(1, min(SEARCH_BATCH_CAP if searching else BATCH_CAP, todo // (workers * 8) or 1))


def simulate(grid: Grid, out: str | Path, *, workers: int = 0, backend: str = "local", address: str | None = None,
             batch: int = 0, on_games: Callable[[int, int], None] | None = None, flush_every: int = 2000,
             flush_s: float = 60.0, stop_after: int | None = None) -> RunResult:
    """Play every game of ``grid`` not yet in ``out`` and add their rows.

    ``workers`` 0 means all cores; 1 plays in this process (local backend). ``on_games(done, total)``
    follows progress. ``stop_after`` raises ``KeyboardInterrupt`` after that many games of this call
    (how the tests interrupt a run). An interrupt keeps every finished game; the same call resumes.
    ``batch``: games a task (0: ``auto_batch``). Finished games are written as a part every
    ``flush_every`` games or ``flush_s`` seconds, whichever comes first, so a run killed outright (no
    interrupt) loses at most that much besides the games in play.
    """
    if backend not in BACKENDS:
        raise SimError(f"unknown backend {backend!r}; choose {', '.join(BACKENDS)}")
    if grid.games < 1:
        raise SimError("--games must be at least 1")
    workers = workers or os.cpu_count() or 1
    out = Path(out)
    cfgs, refused = configs(grid)
    if not cfgs:
        raise SimError("the grid holds no playable configuration" +
                       (f" ({refused[0][1]})" if refused else ""))
    total = sum(1 for _ in tasks(grid, cfgs))
    if not total:
        raise SimError(f"the slice {' '.join(grid.only)} matches none of the grid's {len(cfgs)} configurations")
    if (out / MANIFEST).is_file():
        old = read_manifest(out)
        if old != grid:
            raise SimError(f"{out} holds another run (its grid: {msgspec.json.encode(old).decode()}); "
                           "resume it with `meloch simulate resume`, or choose another directory")
        _check_agent_settings(out, grid)
    else:
        out.mkdir(parents=True, exist_ok=True)
        _write_manifest(out, grid, total // grid.games, total)
    for tmp in out.glob("part-*.tmp"):
        tmp.unlink()
    done_ids = set(read_results(out, ["game_id"]).column("game_id").to_pylist())
    todo = [t for t in tasks(grid, cfgs) if t.game_id not in done_ids]
    size = batch or auto_batch(grid, len(todo), workers)
    batches = [todo[i:i + size] for i in range(0, len(todo), size)]
    run = _inline if backend == "local" and workers == 1 else BACKENDS[backend]
    res = RunResult(games=0, skipped=len(done_ids), total=total, wall_s=0.0, cpu_s=0.0, refused=refused)
    buf: list[dict[str, Any]] = []
    t0 = time.perf_counter()
    written = t0
    if on_games is not None:
        on_games(len(done_ids), total)
    try:
        for rows in run(batches, workers, address):
            buf.extend(rows)
            res.games += len(rows)
            res.cpu_s += sum(r["cpu_s"] for r in rows)
            if len(buf) >= flush_every or (buf and time.perf_counter() - written >= flush_s):
                _write_part(out, buf)
                buf = []
                written = time.perf_counter()
            if on_games is not None:
                on_games(len(done_ids) + res.games, total)
            if stop_after is not None and res.games >= stop_after:
                raise KeyboardInterrupt
    except KeyboardInterrupt:
        res.interrupted = True
    finally:
        _write_part(out, buf)
        res.wall_s = time.perf_counter() - t0
    return res


# ---------------------------------------------------------------- replay


def replay_row(row: dict[str, Any], hooks: Hooks | None = None) -> tuple[bool, str]:
    """Play a stored game again from its row (setup, seed, agents) with the same runner; (the final
    state and the result match the row, message). ``hooks`` watch the replay (tools/balance_gains.py)."""
    setup = msgspec.json.decode(row["setup"], type=Setup)
    seed = int(row["seed"])
    agents = [make_agent(row[f"agent{i}"], agent_seed(seed, i)) for i in (0, 1)]
    rec = play_game(setup, seed, agents, hooks)
    o = rec.outcome
    winner = o.winner if o is not None and o.winner is not None else -1
    reason = o.reason if o is not None else "unfinished"
    got = (rec.final_hash, winner, reason, rec.turns, rec.decisions)
    want = (row["final_hash"], row["winner"], row["reason"], row["turns"], row["decisions"])
    msg = (f"game {row['game_id']}: {setup.variant} on {setup.map_side}/{setup.track_side}, seed {seed}, "
           f"{row['agent0']} vs {row['agent1']}: winner seat {winner} ({reason}) after {rec.turns} turns, "
           f"{rec.decisions} decisions; final hash {rec.final_hash}")
    if got != want:
        return False, msg + f" -- DIFFERS from the stored row {want}"
    return True, msg + " (matches the stored row)"


def find_row(out: str | Path, game_id: int) -> dict[str, Any]:
    import pyarrow.compute as pc

    t = read_results(out)
    hit = t.filter(pc.equal(t.column("game_id"), game_id))
    if hit.num_rows == 0:
        ids = t.column("game_id")
        span = f"{pc.min(ids).as_py()}..{pc.max(ids).as_py()}" if t.num_rows else "none yet"
        raise SimError(f"no game {game_id} in {out} (its games: {span})")
    row: dict[str, Any] = hit.to_pylist()[0]
    return row



# ---------------------------------------------------------------- scaling


@dataclass
class ScaleRun:
    workers: int
    games: int
    wall_s: float
    game_cpu_s: float
    """CPU time inside games (sum over workers)."""
    total_cpu_s: float
    """CPU time of this process and its worker processes (games, start-up, pickling, writing)."""

    @property
    def rate(self) -> float:
        return self.games / self.wall_s if self.wall_s else 0.0


def measure_scale(grid: Grid, workers: Sequence[int] = (1, 2), repeats: int = 3,
                  on_run: Callable[[ScaleRun], None] | None = None) -> list[ScaleRun]:
    """Play ``grid`` afresh with each number of workers, interleaved ``repeats`` times (the machine's
    load drifts, so interleaving keeps the comparison fair)."""
    import resource
    import tempfile

    def cpu() -> float:
        a, b = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return a.ru_utime + a.ru_stime + b.ru_utime + b.ru_stime

    out: list[ScaleRun] = []
    for _ in range(repeats):
        for w in workers:
            with tempfile.TemporaryDirectory() as tmp:
                c0 = cpu()
                res = simulate(grid, Path(tmp) / "r", workers=w)
                run = ScaleRun(workers=w, games=res.games, wall_s=res.wall_s, game_cpu_s=res.cpu_s,
                               total_cpu_s=cpu() - c0)
            out.append(run)
            if on_run is not None:
                on_run(run)
    return out
