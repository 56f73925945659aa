"""``meloch report RESULTS``: a balance report from a results directory of ``meloch simulate``.

Writes ``report.html`` (self-contained: the plots are embedded), the same plots as PNG files and
``report.md`` (the Markdown that ``docs/balance.md`` is made from). Win rates carry 95% Wilson
intervals; a game without a winner (turn limit) counts as a win for neither role.
"""

from __future__ import annotations

import base64
import html
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from meloch.sim.simulate import Grid, SimError, read_manifest, read_results
from meloch.sim.stats import wilson

BAND = (0.40, 0.60)
"""A configuration stands out when its win rate lies outside this band."""


# ---------------------------------------------------------------- document blocks


@dataclass
class Doc:
    """The report as a list of blocks, rendered both to HTML and to Markdown."""

    title: str
    out: Path
    blocks: list[tuple[str, Any]] = field(default_factory=list)
    pngs: list[Path] = field(default_factory=list)

    def h(self, text: str) -> None:
        self.blocks.append(("h", text))

    def p(self, text: str) -> None:
        self.blocks.append(("p", text))

    def table(self, header: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        self.blocks.append(("table", (list(header), [list(r) for r in rows])))

    def figure(self, fig: Any, name: str, caption: str) -> None:
        path = self.out / f"{name}.png"
        fig.savefig(path, dpi=90, bbox_inches="tight")
        import matplotlib.pyplot as plt

        plt.close(fig)
        self.pngs.append(path)
        self.blocks.append(("img", (path, caption)))

    def markdown(self) -> str:
        lines = [f"# {self.title}", ""]
        for kind, v in self.blocks:
            if kind == "h":
                lines += [f"## {v}", ""]
            elif kind == "p":
                lines += [v, ""]
            elif kind == "table":
                head, rows = v
                lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
                lines += ["| " + " | ".join(_cell(x) for x in r) + " |" for r in rows]
                lines.append("")
            else:
                path, cap = v
                lines += [f"![{cap}]({path.name})", "", f"*{cap}*", ""]
        return "\n".join(lines)

    def html(self) -> str:
        parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(self.title)}</title>",
                 "<style>body{font-family:sans-serif;max-width:1100px;margin:auto}table{border-collapse:collapse}"
                 "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}th{background:#eee}"
                 "img{max-width:100%}</style></head><body>", f"<h1>{html.escape(self.title)}</h1>"]
        for kind, v in self.blocks:
            if kind == "h":
                parts.append(f"<h2>{html.escape(v)}</h2>")
            elif kind == "p":
                parts.append(f"<p>{html.escape(v)}</p>")
            elif kind == "table":
                head, rows = v
                parts.append("<table><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in head) + "</tr>")
                parts += ["<tr>" + "".join(f"<td>{html.escape(_cell(x))}</td>" for x in r) + "</tr>" for r in rows]
                parts.append("</table>")
            else:
                path, cap = v
                data = base64.b64encode(path.read_bytes()).decode()
                parts.append(f"<figure><img src='data:image/png;base64,{data}' alt='{html.escape(cap)}'>"
                             f"<figcaption>{html.escape(cap)}</figcaption></figure>")
        parts.append("</body></html>")
        return "\n".join(parts)


def _cell(x: Any) -> str:
    if isinstance(x, float):
        return f"{x:.3g}" if not math.isnan(x) else ""
    return str(x)


def _pct(k: int, n: int) -> str:
    if n == 0:
        return "-"
    lo, hi = wilson(k, n)
    return f"{100 * k / n:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def _outside(k: int, n: int) -> str:
    """'yes' when the whole interval lies outside the band, 'point' when only the estimate does."""
    if n == 0:
        return ""
    lo, hi = wilson(k, n)
    if hi < BAND[0] or lo > BAND[1]:
        return "yes"
    return "point" if not BAND[0] <= k / n <= BAND[1] else ""


# ---------------------------------------------------------------- the report


def _rate_rows(df: Any, by: str | list[str], role: str) -> list[tuple[str, int, int]]:
    """(value, wins of ``role``, games) per value of ``by``."""
    out = []
    for key, g in df.groupby(by, sort=True):
        label = "/".join(str(x) for x in key) if isinstance(key, tuple) else str(key)
        out.append((label, int((g["winner_role"] == role).sum()), len(g)))
    return out


def _bar(doc: Doc, rows: Sequence[tuple[str, int, int]], name: str, title: str, ylabel: str) -> None:
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(max(4.0, 0.6 * len(rows) + 2), 3.2))
    xs = range(len(rows))
    ps = [k / n if n else 0.0 for _, k, n in rows]
    lo = [max(0.0, p - wilson(k, n)[0]) for p, (_, k, n) in zip(ps, rows, strict=True)]
    hi = [max(0.0, wilson(k, n)[1] - p) for p, (_, k, n) in zip(ps, rows, strict=True)]
    ax.bar(xs, ps, yerr=[lo, hi], capsize=3, color="#6a8fbf")
    ax.axhspan(*BAND, color="#cfc", alpha=0.4, zorder=0)
    ax.axhline(0.5, color="grey", lw=0.8)
    ax.set_xticks(list(xs), [r[0] for r in rows], rotation=45 if len(rows) > 4 else 0, ha="right"
                  if len(rows) > 4 else "center")
    ax.set_ylim(0, 1)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    doc.figure(fig, name, f"{title} (95% Wilson intervals; green: the 40-60% band)")


