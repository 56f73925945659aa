"""The effect vocabulary: every op and custom handler used by content is implemented and readable."""

from __future__ import annotations

import meloch.engine  # noqa: F401  (registers every rule module)
from meloch.content import load
from meloch.content.schema import Effect
from meloch.content.vocab import EFFECT_OPS
from meloch.engine import effects


def _all_effects() -> list[Effect]:
    c = load()
    out: list[Effect] = []

    def walk(fx: tuple[Effect, ...]) -> None:
        for e in fx:
            out.append(e)
            for opt in e.one_of:
                walk(opt)

    for m in c.maps.values():
        for loc in m.locations:
            walk(loc.gather)
            walk(loc.revealed)
    for card in c.cards.values():
        for fx in (card.ability, card.meld, card.solve_gain, card.solve_cost):
            walk(fx)
    for t in c.map_tokens:
        walk(t.bonus)
    for cc in c.combat_cards:
        walk(cc.discard)
    for mc in c.meloch_cards:
        for half in (mc.left, mc.right):
            walk(half.toward_scythe)
            walk(half.toward_expeditions)
    for enc in c.encounters:
        for o in enc.options:
            walk(o.cost)
            walk(o.gain)
    for fc in c.factory_cards:
        walk(fc.cost)
        walk(fc.gain)
    return out


def test_every_custom_handler_used_by_content_exists_and_reads_well() -> None:
    customs = {e.arg for e in _all_effects() if e.op == "custom"}
    assert customs <= set(effects.CUSTOM), customs - set(effects.CUSTOM)
    for name in effects.CUSTOM:
        assert name in effects.CUSTOM_TEXT, f"custom handler {name} has no text in effects.CUSTOM_TEXT"
        assert "_" not in effects.describe(Effect(op="custom", arg=name))


def test_every_gain_op_used_by_content_is_known() -> None:
    ops = {e.op for e in _all_effects()}
    assert ops <= EFFECT_OPS, ops - EFFECT_OPS


def test_describe_reads_like_card_text() -> None:
    e = Effect(op="one_of", one_of=((Effect(op="custom", arg="nikte_refresh"),), (Effect(op="solve", arg="nikte"),)))
    assert effects.describe(e) == "refresh all other workers (Nikte's stays) / solve"
    assert effects.describe(Effect(op="power", n=2)) == "power 2"


def test_can_gain_hides_options_that_can_do_nothing() -> None:
    from meloch.engine import Setup, new_game
    from meloch.scenario import apply_patch

    s = new_game(Setup(), 1)
    deploy = (Effect(op="deploy"),)
    assert effects.can_gain(s, 0, deploy)
    full = apply_patch(s, {"seats.0.mechs": ["1", "1", "2", "2"], "seats.0.mech_slots": [0, 1, 2, 3]})
    assert not effects.can_gain(full, 0, deploy)
    nohoch = (Effect(op="custom", arg="nohoch_corruption"),)
    broke = apply_patch(s, {"seats.1.coins": 0, "seats.1.loc": "2"})
    assert not effects.can_gain(broke, 1, nohoch)
    rich = apply_patch(s, {"seats.1.coins": 2, "seats.1.loc": "2"})
    assert effects.can_gain(rich, 1, nohoch) == bool(dict(rich.corruption).get("2"))
