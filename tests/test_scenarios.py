"""Every rules scenario (``tests/scenarios/**/*.yaml``, format in docs/scenarios.md), and the harness itself.

One test runs them all: the top folder pins the foundation, ``scythe/``, ``expeditions/`` and
``interaction/`` pin the rules of their issues (their own modules check the coverage counts)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from meloch.cli.main import app
from meloch.engine import Setup, new_game
from meloch.scenario import PatchError, ScenarioError, apply_patch, load_scenario, run, run_file
from meloch.scenario.model import Scenario

ROOT = Path(__file__).parent / "scenarios"
SCENARIOS = sorted(ROOT.rglob("*.yaml"))


def test_there_are_scenarios() -> None:
    assert len(list(ROOT.glob("*.yaml"))) >= 12


@pytest.mark.parametrize("path", SCENARIOS, ids=[str(p.relative_to(ROOT).with_suffix("")) for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    result = run_file(path)
    if not result.ok:
        pytest.fail(result.report(), pytrace=False)


# ---------------------------------------------------------------- the harness


def _scenario(**kw: Any) -> Scenario:
    import msgspec

    data = {"name": "t", "source": "test", "steps": [], **kw}
    return msgspec.convert(data, Scenario)


def test_failure_names_step_and_difference() -> None:
    sc = _scenario(steps=[{"action": "E token all"}, {"expect": {"seats.1.token": "move"}},
                          {"legal": {"contains": ["E do fly"], "count": 1}}])
    r = run(sc, "x.yaml")
    assert not r.ok
    text = r.report()
    assert 'x.yaml: step 1 (check): expect seats.1.token: want "move", got "all"' in text
    assert "x.yaml: step 2 (check): legal: 'E do fly' missing" in text
    assert "want 1 actions" in text


def test_error_expectations() -> None:
    ok = run(_scenario(steps=[{"action": "S section 1", "error": "not_your_turn"}]))
    assert ok.ok
    wrong = run(_scenario(steps=[{"action": "S section 1", "error": "illegal_choice"}]))
    assert "want code 'illegal_choice', got [not_your_turn]" in wrong.report()
    missing = run(_scenario(steps=[{"action": "E token all", "error": "illegal_choice"}]))
    assert "but the action was applied" in missing.report()


def test_unknown_scenario_key_is_refused(tmp_path: Path) -> None:
    p = tmp_path / "bad.yaml"
    p.write_text("name: x\nsource: y\nsteps:\n  - action: E token all\n    expct: {}\n")
    with pytest.raises(ScenarioError, match=r"unknown field `expct`.*steps\[0\]"):
        load_scenario(p)


@pytest.mark.parametrize(("patch", "match"), [
    ({"seats.0.cooins": 3}, r"patch seats.0.cooins: unknown field: seats.0 has no field 'cooins'"),
    ({"seats.0.coins": "five"}, r"patch seats.0.coins: wrong value 'five': Expected `int`, got `str`"),
    ({"seats.2.coins": 1}, r"patch seats.2.coins: unknown field: seats has 2 entries"),
    ({"seats.0.coins": -1}, r"negative coins"),
    ({"combat_deck": [1, 2, 3]}, r"combat cards: 5 placed"),
    ({"seats.1.workers": ["hero", "red", "red", "red", "red"]}, r"above 3 per colour"),
    ({"seats.0.stars_unplaced": 5}, r"stars 0 placed \+ 5 unplaced"),
    ({"combat_deck_top": ["ambsh"]}, r"patch combat_deck_top: unknown combat card type 'ambsh'"),
    ({"seats.1.hand": ["zz"]}, r"patch seats.1.hand: unknown discovery card 'zz'"),
    ({"seats.0.hand": ["i01"]}, r"seat 0 is a scythe seat and has no hand"),
    ({"turn_of": 2}, r"patch turn_of: expected seat 0 or 1"),
])
def test_bad_patches_are_refused(patch: dict[str, Any], match: str) -> None:
    s = new_game(Setup(), 1)
    with pytest.raises(PatchError, match=match):
        apply_patch(s, patch)


def test_patch_moves_cards_with_accounting() -> None:
    from meloch.engine.cards import combat_type
    from meloch.scenario.invariants import check

    s = new_game(Setup(), 1)
    held = s.seats[0].combat_cards
    p = apply_patch(s, {"combat_deck_top": ["no_guts_no_glory", "ambush"],
                        "seats.1.combat_cards": ["munitions_bounty", "munitions_bounty"],
                        "seats.1.hand": ["i01", "nikte", "nohoch"],
                        "discovery_deck_top": ["q03"]})
    assert [combat_type(c).id for c in p.combat_deck[-2:]] == ["ambush", "no_guts_no_glory"]
    assert [combat_type(c).id for c in p.seats[1].combat_cards] == ["munitions_bounty"] * 2
    assert p.seats[0].combat_cards == held
    assert p.seats[1].hand == ("i01", "nikte", "nohoch")
    assert p.discovery_deck[-1] == "q03"
    assert check(p) == []
    assert s.seats[1].combat_cards == ()  # the input state is unchanged


def test_patch_turn_of() -> None:
    s = apply_patch(new_game(Setup(), 1), {"turn_of": 0})
    assert s.active == 0
    assert s.frames[-1].kind == "s_section"


def test_cli_scenario_command(tmp_path: Path) -> None:
    runner = CliRunner()
    good = runner.invoke(app, ["scenario", str(SCENARIOS[0])])
    assert good.exit_code == 0, good.output
    assert "PASS" in good.output
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\nsource: y\nsteps:\n  - action: E token all\n    expect: {seats.1.token: move}\n")
    res = runner.invoke(app, ["scenario", str(bad)])
    assert res.exit_code == 1
    assert "FAIL" in res.output
    assert "seats.1.token" in res.output