def _rate_table(doc: Doc, axis: str, rows: Sequence[tuple[str, int, int]], role: str) -> None:
    doc.table([axis, "games", f"{role} win rate [95% CI]", "outside 40-60%"],
              [(v, n, _pct(k, n), _outside(k, n)) for v, k, n in rows])


CONFIG_COLUMNS = ["setup", "agent0", "agent1"]
"""What tells one configuration from another across runs (``config_id`` numbers a run's own grid;
``setup`` is the game's whole setup as JSON, without its seed)."""

Results = str | Path | Sequence[str | Path]


def _dirs(results: Results) -> list[str | Path]:
    return [results] if isinstance(results, str | Path) else list(results)


def _read(dirs: Sequence[str | Path]) -> Any:
    """The games of ``dirs`` as one DataFrame; a game in two of them is an error, not a double count."""
    import pandas as pd

    df = pd.concat([read_results(d).to_pandas() for d in dirs], ignore_index=True)
    twice = df.duplicated(subset=[*CONFIG_COLUMNS, "seed"], keep=False)
    if twice.any():
        first = df[twice].iloc[0]
        raise SimError(f"{int(twice.sum())} games appear in more than one of {', '.join(map(str, dirs))} "
                       f"(e.g. {first['faction']}/{first['mat']} vs {first['mech']}, seed {first['seed']}): "
                       "pool runs of different root seeds")
    return df


def pooled(results: Results, over: Sequence[str | Path] = ()) -> tuple[list[Grid], Any, int]:
    """The manifests of one or more results directories, their games as one DataFrame, and how many
    of them ``over`` replaced. Runs of other root seeds (or other grids) pool into more games a
    configuration; a game found in two runs (the same configuration and seed: a directory given
    twice, or copied) is an error, not a double count.

    ``over``: results of changed content played on some of the same deals (``meloch simulate run
    --only ...`` with the grid's root keeps its seeds); each of their games replaces the game of the
    same configuration and seed, so a content change that only some deals meet (one side of the
    map) reports as the whole grid would with it. Their games on deals ``results`` lacks are added."""
    dirs = _dirs(results)
    if not dirs:
        raise SimError("give at least one results directory")
    grids = [read_manifest(d) for d in dirs]
    df = _read(dirs)
    if not over:
        return grids, df, 0
    import pandas as pd

    grids += [read_manifest(d) for d in over]
    lever = _read(over)
    key = [*CONFIG_COLUMNS, "seed"]
    hit = df.set_index(key).index.isin(lever.set_index(key).index)
    return grids, pd.concat([df[~hit], lever], ignore_index=True), int(hit.sum())


