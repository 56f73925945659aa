// The client's own logic, free of the DOM (tested with Vitest). No rule lives here: options come
// from the server as the engine described them; this only groups, indexes and formats them.
import type { Entry } from "./api";
import type { CombatResolved, SeenEvent } from "./generated/event";

export interface Ref { kind: string; id: string }
export interface Option {
  action: string; label: string; group: string;
  cost: string[]; gain: string[]; refs: Ref[]; free: boolean;
}
export interface Batch { seq: number; seat: number; kind: string; events: SeenEvent[] }

/** Options grouped as the engine groups them, groups in order of first appearance. */
export function groupOptions(options: Option[]): [string, Option[]][] {
  const groups = new Map<string, Option[]>();
  for (const o of options) {
    const g = groups.get(o.group);
    if (g) g.push(o); else groups.set(o.group, [o]);
  }
  return [...groups];
}

/** Options that name a board location, by location id (for highlighted, clickable targets). */
export function optionsByLocation(options: Option[]): Map<string, Option[]> {
  const out = new Map<string, Option[]>();
  for (const [k, os] of optionsByRef(options)) if (k.startsWith("location:")) out.set(k.slice(9), os);
  return out;
}

/** The key of a thing an option refers to (``refs``: a location, unit, card, section, track box...). */
export const refKey = (kind: string, id: string): string => `${kind}:${id}`;

/** Options by every thing they refer to (``kind:id``), each option once per thing, in the engine's order:
 * what makes mat sections, track boxes, cards and workers clickable targets as well as locations. */
export function optionsByRef(options: Option[]): Map<string, Option[]> {
  const out = new Map<string, Option[]>();
  for (const o of options) {
    for (const r of o.refs) {
      const k = refKey(r.kind, r.id);
      const l = out.get(k);
      if (l) { if (!l.includes(o)) l.push(o); } else out.set(k, [o]);
    }
  }
  return out;
}

/** What a click on a target does: the one option it names is sent at once when it costs and gains
 * nothing; otherwise (several options, or a cost or gain to see first) the options are listed. */
export function directPick(options: Option[]): Option | null {
  return options.length === 1 && options[0].cost.length === 0 && options[0].gain.length === 0 ? options[0] : null;
}

/** Hot-seat: which seat's view may be on screen. ``shown`` is the seat that last confirmed it holds
 * the device; when another seat must decide, a pass-the-device screen comes first (decided during
 * the render, so the next seat's secrets are never painted before the device has been passed). */
export function hotseatScreen(deciding: number | null, shown: number | null): { pass: number | null; seat: number | null } {
  if (deciding === null) return { pass: null, seat: shown };
  if (shown === null || shown === deciding) return { pass: null, seat: deciding };
  return { pass: deciding, seat: null };
}

/** Whether the client takes this decision for the player: forced, one option, and (hot-seat) the
 * device already with the deciding seat. */
export function takenForPlayer(forced: boolean, options: number, passTo: number | null): boolean {
  return forced && options === 1 && passTo === null;
}

/** Keyboard play: after a choice made from the options, focus goes back to them when the next
 * decision with options is drawn. ``wanted`` is whether that is still owed. A decision the client
 * takes for the player does not settle it: the options (and the focus in them) vanish during the
 * other seat's turn that may follow, and the focus is owed again when this seat's options return. */
export function refocusStep(wanted: boolean, options: number, taken: boolean): { focus: boolean; wanted: boolean } {
  if (!wanted || options === 0) return { focus: false, wanted };
  return { focus: true, wanted: taken };
}

/** The event kinds present in the log, in order of first appearance (the log's kind filter). */
export function logKinds(batches: Batch[]): string[] {
  const out = new Set<string>();
  for (const b of batches) for (const e of b.events) out.add(e.kind);
  return [...out];
}

/** A Power Dial as the view gives it: a number once set and visible to this viewpoint, else null
 * (the engine writes -1 before it is set). */
export const dialShown = (d: number | null | undefined): number | null => (d == null || d < 0 ? null : d);

export interface LogLine { seq: number; seat: number; kind: string; text: string; private: boolean }

