"""Map geometry: adjacency by unit kind, rivers, tunnels, terrain, directions.

Built once per map side of each content set (``game_content.index``); rules ask it questions,
never the raw data.
"""

from __future__ import annotations

from meloch.content.schema import Content, Location
from meloch.engine.game_content import index


class Board:
    def __init__(self, content: Content, side: str) -> None:
        m = content.maps[side]
        self.side = side
        self.loc: dict[str, Location] = {loc.id: loc for loc in m.locations}
        self.home_scythe = m.home_scythe
        self.home_expeditions = m.home_expeditions
        self.numbered: tuple[str, ...] = tuple(
            sorted((lid for lid, loc in self.loc.items() if loc.kind == "location"), key=lambda i: int(i))
        )
        self.lakes: tuple[str, ...] = tuple(sorted(lid for lid, loc in self.loc.items() if loc.kind == "lake"))
        self.homes: tuple[str, ...] = tuple(sorted(lid for lid, loc in self.loc.items() if loc.kind == "home"))
        self.tunnels: frozenset[str] = frozenset(lid for lid, loc in self.loc.items() if loc.tunnel)
        self.factory: str = next(lid for lid, loc in self.loc.items() if loc.factory)
        land: dict[str, set[str]] = {lid: set() for lid in self.loc}
        river: dict[str, set[str]] = {lid: set() for lid in self.loc}
        for e in m.edges:
            (river if e.river else land)[e.a].add(e.b)
            (river if e.river else land)[e.b].add(e.a)
        self.land = {k: frozenset(v) for k, v in land.items()}
        self.river = {k: frozenset(v) for k, v in river.items()}
        self.all_adjacent = {k: self.land[k] | self.river[k] for k in self.loc}
        self.territories: frozenset[str] = frozenset(self.numbered)
        """Numbered locations: the territories (a set, for the per-step control count)."""
        self._mech_steps: dict[str, frozenset[str]] = {
            k: frozenset(n for n in self.all_adjacent[k] if self.loc[n].kind == "location") for k in self.loc}
        self.mech_distance: dict[str, dict[str, int]] = {k: self._mech_bfs(k) for k in self.loc}
        """Fewest Expeditions-mech steps from a location to each numbered location it reaches (stops
        on map tokens and Scythe units not counted): what an evaluation reads as "how far"."""
        self.boast_sites: frozenset[str] = frozenset(
            lid for lid, loc in self.loc.items() if any(e.op == "boast" for e in loc.gather + loc.revealed))
        """Locations with a Boast among their Gather benefits, exposed or hidden: where a Gather may
        Boast (whether it does now is the Gather rule's, ``variants.GATHER_BENEFITS``)."""

    def _mech_bfs(self, start: str) -> dict[str, int]:
        dist = {start: 0}
        frontier = [start]
        while frontier:
            nxt = []
            for a in frontier:
                for n in self._mech_steps[a]:
                    if n not in dist:
                        dist[n] = dist[a] + 1
                        nxt.append(n)
            frontier = nxt
        return dist

    def is_territory(self, lid: str) -> bool:
        """Numbered locations are territories; lakes and home bases are not."""
        return lid in self.territories

    def terrain(self, lid: str) -> str:
        return self.loc[lid].terrain

    def scythe_steps(self, lid: str, *, rivers: frozenset[str] = frozenset(), lakes: bool = False) -> set[str]:
        """One Scythe step from ``lid``: land neighbours, tunnel links, river crossings onto the
        given terrains (Riverwalk), lakes only if ``lakes``. Never into a home base."""
        out = set(self.land[lid])
        if lid in self.tunnels:
            out |= self.tunnels - {lid}
        if rivers:
            out |= {n for n in self.river[lid] if self.loc[n].terrain in rivers}
        return {
            n
            for n in out
            if self.loc[n].kind != "home" and (lakes or self.loc[n].kind != "lake")
        }

    def mech_steps(self, lid: str) -> frozenset[str]:
        """One Expeditions-mech step: across land or rivers, never onto lakes or home bases,
        never through tunnels (tunnel locations are still entered by ordinary adjacency)."""
        return self._mech_steps[lid]

    def is_north(self, of: str, than: str) -> bool:
        """Is any part of ``of`` higher than ``than`` (seen from the Expeditions seat)?"""
        a, b = self.loc[of], self.loc[than]
        return a.y + a.half_height > b.y + b.half_height

    def is_south(self, of: str, than: str) -> bool:
        a, b = self.loc[of], self.loc[than]
        return a.y - a.half_height < b.y - b.half_height


def board(side: str) -> Board:
    """The board of ``side`` in the active game's content."""
    ix = index()
    b = ix.boards.get(side)
    if b is None:
        b = ix.boards[side] = Board(ix.content, side)
    return b
