"""The kinds of decision frame, as one ``StrEnum``.

A ``Frame.kind`` is stored as the member's string (saves and hashes are unchanged), and a member
equals its string, so ``f.kind == FrameKind.S_SECTION`` reads a loaded state as well. Adding a
frame kind is a member here plus its ``@flow.handler``; ``tests/test_layout.py`` checks that every
member has a handler and every handler a member.

Each member is also a module constant (``frames.S_SECTION``), which the rules use as
``K.S_SECTION`` (``from meloch.engine import frames as K``): on Python 3.11 reading an attribute
of an enum class costs about four times a module attribute, and frame kinds are read at every step.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final


class FrameKind(StrEnum):
    """Every kind of decision frame; ``flow.handler`` registers one handler per member."""

    AUTOMA_ROW = "automa_row"
    """The solo Automa carries out one row of its card (``tag`` the card, ``count`` the row)."""
    AUTOMA_TURN = "automa_turn"
    """The solo Automa's turn: it draws an action card."""
    C_AMBUSH = "c_ambush"
    C_DIAL = "c_dial"
    C_RESOLVE = "c_resolve"
    C_REVEAL = "c_reveal"
    C_STAR = "c_star"
    C_SURPRISE = "c_surprise"
    C_TUCK = "c_tuck"
    C_VEER = "c_veer"
    DRAW2 = "draw2"
    E_ACTIONS = "e_actions"
    E_ACTIVATE = "e_activate"
    E_ADJACENT = "e_adjacent"
    E_BOAST = "e_boast"
    E_DISCARD = "e_discard"
    E_GATHER = "e_gather"
    E_MAP_TOKEN_AT = "e_map_token_at"
    E_HIGHLANDER = "e_highlander"
    E_MELD = "e_meld"
    E_MOLE = "e_mole"
    E_MOVE = "e_move"
    E_PAY_MAP_TOKEN = "e_pay_map_token"
    E_PAY_WORKER = "e_pay_worker"
    E_PLAY = "e_play"
    E_PLAY_WORKER = "e_play_worker"
    E_RESCUE = "e_rescue"
    E_SOLVE = "e_solve"
    E_TAKE = "e_take"
    E_TOKEN = "e_token"
    E_TRASH = "e_trash"
    E_UPGRADE = "e_upgrade"
    E_VANQUISH = "e_vanquish"
    E_VOYAGER = "e_voyager"
    E_WORKER_COLOUR = "e_worker_colour"
    FX = "fx"
    KEEP1 = "keep1"
    MELOCH_DRAW = "meloch_draw"
    MELOCH_GAIN = "meloch_gain"
    MELOCH_ORIENT = "meloch_orient"
    ONE_OF = "one_of"
    PAY_COMBAT = "pay_combat"
    PEEK = "peek"
    S_AFTER_MOVE = "s_after_move"
    S_ARTILLERY = "s_artillery"
    S_BOTTOM = "s_bottom"
    S_BUILD = "s_build"
    S_CARRY = "s_carry"
    S_DEPLOY = "s_deploy"
    S_ENCOUNTER = "s_encounter"
    S_ENCOUNTER_CHECK = "s_encounter_check"
    S_ENLIST = "s_enlist"
    S_FACTORY = "s_factory"
    S_FACTORY_CHECK = "s_factory_check"
    S_FIGHT = "s_fight"
    S_FIGHT_CHECK = "s_fight_check"
    S_MOVE = "s_move"
    S_FACTORY_MOVE = "s_factory_move"
    """The Factory card's Move: one unit, up to ``count`` steps."""
    S_PAY = "s_pay"
    S_PLACE_RESOURCE = "s_place_resource"
    S_PLACE_WORKER = "s_place_worker"
    S_PRODUCE = "s_produce"
    S_REARM = "s_rearm"
    S_REFRESH = "s_refresh"
    S_RETURN_WORKER = "s_return_worker"
    S_SECTION = "s_section"
    S_TOKEN = "s_token"
    S_TOP = "s_top"
    S_TRADE = "s_trade"
    S_UPGRADE = "s_upgrade"
    S_VESNA = "s_vesna"
    S_VIA = "s_via"
    SWEEP = "sweep"
    TURN_END = "turn_end"


