// The board as SVG from the map data (each location's x/y), the units and tokens from the view.
import { useContext, useRef, useState } from "preact/hooks";
import type { ExpView, ScytheView, View } from "./generated/view";
import { HelpContext } from "./help";
import { type Box, type Option, entryFor, panBy, zoomAt } from "./logic";

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
  const units = new Map<string, { label: string; shape: "square" | "circle" | "tri"; seat: number }[]>();
  const put = (loc: string, label: string, shape: "square" | "circle" | "tri", seat: number) => {
    const l = units.get(loc);
    const u = { label, shape, seat };
    if (l) l.push(u); else units.set(loc, [u]);
  };
  view.seats.forEach((p, seat) => {
    if (p.role === "scythe") {
      const s = p as ScytheView;
      put(s.character, "C", "square", seat);
      s.mechs.forEach((m) => put(m, "M", "square", seat));
      const w = new Map<string, number>();
      s.workers.forEach((x) => w.set(x, (w.get(x) ?? 0) + 1));
      w.forEach((n, loc) => put(loc, `W${n}`, "square", seat));
      s.structures.forEach(([kind, loc]) => put(loc, kind[0].toUpperCase(), "square", seat));
    } else {
      const e = p as ExpView;
      put(e.loc, "X", "circle", seat);
    }
  });
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
          + (here.length ? `; units: ${here.map((u) => `${view.tags[u.seat]} ${u.label}`).join(", ")}` : "")
          + (tokens.has(l.id) ? "; face-down map token" : "") + (corr ? `; ${corr} corruption` : "")
          + (lake ? `; lake card ${entryFor(help.index, lake)?.name ?? lake}` : "") + (hot ? `; ${targets.get(l.id)?.length} option(s)` : "");
        const tip = [label, tokens.has(l.id) ? textOf("map-token") : "", lake ? textOf(lake) : "",
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
            <text class="terrain" y={-12}>{l.number ?? ""} {letter}</text>
            {lake && <text class="lakecard" y={22}>{(entryFor(help.index, lake)?.name ?? lake).slice(0, 11)}</text>}
            {l.tunnel && <rect x={-26} y={8} width={10} height={10} class="tunnel" />}
            {tokens.has(l.id) && <rect x={14} y={-26} width={12} height={12} class="token" />}
            {corr > 0 && <text class="corr" x={-24} y={-18}>⬣{corr}</text>}
            {here.map((u, i) => (
              <g key={i} transform={`translate(${-18 + (i % 4) * 12},${6 + Math.floor(i / 4) * 12})`}>
                {u.shape === "square" ? <rect x={-5} y={-5} width={10} height={10} class={`unit seat${u.seat}`} />
                  : <circle r={6} class={`unit seat${u.seat}`} />}
              </g>
            ))}
            {here.length > 0 && <text class="units" y={28}>{here.map((u) => u.label).join(" ")}</text>}
          </g>
        );
      })}
    </svg>
  );
}
