// The board as SVG from the map data (each location's x/y), the units and tokens from the view.
import { useContext, useRef, useState } from "preact/hooks";
import type { ExpView, ScytheView, View } from "./generated/view";
import { HelpContext } from "./help";
import { type Box, type Option, entryFor, panBy, zoomAt } from "./logic";

/** What the board's marks mean (shown under the board). */
export function Legend({ view }: { view: View }) {
  return (
    <details class="legend" open={typeof window === "undefined" || window.innerWidth > 800}>
      <summary>What the board's marks mean</summary>
    <dl aria-label="Board legend">
      <div><dt><span class="lg sq seat0" aria-hidden="true" /> / <span class="lg ci seat1" aria-hidden="true" /></dt>
        <dd>{view.tags[0]}'s pieces are squares, {view.tags[1]}'s circles</dd></div>
      <div><dt>C M W</dt><dd>character, mech, worker (a number: how many)</dd></div>
      <div><dt>X H</dt><dd>Expeditions mech, hero; B G P… its workers by colour</dd></div>
      <div><dt>Ml Ar Mo Mn</dt><dd>structures by initial (mill, armory, monument, mine)</dd></div>
      <div><dt><span class="lg tok" aria-hidden="true" /></dt><dd>face-down map token</dd></div>
      <div><dt><span class="lg tun" aria-hidden="true" /></dt><dd>tunnel</dd></div>
      <div><dt>⬣n</dt><dd>corruption tokens</dd></div>
      <div><dt>2f 1o</dt><dd>resources (food, oil, metal, wood)</dd></div>
      <div><dt><span class="lg riv" aria-hidden="true" /></dt><dd>river</dd></div>
      <div><dt><span class="lg hot" aria-hidden="true" /></dt><dd>you can choose it</dd></div>
    </dl></details>
  );
}

export interface MapGeo {
  id: string; name: string;
  locations: { id: string; kind: string; number: number | null; terrain: string; x: number; y: number;
               tunnel: boolean; factory: boolean }[];
  edges: { a: string; b: string; river: boolean }[];
}

// A colour-blind-safe palette (Okabe-Ito) for terrains; each terrain also has a letter.
const TERRAIN: Record<string, [string, string]> = {
  farm: ["#F0E442", "Fa"], village: ["#E69F00", "Vi"], mountain: ["#999999", "Mo"], forest: ["#009E73", "Fo"],
  tundra: ["#56B4E9", "Tu"], factory: ["#CC79A7", "★"], lake: ["#0072B2", "Lake"], home: ["#D8D2C4", "Home"],
  desert: ["#E8C07A", "De"],
};
const S = 64;
const px = (x: number): number => 30 + x * S;
const py = (y: number): number => 30 + (8.6 - y) * S;

interface Props {
  geo: MapGeo; view: View; targets: Map<string, Option[]>; selected: string | null;
  onPick: (loc: string) => void;
}

const FULL: Box = { x: 0, y: 0, w: 720, h: 600 };

/** The board with zoom and pan: wheel, pinch and drag, the +/−/reset buttons, and the keyboard
 * (+ and − zoom, arrows pan, 0 resets) when the board has focus. A drag never counts as a click. */