AUTOMA_ROW: Final = FrameKind.AUTOMA_ROW
AUTOMA_TURN: Final = FrameKind.AUTOMA_TURN
C_AMBUSH: Final = FrameKind.C_AMBUSH
C_DIAL: Final = FrameKind.C_DIAL
C_RESOLVE: Final = FrameKind.C_RESOLVE
C_REVEAL: Final = FrameKind.C_REVEAL
C_STAR: Final = FrameKind.C_STAR
C_SURPRISE: Final = FrameKind.C_SURPRISE
C_TUCK: Final = FrameKind.C_TUCK
C_VEER: Final = FrameKind.C_VEER
DRAW2: Final = FrameKind.DRAW2
E_ACTIONS: Final = FrameKind.E_ACTIONS
E_ACTIVATE: Final = FrameKind.E_ACTIVATE
E_ADJACENT: Final = FrameKind.E_ADJACENT
E_BOAST: Final = FrameKind.E_BOAST
E_DISCARD: Final = FrameKind.E_DISCARD
E_GATHER: Final = FrameKind.E_GATHER
E_MAP_TOKEN_AT: Final = FrameKind.E_MAP_TOKEN_AT
E_HIGHLANDER: Final = FrameKind.E_HIGHLANDER
E_MELD: Final = FrameKind.E_MELD
E_MOLE: Final = FrameKind.E_MOLE
E_MOVE: Final = FrameKind.E_MOVE
E_PAY_MAP_TOKEN: Final = FrameKind.E_PAY_MAP_TOKEN
E_PAY_WORKER: Final = FrameKind.E_PAY_WORKER
E_PLAY: Final = FrameKind.E_PLAY
E_PLAY_WORKER: Final = FrameKind.E_PLAY_WORKER
E_RESCUE: Final = FrameKind.E_RESCUE
E_SOLVE: Final = FrameKind.E_SOLVE
E_TAKE: Final = FrameKind.E_TAKE
E_TOKEN: Final = FrameKind.E_TOKEN
E_TRASH: Final = FrameKind.E_TRASH
E_UPGRADE: Final = FrameKind.E_UPGRADE
E_VANQUISH: Final = FrameKind.E_VANQUISH
E_VOYAGER: Final = FrameKind.E_VOYAGER
E_WORKER_COLOUR: Final = FrameKind.E_WORKER_COLOUR
FX: Final = FrameKind.FX
KEEP1: Final = FrameKind.KEEP1
MELOCH_DRAW: Final = FrameKind.MELOCH_DRAW
MELOCH_GAIN: Final = FrameKind.MELOCH_GAIN
MELOCH_ORIENT: Final = FrameKind.MELOCH_ORIENT
ONE_OF: Final = FrameKind.ONE_OF
PAY_COMBAT: Final = FrameKind.PAY_COMBAT
PEEK: Final = FrameKind.PEEK
S_AFTER_MOVE: Final = FrameKind.S_AFTER_MOVE
S_ARTILLERY: Final = FrameKind.S_ARTILLERY
S_BOTTOM: Final = FrameKind.S_BOTTOM
S_BUILD: Final = FrameKind.S_BUILD
S_CARRY: Final = FrameKind.S_CARRY
S_DEPLOY: Final = FrameKind.S_DEPLOY
S_ENCOUNTER: Final = FrameKind.S_ENCOUNTER
S_ENCOUNTER_CHECK: Final = FrameKind.S_ENCOUNTER_CHECK
S_ENLIST: Final = FrameKind.S_ENLIST
S_FACTORY: Final = FrameKind.S_FACTORY
S_FACTORY_CHECK: Final = FrameKind.S_FACTORY_CHECK
S_FIGHT: Final = FrameKind.S_FIGHT
S_FIGHT_CHECK: Final = FrameKind.S_FIGHT_CHECK
S_MOVE: Final = FrameKind.S_MOVE
S_FACTORY_MOVE: Final = FrameKind.S_FACTORY_MOVE
S_PAY: Final = FrameKind.S_PAY
S_PLACE_RESOURCE: Final = FrameKind.S_PLACE_RESOURCE
S_PLACE_WORKER: Final = FrameKind.S_PLACE_WORKER
S_PRODUCE: Final = FrameKind.S_PRODUCE
S_REARM: Final = FrameKind.S_REARM
S_REFRESH: Final = FrameKind.S_REFRESH
S_RETURN_WORKER: Final = FrameKind.S_RETURN_WORKER
S_SECTION: Final = FrameKind.S_SECTION
S_TOKEN: Final = FrameKind.S_TOKEN
S_TOP: Final = FrameKind.S_TOP
S_TRADE: Final = FrameKind.S_TRADE
S_UPGRADE: Final = FrameKind.S_UPGRADE
S_VESNA: Final = FrameKind.S_VESNA
S_VIA: Final = FrameKind.S_VIA
SWEEP: Final = FrameKind.SWEEP
TURN_END: Final = FrameKind.TURN_END