def build(results: Results, out: str | Path, title: str = "Balance report", same_agent: bool = False,
          agent: str | None = None, over: Sequence[str | Path] = ()) -> Doc:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    grids, df, replaced = pooled(results, over)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    doc = Doc(title=title, out=out)
    df["pair"] = df["agent0"] + " vs " + df["agent1"]
    everything = df
    what = ""
    if same_agent:
        df = df[df["agent0"] == df["agent1"]]
        what = " with the same agent in both seats"
    if agent is not None:
        df = df[(df["agent0"] == agent) & (df["agent1"] == agent)]
        what = f" with {agent} in both seats"
    if df.empty:
        raise SimError(f"{results}: no finished games{what}")

    doc.h("Run")
    configs = df["config_id"].nunique() if len(grids) == 1 else len(df.drop_duplicates(subset=CONFIG_COLUMNS))
    if len(grids) == 1:
        grid = grids[0]
        run = (f"root seed {grid.root}, {grid.games} game{'s' if grid.games != 1 else ''} per configuration, "
               f"turn limit {grid.turn_limit}")
    else:
        run = (f"{len(grids)} runs pooled, root seeds {', '.join(str(r) for r in sorted({g.root for g in grids}))}, "
               f"{len(df) / configs:.1f} games per configuration on average, "
               f"turn limit {', '.join(sorted({str(g.turn_limit) for g in grids}))}")
    agents0 = sorted({a for g in grids for a in g.agents0})
    agents1 = sorted({a for g in grids for a in g.agents1})
    doc.p(f"{len(df)} games over {configs} configurations ({run}). "
          "Agents per seat: "
          f"{', '.join(agents0)} | {', '.join(agents1)}. "
          "Win rates count a game without a winner as a win for neither role." +
          (f" {replaced} game{'s' if replaced != 1 else ''} of {', '.join(map(str, _dirs(results)))} are "
           f"replaced by those of {', '.join(map(str, over))} on the same configuration and seed." if over else "") +
          (f" Below: the {len(df)} games{what}." if what else ""))
    reasons = df.groupby(["variant", "winner_role", "reason"]).size().reset_index(name="games")
    doc.table(["variant", "winner role", "reason", "games"],
              [(r.variant, r.winner_role or "(none)", r.reason, int(r.games)) for r in reasons.itertuples()])

    duel = df[df["variant"] == "standard"]
    all_duels = everything[everything["variant"] == "standard"]
    if not all_duels.empty:
        _agents_section(doc, all_duels)
    if not duel.empty:
        _duel_sections(doc, duel, plt, np)
    _variant_sections(doc, df)
    _length_section(doc, df, plt)
    return doc


