"""The content vocabulary: effect ops, Triumph metrics, ability keys, item ongoing keys.

Each vocabulary is a dict ``key -> one-line meaning`` (the documentation) and a frozenset of
its keys (what the loader checks and the engine registries must cover). ``docs/content.md``
repeats these meanings; keep the two in step.
"""

from __future__ import annotations

EFFECT_OP_MEANINGS: dict[str, str] = {
    "power": "gain n power (as a cost: pay n power)",
    "guile": "gain n guile (as a cost: pay n guile)",
    "coins": "gain $n (as a cost: pay $n)",
    "popularity": "gain n popularity (as a cost: pay n popularity)",
    "combat_cards": "draw n combat cards (as a cost: discard n combat cards)",
    "resource": "gain n resources of kind arg (food/oil/metal/wood/any) (as a cost: pay them)",
    "worker": "gain a worker of colour arg (or any); Scythe places one from its mat "
    "(as a cost: return a worker to the mat)",
    "discovery": "draw n discovery cards from the deck",
    "take_card": "gain a face-up card from a lake",
    "draw2keep1": "draw any 2 cards from the combat and/or discovery decks, keep 1, discard the other",
    "refresh": "Refresh (Expeditions: cards and workers back; Scythe: move the action token)",
    "sweep": "replace any number of face-up discovery cards on the lakes",
    "upgrade": "Upgrade (Expeditions: tuck an item; Scythe: place a tech cube)",
    "meld": "Meld a meteorite",
    "boast": "Boast: place a star on one met Triumph requirement",
    "solve": "Solve a quest at this location",
    "vanquish": "Vanquish corruption here (or the Scythe units here, starting combat)",
    "rescue": "return a card from the active row to hand",
    "play": "play a card from hand",
    "map_token": "gain a map token from the set-aside supply (as a cost: pay a held map token)",
    "adjacent": "gain one benefit of an adjacent location",
    "map_token_at": "gain the map token of a location (arg adjacent: next to the mech, the default; any: any "
    "location); the mech stays",
    "gather_here": "gain the benefits of the mech's location, as Gather gives them (not a Gather action)",
    "activate_adjacent": "activate the ability of a card adjacent to your location",
    "trash": "trash a discovery or combat card",
    "discard": "discard a discovery card (hand to active row without activating)",
    "peek2": "look at the top 2 cards of the combat or the discovery deck",
    "corruption": "gain the top corruption token of your location",
    "opp_decrease": "the opponent lowers each of its track tokens by 1 (if possible)",
    "opp_power": "the opponent loses n power",
    "opp_guile": "the opponent loses n guile",
    "opp_popularity": "the opponent loses n popularity",
    "opp_coins": "the opponent loses $n",
    "opp_discard": "the opponent discards n combat cards at random",
    "produce": "Scythe: Produce on up to n territories you control with workers, without the Produce costs",
    "enlist": "Scythe: Enlist (a recruit)",
    "deploy": "Scythe: Deploy (a mech)",
    "build": "Scythe: Build (a structure)",
    "one_of": "choose one of the alternative effect lists in one_of",
    "custom": "run the code handler named by arg",
}
"""Effect op -> meaning."""

EFFECT_OPS: frozenset[str] = frozenset(EFFECT_OP_MEANINGS)

COST_OPS: frozenset[str] = frozenset(
    {"coins", "power", "guile", "popularity", "resource", "combat_cards", "map_token", "worker"}
)
"""The ops allowed in ``cost``/``solve_cost`` lists, where they mean "pay"."""

RESOURCE_ARGS: frozenset[str] = frozenset({"food", "oil", "metal", "wood", "any"})
WORKER_ARGS: frozenset[str] = frozenset({"purple", "green", "red", "yellow", "blue", "any"})
MAP_TOKEN_AT_ARGS: frozenset[str] = frozenset({"adjacent", "any"})

METRIC_MEANINGS: dict[str, str] = {
    "popularity": "popularity at least n",
    "power": "power at least n",
    "coins": "coins at least n (Fenris: minus unplaced influence tokens)",
    "structures": "Scythe structures built",
    "upgrades": "Scythe tech cubes placed",
    "mechs": "Scythe mechs deployed",
    "recruits": "Scythe recruits enlisted",
    "workers": "Scythe: workers on the board; Expeditions: workers owned incl. the hero worker",
    "control": "territories controlled",
    "combat": "a combat win (the category is marked combat: true)",
    "combat_cards": "combat cards held",
    "encounters": "map tokens gained by the Scythe character (encounters had)",
    "guile": "guile at least n",
    "corruption": "corruption tokens held",
    "corruption_guile": "guile (teal) corruption tokens held",
    "corruption_power": "power (orange) corruption tokens held",
    "map_tokens": "map tokens held by the Expeditions player",
    "items_upgraded": "items upgraded",
    "meteorites_melded": "meteorites melded",
    "quests_solved": "quests solved",
    "cards_controlled": "cards controlled (hand + active row)",
}
"""Triumph metric -> meaning."""