export function Board(props: Props) {
  const [box, setBox] = useState<Box>(FULL);
  const svg = useRef<SVGSVGElement>(null);
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const moved = useRef(0);
  const unit = () => box.w / (svg.current?.getBoundingClientRect().width || FULL.w);
  const toBoard = (cx: number, cy: number): [number, number] => {
    const r = svg.current?.getBoundingClientRect();
    if (!r || !r.width) return [box.x + box.w / 2, box.y + box.h / 2];
    return [box.x + ((cx - r.left) / r.width) * box.w, box.y + ((cy - r.top) / r.height) * box.h];
  };
  const zoom = (f: number, at?: [number, number]) => {
    const [px, py] = at ?? [box.x + box.w / 2, box.y + box.h / 2];
    setBox((b) => zoomAt(b, FULL, f, px, py));
  };
  const pan = (dx: number, dy: number) => setBox((b) => panBy(b, FULL, dx, dy));
  const zoomed = box.w < FULL.w;
  const onKey = (ev: KeyboardEvent) => {
    const step = box.w / 8;
    const keys: Record<string, () => void> = {
      "+": () => zoom(1.25), "=": () => zoom(1.25), "-": () => zoom(0.8), "0": () => setBox(FULL),
      ArrowLeft: () => pan(-step, 0), ArrowRight: () => pan(step, 0), ArrowUp: () => pan(0, -step), ArrowDown: () => pan(0, step),
    };
    if (ev.target === ev.currentTarget && keys[ev.key]) { ev.preventDefault(); keys[ev.key](); }
  };
  return (
    <div class={`boardzoom${zoomed ? " zoomed" : ""}`}>
      <div class="zoombar" role="toolbar" aria-label="Board zoom">
        <button type="button" onClick={() => zoom(1.25)} aria-label="Zoom in">+</button>
        <button type="button" onClick={() => zoom(0.8)} aria-label="Zoom out" disabled={!zoomed}>−</button>
        <button type="button" onClick={() => setBox(FULL)} aria-label="Reset the board view" disabled={!zoomed}>⟲</button>
        <span class="zoomlevel" data-testid="zoom">{Math.round((FULL.w / box.w) * 100)}%</span>
      </div>
      <div class="boardkeys" tabIndex={0} onKeyDown={onKey}
           aria-label="Board: + and − zoom, arrow keys pan, 0 resets; Tab reaches the highlighted locations">
        <BoardSvg {...props} box={box} svgRef={svg} dragged={() => moved.current > 6}
          onWheel={(ev) => { ev.preventDefault(); zoom(ev.deltaY < 0 ? 1.15 : 1 / 1.15, toBoard(ev.clientX, ev.clientY)); }}
          onPointerDown={(ev) => { pointers.current.set(ev.pointerId, { x: ev.clientX, y: ev.clientY }); moved.current = 0; }}
          onPointerMove={(ev) => {
            const ps = pointers.current;
            const last = ps.get(ev.pointerId);
            if (!last) return;
            if (ps.size === 2) {
              const [a, b] = [...ps.values()];
              const before = Math.hypot(a.x - b.x, a.y - b.y);
              ps.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
              const [c, d] = [...ps.values()];
              const after = Math.hypot(c.x - d.x, c.y - d.y);
              if (before > 0) zoom(after / before, toBoard((c.x + d.x) / 2, (c.y + d.y) / 2));
              moved.current += 10;
              return;
            }
            const dx = ev.clientX - last.x; const dy = ev.clientY - last.y;
            moved.current += Math.abs(dx) + Math.abs(dy);
            ps.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
            if (zoomed) pan(-dx * unit(), -dy * unit());
          }}
          onPointerUp={(ev) => pointers.current.delete(ev.pointerId)}
          onPointerCancel={(ev) => pointers.current.delete(ev.pointerId)} />
      </div>
    </div>
  );
}

interface SvgProps extends Props {
  box: Box; svgRef: { current: SVGSVGElement | null }; dragged: () => boolean;
  onWheel: (ev: WheelEvent) => void; onPointerDown: (ev: PointerEvent) => void; onPointerMove: (ev: PointerEvent) => void;
  onPointerUp: (ev: PointerEvent) => void; onPointerCancel: (ev: PointerEvent) => void;
}