def _duel_sections(doc: Doc, duel: Any, plt: Any, np: Any) -> None:
    n = len(duel)
    s_w = int((duel["winner_role"] == "scythe").sum())
    e_w = int((duel["winner_role"] == "expeditions").sum())
    doc.h("Win rate by role (the duel)")
    doc.table(["role", "wins", "games", "win rate [95% CI]", "outside 40-60%"],
              [("scythe", s_w, n, _pct(s_w, n), _outside(s_w, n)),
               ("expeditions", e_w, n, _pct(e_w, n), _outside(e_w, n)),
               ("neither (turn limit)", n - s_w - e_w, n, _pct(n - s_w - e_w, n), "")])
    _bar(doc, [("scythe", s_w, n), ("expeditions", e_w, n)], "role", "Win rate by role", "win rate")

    doc.h("Win rate by map side, track side and who starts")
    for axis, label in (("map_side", "map side"), ("track_side", "track side")):
        rows = _rate_rows(duel, axis, "scythe")
        _rate_table(doc, label, rows, "Scythe")
    _bar(doc, [(f"map {v}", k, n_) for v, k, n_ in _rate_rows(duel, "map_side", "scythe")]
         + [(f"track {v}", k, n_) for v, k, n_ in _rate_rows(duel, "track_side", "scythe")],
         "map_track", "Scythe win rate by map side and track side", "Scythe win rate")
    starts = duel.assign(starter=np.where(duel["first_seat"] == 0, "scythe starts", "expeditions starts"))
    doc.p("Who starts: the duel's rules fix it (\"The Expeditions player takes the first turn\"), so every duel "
          "game below has the same starter; the variants' starter is drawn from the seed (next section).")
    _rate_table(doc, "starter", _rate_rows(starts, "starter", "scythe"), "Scythe")

    doc.h("Scythe faction x mat, and Expeditions mech")
    fm = duel.groupby(["faction", "mat"]).agg(k=("winner_role", lambda s: int((s == "scythe").sum())),
                                              n=("winner_role", "size")).reset_index()
    facs, mats = sorted(fm["faction"].unique()), sorted(fm["mat"].unique())
    if len(facs) > 1 or len(mats) > 1:
        grid = np.full((len(facs), len(mats)), np.nan)
        for r in fm.itertuples():
            grid[facs.index(r.faction), mats.index(r.mat)] = r.k / r.n
        fig, ax = plt.subplots(figsize=(1.0 * len(mats) + 3, 0.5 * len(facs) + 2))
        im = ax.imshow(grid, vmin=0, vmax=1, cmap="RdBu_r")
        ax.set_xticks(range(len(mats)), mats, rotation=45, ha="right")
        ax.set_yticks(range(len(facs)), facs)
        for i in range(len(facs)):
            for j in range(len(mats)):
                if not np.isnan(grid[i, j]):
                    ax.text(j, i, f"{100 * grid[i, j]:.0f}", ha="center", va="center", fontsize=8)
        fig.colorbar(im, ax=ax, label="Scythe win rate")
        ax.set_title("Scythe win rate by faction x mat")
        doc.figure(fig, "faction_mat", "Scythe win rate by faction x mat (numbers: %)")
    fac_rows = _rate_rows(duel, "faction", "scythe")
    mat_rows = _rate_rows(duel, "mat", "scythe")
    _rate_table(doc, "faction", fac_rows, "Scythe")
    _rate_table(doc, "mat", mat_rows, "Scythe")
    mech_rows = _rate_rows(duel, "mech", "expeditions")
    _rate_table(doc, "mech", mech_rows, "Expeditions")
    _bar(doc, mech_rows, "mech", "Expeditions win rate by mech", "Expeditions win rate")
    if len(fac_rows) > 1:
        _bar(doc, fac_rows, "faction", "Scythe win rate by faction", "Scythe win rate")

    _claims_section(doc, duel, plt)
    _combat_section(doc, duel, plt)
    _meloch_section(doc, duel, plt)
    _standout_section(doc, duel)
    _targets_section(doc, duel)
    _cells_section(doc, duel)


TARGETS = ((0.45, 0.55), (0.35, 0.65))
"""Issue 15: each role 45-55% overall and per map and track side; each faction x mat and mech 35-65%."""


def _targets_section(doc: Doc, duel: Any) -> None:
    """The balance targets, checked on the point estimate, with the interval for judgement."""
    doc.h("Balance targets")
    doc.p("Targets (issue 15, the same strong agent in both seats): each role wins 45-55% overall, on each map "
          "side and each track side; every Scythe faction x mat and every Expeditions mech lies within 35-65% "
          "(Scythe's rate for faction x mat, Expeditions' for mechs). A row passes when its point estimate lies "
          "in the target; with few games the interval says how sure that is.")
    rows: list[tuple[str, str, int, str, str, str]] = []
    n = len(duel)
    lo, hi = TARGETS[0]

    def check(scope: str, value: str, k: int, n_: int, band: tuple[float, float], role: str) -> None:
        ok = n_ > 0 and band[0] <= k / n_ <= band[1]
        rows.append((scope, value, n_, f"{role} {_pct(k, n_)}", f"{100 * band[0]:.0f}-{100 * band[1]:.0f}%",
                     "pass" if ok else "FAIL"))

    for role in ("scythe", "expeditions"):
        check("overall", role, int((duel["winner_role"] == role).sum()), n, (lo, hi), role)
    for axis in ("map_side", "track_side"):
        for v, k, n_ in _rate_rows(duel, axis, "scythe"):
            check(axis.replace("_", " "), v, k, n_, (lo, hi), "scythe")
    for v, k, n_ in _rate_rows(duel, ["faction", "mat"], "scythe"):
        check("faction x mat", v, k, n_, TARGETS[1], "scythe")
    for v, k, n_ in _rate_rows(duel, "mech", "expeditions"):
        check("mech", v, k, n_, TARGETS[1], "expeditions")
    fails = [r for r in rows if r[5] == "FAIL"]
    doc.p(f"{len(rows) - len(fails)} of {len(rows)} checks pass.")
    shown = [r for r in rows if r[0] in ("overall", "map side", "track side")] + \
        [r for r in rows if r[0] not in ("overall", "map side", "track side") and r[5] == "FAIL"]
    doc.table(["scope", "value", "games", "win rate [95% CI]", "target", "result"], shown)
    if len(shown) < len(rows):
        doc.p("(Faction x mat and mech rows that pass are left out of the table.)")