/** The log as lines, newest last, optionally only one seat's and/or one kind's. */
export function logLines(batches: Batch[], seat: number | null = null, kind: string | null = null): LogLine[] {
  const out: LogLine[] = [];
  for (const b of batches) {
    for (const e of b.events) {
      if (seat !== null && e.seat !== seat) continue;
      if (kind !== null && e.kind !== kind) continue;
      out.push({ seq: b.seq, seat: e.seat, kind: e.kind, text: e.text, private: e.private ?? false });
    }
  }
  return out;
}

/** Options whose notation or label contains every word typed (the action box's autocomplete). */
export function complete(options: Option[], typed: string): Option[] {
  const words = typed.toLowerCase().split(/\s+/).filter(Boolean);
  return options.filter((o) => {
    const hay = `${o.action} ${o.label}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  });
}

/** Merge event batches received over the socket, each log entry once, in order. */
export function mergeBatches(have: Batch[], got: Batch[]): Batch[] {
  const bySeq = new Map(have.map((b) => [b.seq, b]));
  for (const b of got) bySeq.set(b.seq, b);
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}

/** Where the page keeps a game's seat tokens: the URL fragment (never sent to the server). */
export function parseFragment(hash: string): { tokens: string[]; spectator: boolean } {
  const p = new URLSearchParams(hash.replace(/^#/, ""));
  const seats = p.get("seats");
  if (seats) return { tokens: seats.split(",").filter(Boolean), spectator: false };
  const t = p.get("token");
  return { tokens: t ? [t] : [], spectator: p.get("spectate") === "1" };
}

/** The last combat's result from the log (the engine's ``combat_resolved`` event), for the reveal. */
export function lastCombat(batches: Batch[]): CombatResolved | null {
  for (let i = batches.length - 1; i >= 0; i--) {
    const evs = batches[i].events;
    for (let j = evs.length - 1; j >= 0; j--) {
      const d = evs[j].data;
      if (d && d.kind === "combat_resolved") return d as CombatResolved;
    }
  }
  return null;
}

/** Content entries by id and by name (lower case), for hover texts. */
export function indexEntries(entries: Entry[]): Map<string, Entry> {
  const m = new Map<string, Entry>();
  for (const e of entries) { if (!m.has(e.id)) m.set(e.id, e); }
  for (const e of entries) { const k = e.name.toLowerCase(); if (!m.has(k)) m.set(k, e); }
  return m;
}

/** The entry a view's name refers to: an id ("i02"), a name, or a combat card as the view writes
 * it ("Element of Surprise (1) #8"). */
export function entryFor(index: Map<string, Entry>, ref: string): Entry | undefined {
  return index.get(ref) ?? index.get(ref.toLowerCase()) ?? index.get(ref.replace(/\s*\(\d+\)\s*#\d+$/, "").toLowerCase());
}

/** The first replay step at or after ``turn`` (the last step when the game ended before it). */
export function stepForTurn(turns: number[], turn: number): number {
  const i = turns.findIndex((t) => t >= turn);
  return i < 0 ? turns.length - 1 : i;
}

export interface Box { x: number; y: number; w: number; h: number }
export const MIN_SCALE = 1;
export const MAX_SCALE = 4;

/** Keep a zoomed view box inside the full board. */
export function clampBox(b: Box, full: Box): Box {
  const w = Math.min(full.w, Math.max(full.w / MAX_SCALE, b.w));
  const h = w * (full.h / full.w);
  const x = Math.min(full.x + full.w - w, Math.max(full.x, b.x));
  const y = Math.min(full.y + full.h - h, Math.max(full.y, b.y));
  return { x, y, w, h };
}

/** Zoom by ``factor`` (>1: closer) keeping the board point (px, py) where it is on screen. */
export function zoomAt(b: Box, full: Box, factor: number, px: number, py: number): Box {
  const w = b.w / factor;
  const h = b.h / factor;
  return clampBox({ x: px - (px - b.x) / factor, y: py - (py - b.y) / factor, w, h }, full);
}

/** Move the view box by (dx, dy) board units. */
export function panBy(b: Box, full: Box, dx: number, dy: number): Box {
  return clampBox({ ...b, x: b.x + dx, y: b.y + dy }, full);
}