function BoardSvg({ geo, view, targets, selected, onPick, box, svgRef, dragged, ...handlers }: SvgProps) {
  const help = useContext(HelpContext);
  const textOf = (id: string): string => entryFor(help.index, id)?.text ?? "";
  const at = new Map(geo.locations.map((l) => [l.id, l]));
  const units = new Map<string, Unit[]>();
  for (const u of boardUnits(view)) {
    const l = units.get(u.loc);
    if (l) l.push(u); else units.set(u.loc, [u]);
  }
  const res = new Map<string, string[]>();
  view.seats.forEach((p) => {
    if (p.role !== "scythe") return;
    for (const [loc, kind, n] of (p as ScytheView).resources) {
      const l = res.get(loc); const t = `${n} ${kind}`;
      if (l) l.push(t); else res.set(loc, [t]);
    }
  });
  const fight = view.combat?.loc;
  const tokens = new Set(view.map_tokens);
  return (
    <svg class="board" viewBox={`${box.x} ${box.y} ${box.w} ${box.h}`} role="group" aria-label={`Map: ${geo.name}`}
         ref={svgRef} {...handlers}>
      {geo.edges.map((e) => {
        const a = at.get(e.a); const b = at.get(e.b);
        if (!a || !b) return null;
        return <line key={`${e.a}-${e.b}`} x1={px(a.x)} y1={py(a.y)} x2={px(b.x)} y2={py(b.y)}
                     class={e.river ? "river" : "edge"} />;
      })}
      {geo.locations.map((l) => {
        const [fill, letter] = TERRAIN[l.terrain] ?? ["#ccc", "?"];
        const hot = targets.has(l.id);
        const here = units.get(l.id) ?? [];
        const corr = view.corruption[l.id]?.length ?? 0;
        const lake = view.lakes[l.id];
        const name = l.number !== null ? `Location ${l.number}` : l.id;
        const label = `${name}, ${l.terrain}${l.factory ? ", Factory" : ""}${l.tunnel ? ", tunnel" : ""}`
          + (here.length ? `; units: ${here.map((u) => `${view.tags[u.seat]} ${u.name}`).join(", ")}` : "")
          + (res.has(l.id) ? `; resources: ${res.get(l.id)?.join(", ")}` : "") + (fight === l.id ? "; combat here" : "")
          + (tokens.has(l.id) ? "; face-down map token" : "") + (corr ? `; ${corr} corruption` : "")
          + (lake ? `; lake card ${entryFor(help.index, lake)?.name ?? lake}` : "") + (hot ? `; ${targets.get(l.id)?.length} option(s)` : "");
        const opts = targets.get(l.id) ?? [];
        const tip = [label, ...opts.map((o) => `▸ ${o.label}${o.cost.length ? ` (cost: ${o.cost.join(", ")})` : ""}${o.gain.length ? ` (gain: ${o.gain.join(", ")})` : ""}`),
          tokens.has(l.id) ? textOf("map-token") : "", lake ? textOf(lake) : "",
          corr ? `Corruption here: ${(view.corruption[l.id] ?? []).map(([k, n]) => `${k} ${n}`).join(", ")}.` : ""]
          .filter(Boolean).join("\n");
        return (
          <g key={l.id} class={`loc${hot ? " target" : ""}${selected === l.id ? " selected" : ""}`}
             data-loc={l.id} transform={`translate(${px(l.x)},${py(l.y)})`}
             tabIndex={hot ? 0 : -1} role={hot ? "button" : undefined} aria-label={label}
             onClick={() => hot && !dragged() && onPick(l.id)}
             onKeyDown={(ev) => { if (hot && (ev.key === "Enter" || ev.key === " ")) { ev.preventDefault(); onPick(l.id); } }}>
            <title>{tip}</title>
            <circle r={l.kind === "lake" ? 34 : 30} fill={fill} class="hex" />
            <text class="terrain" y={-11}>{l.number ?? ""} {letter}</text>
            {lake && <text class="lakecard" y={12}>{wrap(entryFor(help.index, lake)?.name ?? lake, 12, 2).map((t, i) => <tspan key={i} x={0} dy={i ? 9 : 0}>{t}</tspan>)}</text>}
            {l.tunnel && <rect x={-26} y={8} width={10} height={10} class="tunnel" />}
            {tokens.has(l.id) && <rect x={19} y={-31} width={12} height={12} class="token" />}
            {corr > 0 && <text class="corr" x={0} y={29} text-anchor="middle">⬣{corr}</text>}
            {fight === l.id && <circle r={37} class="fight" />}
            {res.has(l.id) && <text class="res" x={27} y={-4} text-anchor="start">{res.get(l.id)?.map((t) => t.replace(/ (\w)\w*/, "$1")).join(" ")}</text>}
            {here.map((u, i) => (
              <g key={i} transform={`translate(${-21 + (i % 4) * 14},${6 + Math.floor(i / 4) * 13})`} class={`piece seat${u.seat}`}>
                {u.seat === 0 ? <rect x={-6} y={-6} width={12} height={12} class={`unit seat${u.seat}${u.colour ? ` w-${u.colour}` : ""}`} />
                  : <circle r={6.5} class={`unit seat${u.seat}${u.colour ? ` w-${u.colour}` : ""}`} />}
                <text class="glyph" y={3}>{u.glyph}</text>
                {u.count > 1 && <text class="count" x={7} y={-3}>{u.count}</text>}
              </g>
            ))}
          </g>
        );
      })}
    </svg>
  );
}

const STRUCTURE: Record<string, string> = { mill: "Ml", armory: "Ar", monument: "Mo", mine: "Mn" };

export interface Unit { loc: string; seat: number; glyph: string; name: string; count: number; colour?: string }

/** The pieces on the board from the view, one entry per kind and location with its count: the
 * Scythe character, mechs, workers and structures; the Expeditions mech, its workers by colour and
 * its hero. The shape tells the seat (seat 1 ■, seat 2 ●), the letter the piece. */
export function boardUnits(view: View): Unit[] {
  const out: Unit[] = [];
  const add = (loc: string, seat: number, glyph: string, name: string, colour?: string) => {
    if (!loc) return;
    const u = out.find((x) => x.loc === loc && x.seat === seat && x.glyph === glyph && x.colour === colour);
    if (u) { u.count += 1; u.name = `${u.count} ${name.replace(/^\w+ /, "")}s`; } else out.push({ loc, seat, glyph, name, count: 1, colour });
  };
  view.seats.forEach((p, seat) => {
    if (p.role === "scythe") {
      const s = p as ScytheView;
      add(s.character, seat, "C", "character");
      s.mechs.forEach((m) => add(m, seat, "M", "a mech"));
      s.workers.forEach((w) => add(w, seat, "W", "a worker"));
      s.structures.forEach(([kind, loc]) => add(loc, seat, STRUCTURE[kind] ?? kind.slice(0, 2), kind));
    } else {
      const e = p as ExpView;
      add(e.loc, seat, "X", "mech");
      for (const w of e.workers) {
        if (w === "hero") { if (!e.hero_trashed) add(e.loc, seat, "H", "hero"); } else add(e.loc, seat, w[0].toUpperCase(), `a ${w} worker`, w);
      }
    }
  });
  return out;
}

/** A name in at most ``lines`` lines of about ``width`` characters (the last one shortened with …). */
export function wrap(text: string, width: number, lines: number): string[] {
  const out: string[] = [];
  for (const w of text.split(/\s+/)) {
    const last = out.length - 1;
    if (last >= 0 && (out[last] + " " + w).length <= width) out[last] += " " + w; else out.push(w);
  }
  if (out.length > lines) { out.length = lines; out[lines - 1] = out[lines - 1].slice(0, width - 1) + "…"; }
  return out;
}