def _cells_section(doc: Doc, duel: Any) -> None:
    """The faction x mat check read twice more (``meloch.sim.cells``): by the faction + mat fit, which
    cells are outside the band by the content, and how many noise alone would put outside."""
    from meloch.sim.cells import DRAWS, additive, noise_outside

    games: dict[tuple[str, str], list[bool]] = {}
    for f, m, w in zip(duel["faction"], duel["mat"], duel["winner_role"] == "scythe", strict=True):
        games.setdefault((str(f), str(m)), []).append(bool(w))
    if len({f for f, _ in games}) < 2 and len({m for _, m in games}) < 2:
        return
    lo, hi = TARGETS[1]
    doc.h("Faction x mat cells: the content or the sample")
    fit = additive(games)
    seen = [key for key, v in games.items() if not lo <= sum(v) / len(v) <= hi]
    out = sorted(key for key, q in fit.items() if not lo <= q <= hi)
    sizes = [len(v) for v in games.values()]
    n_lo, n_mid, n_hi = noise_outside(sizes, list(fit.values()), (lo, hi))
    h_lo, h_mid, h_hi = noise_outside(sizes, [0.5] * len(games), (lo, hi))
    doc.p(f"With {min(sizes)}-{max(sizes)} games a cell, binomial noise moves a cell's rate by several points, so "
          f"the check above counts some cells outside {100 * lo:.0f}-{100 * hi:.0f}% by chance. Two readings tell the "
          "content from the sample. The fit: a logistic model of faction + mat main effects fitted to every game, "
          "each effect read on all games of its faction or mat, so a cell's own noise is not kept. The noise: "
          f"every cell's games drawn again {DRAWS:,} times at given rates. {len(seen)} of {len(games)} cells lie "
          f"outside the band as played; with every cell at 50%, noise alone would put {h_mid} outside (95% range "
          f"{h_lo}-{h_hi}); with every cell at its fitted rate, {n_mid} ({n_lo}-{n_hi}). "
          f"{len(out)} of {len(games)} fitted cells lie outside the band: those are the content's.")
    doc.table(["faction x mat", "games", "Scythe win rate as played [95% CI]", "fitted", "target"],
              [(f"{f}/{m}", len(games[(f, m)]), _pct(sum(games[(f, m)]), len(games[(f, m)])),
                f"{100 * fit[(f, m)]:.1f}%", f"{100 * lo:.0f}-{100 * hi:.0f}%") for f, m in out]
              or [("none", "-", "-", "-", "-")])


def _agents_section(doc: Doc, duels: Any) -> None:
    doc.h("Agents")
    doc.p("Every duel of the run by agents (seat 0 plays Scythe, seat 1 Expeditions), whatever the filter; a "
          "balance figure needs the same agent in both seats (it then plays both roles: seat-swapped).")
    pairs = _rate_rows(duels, "pair", "scythe")
    doc.table(["agents", "games", "Scythe win rate [95% CI]", "Expeditions win rate [95% CI]"],
              [(v, n_, _pct(k, n_), _pct(int(((duels["pair"] == v) & (duels["winner_role"] == "expeditions")).sum()),
                                         n_)) for v, k, n_ in pairs])