METRICS: frozenset[str] = frozenset(METRIC_MEANINGS)

ABILITY_MEANINGS: dict[str, str] = {
    # Scythe faction abilities
    "swim": "Nordic: workers may cross rivers",
    "relentless": "Rusviet: may choose the same mat section as last turn (not the Factory card)",
    "coercion": "Crimea: once per turn spend a combat card as any 1 resource",
    "dominate": "Saxony: no limit on combat stars",
    "meander": "Polania: choose 2 options on each encounter card",
    "exalt": "Albion: place a flag on the character's territory after movement",
    "maifuku": "Togawa: place an armed trap on the character's territory after movement",
    "technophile": "Vesna: 3 face-up Factory cards, each usable once",
    "influence": "Fenris: place influence tokens after the character moves",
    "leverage": "Constantinople: discard an unplaced star for 1 resource, or pay 1 resource to regain one",
    # Scythe mech abilities
    "riverwalk": "cross rivers onto the faction's riverwalk terrains",
    "speed": "+1 territory per movement",
    "warp": "move to another territory of the same terrain (not opponent-occupied)",
    "veer": "after combat, may refresh the action token",
    "township": "controlled villages and the Factory are adjacent",
    "underpass": "controlled mountains and tunnels are adjacent",
    "seaworthy": "lakes count as territories",
    "submerge": "lakes count as territories and are mutually adjacent",
    "burrow": "cross rivers into or out of adjacent tunnel territories",
    "rally": "move to any territory with your worker or flag",
    "toka": "once per turn one unit crosses a river",
    "shinobi": "move to any trap territory; re-arm a sprung trap there",
    "leap": "jump one territory in a straight line, crossing rivers and lakes",
    "fanatical": "move to a non-adjacent influence territory and take the token",
    "wayfare": "move to your own or an inactive faction's home base",
    "artillery": "before combat pay 1 power: opponent loses 2 power",
    "scout": "before combat steal 1 random combat card",
    "disarm": "before combat on a tunnel: opponent loses 2 power",
    "peoples_army": "+1 combat card in combats with your worker present",
    "camaraderie": "no popularity loss for displaced workers (no effect in the Duel)",
    "sword": "as attacker, the defender loses 2 power before combat",
    "shield": "as defender, gain 2 power before combat",
    "suiton": "lakes count as territories; +1 combat card in lake combats",
    "ronin": "+2 power when exactly 1 of your units is in the combat",
    "horrify": "give an influence token per opposing unit forced to retreat",
    "death_ray": "play any number of identical-value combat cards",
    "vesna_tokens": "a slot filled by one of Vesna's mech ability tokens",
    # Expeditions mech abilities
    "tatanka": "solve, upgrade and meld up to 5 times each",
    "marsh_strider": "move 1-4 locations",
    "odins_wrath": "trash a map token from the supply for 1 power, 1 guile or $1",
    "lumberjack": "vanquishing: the first corruption of each colour costs 1 less",
    "highlander": "gained cards may go directly to hand",
    "scarecrow": "trash a map token on a Refresh turn for 1 extra Move, Play or Gather",
    "mole": "trash a map token to gather a benefit covered by corruption",
    "voyager": "once per turn trash 1 corruption to Upgrade, Meld or Boast anywhere",
}
"""Faction and mech ability key -> meaning."""

ABILITIES: frozenset[str] = frozenset(ABILITY_MEANINGS)

TOKEN_ABILITIES: frozenset[str] = frozenset({"exalt", "maifuku", "influence"})
"""Faction abilities that place tokens on the board (a faction with one sets ``tokens``)."""

ONGOING_MEANINGS: dict[str, str] = {
    "move_plus1": "your mech's maximum move is 1 more",
    "combat_plus1": "+1 to your combat total",
    "vanquish_discount": "the first corruption token of each Vanquish costs 1 less",
    "gather_coin": "gain $1 whenever you take the Gather action",
    "retreat_card": "when you lose a combat, draw 1 more combat card",
}
"""Item ongoing-ability key -> meaning (an item's ``ongoing`` field)."""

ONGOING: frozenset[str] = frozenset(ONGOING_MEANINGS)

COMBAT_EFFECT_MEANINGS: dict[str, str] = {
    "munitions_bounty": "the card is worth the power on your dial",
    "element_of_surprise": "draw a combat card, add its value, discard it without its effect",
    "swarm_tactics": "+1 per unit on this location (both players, workers included)",
    "ambush": "after the reveal you may play another combat card of a different value, with its effect",
    "survey_the_battlefield": "+1 per other combat card in this combat (both players)",
    "planned_retreat": "you retreat after the combat anyway; if you win, both players retreat",
    "last_ditch_effort": "as attacker you lose ties; as defender the card is worth 5",
    "no_guts_no_glory": "you cannot earn a star from this combat, even if you win",
}
"""Combat-card effect key (a combat card's ``combat_effect``) -> meaning."""

COMBAT_EFFECTS: frozenset[str] = frozenset(COMBAT_EFFECT_MEANINGS)
