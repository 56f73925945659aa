"""What a newcomer reads: rules topics, the glossary and the public content's texts.

Written from the rulebook and ``rules/reference.md``; card texts come from the content data. The
terminal (``meloch.cli.guide``: ``rules``, ``card``, ``explain``) and the server (``/api/rules``,
``/api/content``: the browser's rules panel and hover texts) both read this module, so the words
are written once.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from meloch.content import load
from meloch.content.schema import Effect


def effect_text(e: Effect) -> str:
    """A short description of one content effect, e.g. ``power +2`` (display only)."""
    if e.op == "one_of":
        return " / ".join(" + ".join(effect_text(x) for x in opt) or "nothing" for opt in e.one_of)
    if e.op == "custom":
        return e.arg.replace("_", " ")
    name = e.op.replace("_", " ")
    if e.arg:
        name = f"{name} {e.arg}"
    counted = e.n != 1 or e.op in ("power", "guile", "coins", "popularity", "combat_cards")
    return f"{name} +{e.n}" if counted else name


def effects_text(effects: Sequence[Effect]) -> str:
    return ", ".join(effect_text(e) for e in effects) or "nothing"


GLOSSARY: dict[str, str] = {
    "action token": "The marker on the section (Scythe) or action (Expeditions) you used last turn; you must "
                    "pick a different one each turn.",
    "activate": "Expeditions: use the ability of a face-up card next to your location.",
    "ambush": "A combat card type that may be played after the reveal to change a combat.",
    "boast": "Expeditions: place one star on a Triumph category whose Expeditions requirement you meet "
             "(Scythe places its stars automatically).",
    "bolster": "Scythe top action: pay $1 to gain power or combat cards.",
    "build": "Scythe bottom action: pay wood to build a structure (mill, armory, monument, mine) on a territory "
             "with your worker.",
    "character": "Scythe's hero piece; it fights, has encounters and may take a Factory card.",
    "coercion": "Crimea's ability: once per turn spend a combat card as if it were any resource.",
    "combat": "When units of both players meet: both secretly set a Power Dial and tuck combat cards; the higher "
              "total wins (the attacker wins ties); the loser retreats home; the winner may gain a combat star.",
    "combat card": "A secret card worth 2-5 in combat (some have effects); on your turn you may discard one for its "
                   "bonus instead (a free action).",
    "companion": "Expeditions: the second hero card you start with (Nohoch by default).",
    "corruption": "Tokens stacked on locations; Expeditions gains them by Vanquish, paying the top token's value "
                  "in power or guile. Clearing a stack opens a new Gather benefit.",
    "deploy": "Scythe bottom action: pay metal to put a mech (with its ability) on a territory with your worker.",
    "enlist": "Scythe bottom action: pay food to enlist a recruit: a one-time bonus now and an ongoing bonus "
              "whenever the opponent takes that section's bottom action.",
    "encounter": "Scythe: your character ending a move on an encounter token draws an encounter card and picks "
                 "one option.",
    "factory": "Location 4: the first Scythe character to reach it picks a Factory card, a fifth section with "
               "its own top action.",
    "free action": "Taken at any pause of your own turn, besides your actions: discarding a combat card for its "
                   "bonus, Leverage, some abilities. The menu folds them into one entry.",
    "gather": "Expeditions action: gain every exposed benefit of your mech's location.",
    "guile": "Expeditions' second strength (teal), spent to Vanquish corruption.",
    "hero worker": "Expeditions' special worker: it counts as every colour.",
    "item": "Expeditions card kind; Upgrade tucks it to keep its ongoing ability.",
    "lake": "One of the two lakes; each holds a face-up discovery card Expeditions may take.",
    "leverage": "Constantinople's ability, once per turn: discard an unplaced star to gain 1 resource, or pay 1 "
                "resource to regain a discarded star.",
    "map token": "Face-down tokens on locations; picking one up gives a bonus and counts on the track.",
    "mech": "Scythe: up to 4 mechs, each with an ability (riverwalk, speed...). Expeditions: your one moving piece.",
    "meld": "Expeditions: tuck a meteorite under your mat and gain the meld bonus of all your melded meteorites.",
    "meloch card": "When a star is placed, the other player lays the next Meloch card over the last one, upright "
                   "or rotated; each player then may take the benefits facing them.",
    "meteorite": "Expeditions card kind; Meld tucks it for a bonus.",
    "move": "Scythe top action: move up to 2 units one territory each (or take coins instead).",
    "popularity": "Scythe's standing with the people; some Triumph categories need it.",
    "power": "Strength spent on the Power Dial in combat and on some abilities.",
    "power dial": "In combat, the secret amount of power you commit (paid whatever happens).",
    "produce": "Scythe top action: each territory with your workers produces resources (or workers on a village).",
    "quest": "Expeditions card kind; Solve it on one of its locations for a reward.",
    "recruit": "What Enlist places; see enlist.",
    "refresh": "Expeditions: instead of actions, take back your workers and cards (your next turn then takes all "
               "three actions). Scythe: move your action token to another section.",
    "rescue": "Expeditions: return a card from your active row to your hand (its worker comes back).",
    "river": "Rivers (~ on the map) stop most moves unless an ability allows crossing.",
    "section": "Scythe: one of the 4 (or 5 with a Factory card) columns of your mat: a top action and a bottom "
               "action with a cost.",
    "solve": "Expeditions: complete a quest on one of its locations, paying its cost for its reward.",
    "star": "Placed on the Triumph Track when you meet a requirement (Scythe: at once; Expeditions: by Boast); the "
            "first to 4 stars wins.",
    "sweep": "Replace any number of the face-up discovery cards on the lakes with new ones from the deck.",
    "trade": "Scythe top action: pay $1 to gain 2 resources (placed on a territory with your worker) or "
             "popularity.",
    "trash": "Remove a card or token from the game for good.",
    "triumph track": "The shared track of 8 categories; a column holds one star; each role has its own "
                     "requirement per category.",
    "tuck": "In combat, add a combat card face down to your dial (the number tucked is public).",
    "tunnel": "Tunnel territories (T) are adjacent to each other for Scythe.",
    "upgrade": "Scythe bottom action: lower a bottom cost and raise a top action (choose the top box, then the "
               "section). Expeditions: tuck an item to keep its ongoing ability.",
    "vanquish": "Expeditions: pay the top corruption's value in power or guile to take it (repeatable), or, with "
                "a Scythe unit there, start a combat instead.",
    "veer": "Scythe mech ability: after a combat, you may refresh your action token.",
    "worker": "Scythe: produces and pays for bottom actions on its territory. Expeditions: coloured workers "
              "placed on played cards to activate their abilities.",
}
"""Every keyword a screen uses, in a sentence or two."""

TOPICS: dict[str, str] = {
    "goal": "Duel of Meloch: the Scythe player (S) against the Expeditions player (E) on a 10-location map. "
            "The first to place 4 stars on the shared Triumph Track wins at once. Each category of the track "
            "has one requirement per role ('show track'); a column takes one star.",
    "scythe": "Scythe turn: move your action token to a different section of your mat ('show cards'), then take "
              "its top action (Move, Bolster, Trade, Produce) and/or its bottom action (Upgrade, Deploy, Build, "
              "Enlist), paying the bottom cost in resources from territories you control. Stars come "
              "automatically when you meet a track requirement. Free actions (discard a combat card, Leverage) "
              "may be taken at any pause of your turn.",
    "expeditions": "Expeditions turn: cover one of Move, Play, Gather with your action token and take the other "
                   "two in any order, or Refresh (take back workers and cards; next turn you take all three). "
                   "Move: 1-3 locations. Play: a card from hand to your active row for its core value; a worker "
                   "on it activates its ability. Gather: every exposed benefit of your location. Stars need Boast.",
    "combat": "Combat: when units meet. Both secretly set a Power Dial (up to your power) and tuck combat cards; "
              "then both reveal. Higher total wins, the attacker wins ties. Both pay the dialled power; the loser "
              "retreats home and draws a combat card if it spent power. The winner may place a combat star.",
    "track": "Triumph Track: 8 categories, each with a Scythe and an Expeditions requirement; one star per "
             "column. 'show track' lists them with the stars placed.",
    "meloch": "Meloch cards: after a star is placed, the other player lays the next Meloch card, upright or "
              "rotated; then each player may take the benefits facing them (all, none, or one by one).",
    "map": "The map: locations 1-10 (4 is the Factory), two home bases and two lakes. Rivers (~) block most "
           "moves; tunnels (T) link for Scythe. 'show board' draws it with the adjacency list.",
    "keys": "Answer with an option's key (the number or letter in front of it), an action in notation "
            "(case-insensitive, the seat tag may be left out), or a command ('help').",
}
"""``rules TOPIC`` texts; ``rules`` alone lists the topics and ``rules WORD`` also searches the glossary."""


def rules_text(topic: str) -> str:
    t = topic.strip().lower()
    if not t:
        return ("Rules topics: " + ", ".join(TOPICS) + ". Type 'rules TOPIC', or 'rules WORD' for a keyword "
                "(" + ", ".join(sorted(GLOSSARY)[:8]) + ", ...; 'rules glossary' lists them all).")
    if t in ("glossary", "words", "keywords"):
        return "\n".join(f"{k}: {v}" for k, v in sorted(GLOSSARY.items()))
    if t in TOPICS:
        return TOPICS[t]
    if t in GLOSSARY:
        return f"{t}: {GLOSSARY[t]}"
    hits = [k for k in GLOSSARY if t in k] + [k for k in TOPICS if t in k]
    if hits:
        return "\n".join(f"{k}: {GLOSSARY.get(k) or TOPICS[k]}" for k in hits[:6])
    return (f"No rules topic or keyword {topic.strip()[:40]!r}. Topics: {', '.join(TOPICS)}; "
            "'rules glossary' lists the words.")


def _norm(s: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", s.lower()).strip()


def card_text(query: str) -> str:
    """A card's text by id or (part of its) name: discovery cards, combat cards, Factory cards, encounter
    cards, Meloch cards, Scythe mech abilities and the Expeditions mechs (all public content)."""
    q = _norm(query)
    if not q:
        return "Usage: card NAME or card ID (e.g. 'card i02', 'card machete', 'card riverwalk', 'card ambush')."
    entries = [(e.id, e.name, e.text) for e in catalogue() if e.kind in CARD_KINDS]
    exact = [t for i, n, t in entries if _norm(i) == q or _norm(n) == q]
    hits = exact or [t for i, n, t in entries if q in _norm(n) or q in _norm(i)]
    if not hits:
        return f"No card named {query.strip()[:40]!r}. Try part of a name ('card blade') or an id ('card i02')."
    more = f"\n({len(hits) - 5} more; be more precise)" if len(hits) > 5 else ""
    return "\n".join(dict.fromkeys(hits[:5])) + more


@dataclass(frozen=True)
class Entry:
    """One piece of public content as a player reads it: ``text`` is what hovering it shows."""

    id: str
    name: str
    kind: str
    text: str


CARD_KINDS = frozenset({"discovery", "combat card", "factory card", "encounter", "meloch card", "mech ability",
                        "faction ability", "expeditions mech"})
"""The kinds ``card NAME`` searches (the terminal's card command)."""


def _meloch_half(toward_s: Sequence[Effect], toward_e: Sequence[Effect]) -> str:
    return f"Scythe {effects_text(toward_s)}, Expeditions {effects_text(toward_e)}"


@cache
def catalogue() -> tuple[Entry, ...]:
    """Every public text of the content, by id: cards of every deck (never their order), mech and
    faction abilities, mats, Triumph categories and map-token bonuses. Shared by the terminal's
    ``card`` command and the server's ``/api/content`` (the browser's hover texts)."""
    c = load()
    out: list[Entry] = []
    for d in c.cards.values():
        extra = f" Upgraded: {d.ongoing}" if d.ongoing else ""
        out.append(Entry(d.id, d.name, "discovery", f"{d.name} ({d.kind} {d.id}; core {d.core} {d.core_value}, "
                                                    f"{d.worker} worker): {d.ability_text}{extra}"))
    for t in c.combat_cards:
        out.append(Entry(t.id, t.name, "combat card", f"{t.name} (combat card, value {t.value}, {t.count} in the "
                                                      f"deck): {t.combat_text} Discarded on your turn: "
                                                      f"{effects_text(t.discard)}."))
    for f in c.factory_cards:
        out.append(Entry(f.id, f.name, "factory card", f"{f.name} (Factory card {f.id}): {f.top_text}"))
    for e in c.encounters:
        opts = " ".join(f"{i + 1}) {o.text}" for i, o in enumerate(e.options))
        out.append(Entry(e.id, e.name, "encounter", f"{e.name} (encounter {e.id}): {opts}"))
    for m in c.meloch_cards:
        left = _meloch_half(m.left.toward_scythe, m.left.toward_expeditions)
        right = _meloch_half(m.right.toward_scythe, m.right.toward_expeditions)
        out.append(Entry(m.id, m.name, "meloch card",
                         f"{m.name} (Meloch card): left half: {left}; right half: {right}."))
    mech_texts: dict[str, dict[str, list[str]]] = {}  # ability -> text -> factions (riverwalk differs by faction)
    for fac in c.factions.values():
        for mech in fac.mechs:
            mech_texts.setdefault(mech.ability, {}).setdefault(mech.text, []).append(fac.name)
    for ability, texts in mech_texts.items():
        body = next(iter(texts)) if len(texts) == 1 else " ".join(f"{', '.join(fs)}: {t}" for t, fs in texts.items())
        out.append(Entry(ability, ability, "mech ability", f"{ability} (Scythe mech ability): {body}"))
    for fac in c.factions.values():
        out.append(Entry(fac.ability, fac.ability, "faction ability",
                         f"{fac.ability} ({fac.name} faction ability): {fac.ability_text}"))
        out.append(Entry(fac.id, fac.name, "faction", f"{fac.name} (Scythe faction): starts with {fac.power} power "
                                                     f"and {fac.combat_cards} combat cards; ability {fac.ability}: "
                                                     f"{fac.ability_text}"))
    for em in c.mechs.values():
        out.append(Entry(em.id, em.name, "expeditions mech", f"{em.name} (Expeditions mech): {em.ability_text}"))
    for mat in c.mats.values():
        secs = "; ".join(f"{s.top} / {s.bottom} (cost {s.bottom_cost}, +${s.bottom_coins})" for s in mat.sections)
        out.append(Entry(mat.id, mat.name, "mat", f"{mat.name} mat (#{mat.number}): starts with {mat.popularity} "
                                                 f"popularity and ${mat.coins}; sections: {secs}."))
    for side, track in c.tracks.items():
        for cat in track.categories:
            star = " (combat star)" if cat.combat else ""
            out.append(Entry(f"track-{side}-{cat.column}", f"Track {side} box {cat.column}", "triumph category",
                             f"Triumph Track {side}, box {cat.column}{star}: Scythe needs {cat.scythe.label}; "
                             f"Expeditions needs {cat.expeditions.label}."))
    for tok in c.map_tokens:
        out.append(Entry(tok.id, f"Map token {tok.id}", "map token", f"Map token {tok.id} (picked up): "
                                                                     f"{effects_text(tok.bonus)}."))
    out.append(Entry("map-token", "Map token", "map token",
                     "Face-down map token: picking it up gives one of these bonuses (which one stays secret "
                     "until then): " + "; ".join(effects_text(t.bonus) for t in c.map_tokens) + "."))
    return tuple(out)