def _claims_section(doc: Doc, duel: Any, plt: Any) -> None:
    doc.h("Triumph Track: when and how often each category is claimed")
    doc.p("Per track side and column: the share of games in which each role claimed that box, and the median "
          "turn of the claim. A role's label is its own edge of the track.")
    rows: list[tuple[str, int, str, str, int, float, float]] = []
    for side, g in duel.groupby("track_side"):
        n = len(g)
        for seat, role in ((0, "scythe"), (1, "expeditions")):
            cols = g[f"s{seat}_claim_columns"].explode().dropna()
            cats = g[f"s{seat}_claim_categories"].explode().dropna()
            turns = g[f"s{seat}_claim_turns"].explode().dropna()
            for col in sorted({int(c) for c in cols}):
                mask = cols.astype(int) == col
                label = str(cats[mask.to_numpy()].iloc[0])
                t = turns[mask.to_numpy()].astype(float)
                rows.append((str(side), col + 1, role, label, int(mask.sum()), int(mask.sum()) / n,
                             float(t.median())))
    doc.table(["track", "column", "role", "box", "claims", "share of games", "median turn"], rows)
    if rows:
        sides = sorted({r[0] for r in rows})
        fig, axes = plt.subplots(2, len(sides), figsize=(6 * len(sides), 6), squeeze=False)
        for j, side in enumerate(sides):
            for off, role, colour in ((-0.2, "scythe", "#b55"), (0.2, "expeditions", "#5a5")):
                pts = [(r[1], r[5], r[6]) for r in rows if r[0] == side and r[2] == role]
                axes[0][j].bar([c + off for c, _, _ in pts], [sh for _, sh, _ in pts], width=0.4, label=role,
                               color=colour)
                axes[1][j].bar([c + off for c, _, _ in pts], [t for _, _, t in pts], width=0.4, label=role,
                               color=colour)
            axes[0][j].set_title(f"Track {side}: share of games each column is claimed")
            axes[0][j].set_ylim(0, 1)
            axes[1][j].set_title(f"Track {side}: median turn of the claim")
            axes[1][j].set_xlabel("column")
            axes[0][j].legend()
        fig.tight_layout()
        doc.figure(fig, "claims", "Triumph boxes: how often each role claims each column, and when (median turn)")


def _combat_section(doc: Doc, duel: Any, plt: Any) -> None:
    doc.h("Combat")
    n = len(duel)
    fought = duel["s0_combats"]  # both seats fight every combat of the duel
    doc.p(f"Combats per game: mean {fought.mean():.2f}, games with at least one combat "
          f"{100 * (fought > 0).mean():.1f}%.")
    rows = []
    for seat, role in ((0, "scythe"), (1, "expeditions")):
        wins = int(duel[f"s{seat}_combat_wins"].sum())
        total = int(fought.sum())
        won_any = duel[duel[f"s{seat}_combat_wins"] > 0]
        rows.append((role, wins, total, _pct(wins, total), len(won_any),
                     _pct(int((won_any["winner_role"] == role).sum()), len(won_any))))
    doc.table(["role", "combats won", "combats", "share won [95% CI]", "games with a win",
               "game win rate when it won a combat"], rows)
    fig, ax = plt.subplots(figsize=(5, 3))
    ax.hist(fought, bins=range(0, int(fought.max()) + 2), color="#a77", align="left")
    ax.set_xlabel("combats in the game")
    ax.set_ylabel("games")
    ax.set_title(f"Combats per game ({n} games)")
    doc.figure(fig, "combats", "Combats per game")


def _meloch_section(doc: Doc, duel: Any, plt: Any) -> None:
    doc.h("Meloch cards")
    doc.p("A seat draws a Meloch card when the other seat places a star (stars 1-3). Below: the win rate of a "
          "role by the number of Meloch cards it drew, and per card the win rate of the role that drew it.")
    rows = []
    for seat, role in ((0, "scythe"), (1, "expeditions")):
        for k, g in duel.groupby(f"s{seat}_meloch_drawn"):
            rows.append((role, int(k), len(g), _pct(int((g["winner_role"] == role).sum()), len(g))))
    doc.table(["role", "Meloch cards drawn", "games", "win rate of that role [95% CI]"], rows)
    per_card: dict[tuple[str, str], list[int]] = {}
    for seat, role in ((0, "scythe"), (1, "expeditions")):
        for cards, w in zip(duel[f"s{seat}_meloch_cards"], duel["winner_role"], strict=True):
            for c in set(cards):
                kn = per_card.setdefault((role, str(c)), [0, 0])
                kn[0] += int(w == role)
                kn[1] += 1
    doc.table(["role", "card", "games drawn", "win rate of the drawer [95% CI]"],
              [(r, c, kn[1], _pct(kn[0], kn[1])) for (r, c), kn in sorted(per_card.items())])


