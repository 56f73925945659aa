// One WebSocket per seat token (docs/server.md): state pushes, acks, refusals; reconnects on drop,
// but not after the server closed it for good (4400-4499: no such game, a token that opens no seat...).
import type { View } from "./generated/view";
import type { Batch, Option } from "./logic";
import type { Extras } from "./mat";

export interface StateMsg {
  type: "state"; game: string; seat: number | null; seq: number; status: string; view: View;
  decision: { seat: number; kind: string; prompt: string } | null; options: Option[]; forced: boolean;
  can_undo: boolean; events: Batch[]; outcome: { winner: number | null; reason: string } | null;
  /** Each seat's progress toward each Triumph box and the Meloch benefits facing it (the server's, from the engine). */
  progress: Extras["progress"]; meloch_facing: string[];
}
type Msg = StateMsg | { type: "ack"; msg_id: string; seq: number } | { type: "refused"; msg_id: string; code: string; message: string }
  | { type: "error"; code: string; message: string } | { type: "pong" };

export class Seat {
  ws: WebSocket | null = null;
  state: StateMsg | null = null;
  closed = false;
  /** Why the server would not open this game for this token: its last "error" message before a final
   * close (4400-4499), set only then ("error" messages mid-game, a rate limit, are not final). */
  failed = "";
  private lastError = "";
  private n = 0;

  constructor(readonly game: string, readonly token: string,
              readonly onState: (s: Seat) => void, readonly onRefused: (message: string) => void) {}

  open(): void {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const since = this.state ? this.state.seq : 0;
    const ws = new WebSocket(`${proto}://${location.host}/ws/games/${this.game}?token=${encodeURIComponent(this.token)}&since=${since}`);
    this.ws = ws;
    ws.onmessage = (ev) => this.receive(JSON.parse(String(ev.data)) as Msg);
    ws.onclose = (ev) => {
      if (this.closed) return;
      if (!isFinal(ev.code)) { setTimeout(() => this.open(), 1000); return; }
      this.failed = this.lastError || `the server closed this link (${ev.code})`;
      this.onState(this);  // a new render (the refusal itself may have been shown already: the same text)
    };
  }

  close(): void { this.closed = true; this.ws?.close(); }

  private receive(m: Msg): void {
    if (m.type === "state") {
      const had = this.state?.events ?? [];
      const merged = new Map(had.map((b) => [b.seq, b]));
      for (const b of m.events) merged.set(b.seq, b);
      this.state = { ...m, events: [...merged.values()].sort((a, b) => a.seq - b.seq) };
      this.onState(this);
    } else if (m.type === "refused" || m.type === "error") {
      if (m.type === "error") this.lastError = m.message;
      this.onRefused(m.message);
    }
  }

  move(action: string): void {
    if (!this.ws || !this.state) return;
    this.ws.send(JSON.stringify({ type: "move", seq: this.state.seq, msg_id: `m${Date.now()}-${this.n++}`, action }));
  }

  undo(): void {
    if (!this.ws || !this.state) return;
    this.ws.send(JSON.stringify({ type: "undo", seq: this.state.seq, msg_id: `u${Date.now()}-${this.n++}` }));
  }
}

/** The server's own close codes (docs/server.md) say the game cannot be opened with this link: retrying cannot help. */
export function isFinal(code: number): boolean {
  return code >= 4400 && code < 4500;
}
