// The board as SVG from the map data (each location's x/y), the units and tokens from the view.
import type { ExpView, ScytheView, View } from "./generated/view";
import type { Option } from "./logic";

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

export function Board({ geo, view, targets, selected, onPick }: Props) {
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
    <svg class="board" viewBox="0 0 720 600" role="img" aria-label={`Map: ${geo.name}`}>
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
          + (lake ? `; lake card ${lake}` : "") + (hot ? `; ${targets.get(l.id)?.length} option(s)` : "");
        return (
          <g key={l.id} class={`loc${hot ? " target" : ""}${selected === l.id ? " selected" : ""}`}
             data-loc={l.id} transform={`translate(${px(l.x)},${py(l.y)})`}
             tabIndex={hot ? 0 : -1} role={hot ? "button" : undefined} aria-label={label}
             onClick={() => hot && onPick(l.id)}
             onKeyDown={(ev) => { if (hot && (ev.key === "Enter" || ev.key === " ")) { ev.preventDefault(); onPick(l.id); } }}>
            <title>{label}</title>
            <circle r={l.kind === "lake" ? 34 : 30} fill={fill} class="hex" />
            <text class="terrain" y={-12}>{l.number ?? ""} {letter}</text>
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