def _standout_section(doc: Doc, duel: Any) -> None:
    doc.h("Configurations that stand out (outside 40-60%)")
    doc.p("Every axis value, every faction x mat and every whole configuration with at least 20 games whose "
          "Scythe win rate lies outside 40-60%. 'yes': the whole 95% interval is outside the band; 'point': "
          "only the estimate is.")
    rows = []
    axes: list[tuple[str, str | list[str]]] = [("agents", "pair"), ("map side", "map_side"),
                                               ("track side", "track_side"), ("faction", "faction"), ("mat", "mat"),
                                               ("mech", "mech"), ("faction x mat", ["faction", "mat"])]
    for name, by in axes:
        for v, k, n in _rate_rows(duel, by, "scythe"):
            flag = _outside(k, n)
            if flag:
                rows.append((name, v, n, _pct(k, n), flag))
    full = ["pair", "map_side", "track_side", "faction", "mat", "mech"]
    for v, k, n in _rate_rows(duel, full, "scythe"):
        flag = _outside(k, n)
        if n >= 20 and flag:
            rows.append(("configuration", v, n, _pct(k, n), flag))
    rows.sort(key=lambda r: (r[4] != "yes", r[0]))
    doc.table(["axis", "value", "games", "Scythe win rate [95% CI]", "outside"], rows or [("-", "none", 0, "-", "")])


def _variant_sections(doc: Doc, df: Any) -> None:
    var = df[df["variant"] != "standard"]
    if var.empty:
        return
    doc.h("Variants: seat 0 and who starts")
    rows = []
    for (v, first), g in var.groupby(["variant", "first_seat"]):
        n = len(g)
        rows.append((v, f"seat {first}", n, _pct(int((g["winner"] == first).sum()), n),
                     _pct(int((g["winner"] == 0).sum()), n)))
    doc.table(["variant", "starts", "games", "starter's win rate [95% CI]", "seat 0 win rate [95% CI]"], rows)


def _length_section(doc: Doc, df: Any, plt: Any) -> None:
    doc.h("Game length")
    rows = []
    for (v, role), g in df.groupby(["variant", "winner_role"]):
        rows.append((v, role or "(none)", len(g), float(g["turns"].median()), float(g["turns"].quantile(0.9)),
                     float(g["decisions"].median()), float(g["cpu_s"].mean())))
    doc.table(["variant", "winner role", "games", "median turns", "90th pct turns", "median decisions",
               "CPU s per game"], rows)
    fig, ax = plt.subplots(figsize=(6, 3.2))
    for role, g in df.groupby("winner_role"):
        ax.hist(g["turns"], bins=30, alpha=0.6, label=role or "(none)")
    ax.set_xlabel("turns (both seats)")
    ax.set_ylabel("games")
    ax.legend()
    ax.set_title("Game length by winner role")
    doc.figure(fig, "length", "Game length (turns) by winner role")


def write_report(results: Results, out: str | Path, title: str = "Balance report",
                 same_agent: bool = False, agent: str | None = None,
                 over: Sequence[str | Path] = ()) -> list[Path]:
    """Build the report; returns the files written (HTML, Markdown, PNGs)."""
    doc = build(results, out, title, same_agent, agent, over)
    html_path = doc.out / "report.html"
    md_path = doc.out / "report.md"
    html_path.write_text(doc.html(), encoding="utf-8")
    md_path.write_text(doc.markdown(), encoding="utf-8")
    return [html_path, md_path, *doc.pngs]
