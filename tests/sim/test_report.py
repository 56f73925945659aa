"""``meloch report``: Wilson intervals, the stand-out flags, and the files the report writes."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from meloch.cli.main import app
from meloch.sim.report import _outside, pooled
from meloch.sim.simulate import Grid, simulate
from meloch.sim.stats import mean_interval, wilson


def test_wilson_interval() -> None:
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)


def test_mean_interval_of_paired_differences() -> None:
    m, half = mean_interval([1.0, 0.0, 0.0, -1.0, 1.0, 0.0])
    assert m == pytest.approx(1 / 6)
    sd = ((2 * (5 / 6) ** 2 + 3 * (1 / 6) ** 2 + (7 / 6) ** 2) / 5) ** 0.5
    assert half == pytest.approx(1.959964 * sd / 6 ** 0.5)
    assert mean_interval([0.0, 0.0]) == (0.0, 0.0)
    with pytest.raises(ValueError, match="at least 2"):
        mean_interval([1.0])


def test_stand_out_flags() -> None:
    assert _outside(50, 100) == ""
    assert _outside(36, 100) == "point"  # estimate outside 40-60%, interval reaches inside
    assert _outside(200, 1000) == "yes"
    assert _outside(0, 0) == ""


def test_report_files(tmp_path: Path) -> None:
    res = tmp_path / "res"
    simulate(Grid(agents0=("aggressive",), agents1=("aggressive",), factions=("crimea", "saxony"),
                  mechs=("mole", "voyager"), games=2), res, workers=1)
    out = tmp_path / "rep"
    r = CliRunner().invoke(app, ["report", str(res), "--out", str(out), "--title", "Test report"])
    assert r.exit_code == 0, r.output
    html = (out / "report.html").read_text()
    md = (out / "report.md").read_text()
    assert html.count("data:image/png;base64,") >= 6  # self-contained
    for png in ("role", "faction_mat", "mech", "map_track", "claims", "combats", "length"):
        assert (out / f"{png}.png").stat().st_size > 1000
        assert f"({png}.png)" in md
    assert "# Test report" in md and "8 games over 4 configurations" in md and "| aggressive vs aggressive | 8 |" in md
    assert "Balance targets" in md and "checks pass" in md
    assert "## Faction x mat cells: the content or the sample" in md and "fitted cells lie outside the band" in md
    assert "Configurations that stand out" in md and "| mech | games | Expeditions win rate" in md
    r = CliRunner().invoke(app, ["report", str(tmp_path / "missing")])
    assert r.exit_code == 2 and "not a results directory" in r.output


def test_report_agent_filter(tmp_path: Path) -> None:
    res = tmp_path / "res"
    simulate(Grid(agents0=("aggressive", "random"), agents1=("aggressive",), games=2), res, workers=1)
    r = CliRunner().invoke(app, ["report", str(res), "--out", str(tmp_path / "a"), "--agent", "aggressive"])
    assert r.exit_code == 0, r.output
    md = (tmp_path / "a" / "report.md").read_text()
    assert "Below: the 2 games with aggressive in both seats" in md
    assert "| random vs aggressive | 2 |" in md  # the agents table keeps every pairing
    r = CliRunner().invoke(app, ["report", str(res), "--out", str(tmp_path / "b"), "--agent", "random"])
    assert r.exit_code == 2 and "no finished games with random in both seats" in r.output


def test_report_pools_runs_of_other_roots(tmp_path: Path) -> None:
    """Several results directories (the same grid on other root seeds) pool their games: twice the
    games over the same configurations; a directory given twice is refused, not double-counted."""
    grid = Grid(agents0=("aggressive",), agents1=("aggressive",), factions=("crimea", "saxony"), games=1)
    a, b = tmp_path / "a", tmp_path / "b"
    simulate(grid, a, workers=1)
    simulate(msgspec.structs.replace(grid, root=7), b, workers=1)
    r = CliRunner().invoke(app, ["report", str(a), str(b), "--out", str(tmp_path / "rep")])
    assert r.exit_code == 0, r.output
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "4 games over 2 configurations (2 runs pooled, root seeds 0, 7, 2.0 games per configuration" in md
    assert "| aggressive vs aggressive | 4 |" in md
    r = CliRunner().invoke(app, ["report", str(a), str(a), "--out", str(tmp_path / "twice")])
    assert r.exit_code == 2 and "appear in more than one" in r.output


def test_report_over_replaces_games_on_the_same_deals(tmp_path: Path) -> None:
    """``--over``: a run on a slice of the grid (its root, so its seeds) replaces the grid's games of
    the same configuration and seed, not adds to them; the Run paragraph says how many."""
    grid = Grid(agents0=("aggressive",), agents1=("aggressive",), factions=("crimea", "saxony"), games=1)
    base, lever = tmp_path / "base", tmp_path / "lever"
    simulate(grid, base, workers=1)
    simulate(msgspec.structs.replace(grid, only=("faction=crimea",)), lever, workers=1)
    # the slice's game as changed content would end it: marked by a length no game has
    (part,) = lever.glob("part-*.parquet")
    table = pq.read_table(part)
    pq.write_table(table.set_column(table.schema.get_field_index("turns"), "turns", pa.array([999])), part)
    grids, df, replaced = pooled([base], [lever])
    assert (len(grids), len(df), replaced) == (2, 2, 1)
    assert df[df["turns"] == 999]["faction"].tolist() == ["crimea"]
    assert df[df["turns"] != 999]["faction"].tolist() == ["saxony"]
    r = CliRunner().invoke(app, ["report", str(base), "--over", str(lever), "--out", str(tmp_path / "rep")])
    assert r.exit_code == 0, r.output
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "2 games over 2 configurations" in md
    assert f"1 game of {base} are replaced by those of {lever} on the same configuration and seed" in md
    r = CliRunner().invoke(app, ["report", str(base), "--over", str(lever), "--over", str(lever),
                                 "--out", str(tmp_path / "twice")])
    assert r.exit_code == 2 and "appear in more than one" in r.output
