// HTTP calls to the server (docs/server.md) and the shapes of the non-game endpoints.
import type { SeenEvent } from "./generated/event";
import type { View } from "./generated/view";

export async function api<T>(method: string, path: string, body?: unknown, token?: string): Promise<T> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  const r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await r.json();
  if (!r.ok) throw new Error(data.message ?? `HTTP ${r.status}`);
  return data as T;
}

export interface Named { id: string; name: string }
/** What a new game may be set up with (``GET /api/choices``): from the content and the agent registry. */
export interface Choices {
  map_sides: Named[]; track_sides: string[]; variants: { id: string; roles: string[] }[];
  factions: Named[]; mats: (Named & { number: number })[]; mechs: Named[]; characters: Named[]; companions: Named[];
  agents: string[]; automa_levels: number[]; default_turn_limit: number; default_seat: Record<string, string | number>;
  stars_to_win: number[];
}

export interface Entry { id: string; name: string; kind: string; text: string }
export interface MatSection { top: string; bottom: string; bottom_cost: number; bottom_cost_min: number; bottom_coins: number }
export interface Requirement { icon: string; label: string }
/** The public content's texts (``GET /api/content``). */
export interface Content {
  entries: Entry[];
  mats: Record<string, { name: string; sections: MatSection[] }>;
  tracks: Record<string, { column: number; combat: boolean; scythe: Requirement; expeditions: Requirement }[]>;
}
export interface Rules { topics: Record<string, string>; glossary: Record<string, string> }

/** One step of a finished game (``GET /api/games/{id}/replay``) as the token's viewpoint sees it. */
export interface ReplayStep {
  game_id: string; step: number; steps: number; seat: number | null; turns: number[]; view: View;
  events: SeenEvent[]; outcome: { winner: number | null; reason: string } | null;
  progress: { column: number; label: string; have: number; need: number; open: boolean }[][]; meloch_facing: string[];
}
