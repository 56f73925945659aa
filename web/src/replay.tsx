// The replay viewer: any finished game (or an imported record) step by step, as the spectator or
// as the token's own seat (the server serves each step's view: hidden information follows the
// viewpoint). Step back and forth, to the start or the end, or jump to a turn.
import { useEffect, useState } from "preact/hooks";
import { api, type ReplayStep } from "./api";
import { Board, type MapGeo } from "./board";
import { RulesButton } from "./help";
import { SeatPanel, Track } from "./mat";
import { parseFragment, stepForTurn } from "./logic";

export function Replay({ game }: { game: string }) {
  const token = parseFragment(location.hash).tokens[0] ?? "";
  const [step, setStep] = useState<number | null>(null);
  const [viewpoint, setViewpoint] = useState<"own" | "spectator">("own");
  const [data, setData] = useState<ReplayStep | null>(null);
  const [seatToken, setSeatToken] = useState<boolean | null>(null);
  const [geo, setGeo] = useState<MapGeo | null>(null);
  const [error, setError] = useState("");
  const [turn, setTurn] = useState("");
  useEffect(() => {
    if (!token) return;
    const q = new URLSearchParams({ viewpoint });
    if (step !== null) q.set("step", String(step));
    api<ReplayStep>("GET", `/api/games/${game}/replay?${q}`, undefined, token)
      .then((d) => { setData(d); setError(""); if (seatToken === null) setSeatToken(d.seat !== null); })
      .catch((e: Error) => setError(e.message));
  }, [step, viewpoint]);
  useEffect(() => {
    if (data && !geo) void api<MapGeo>("GET", `/api/maps/${data.view.setup.map_side}`).then(setGeo);
  }, [data?.view.setup.map_side]);
  if (!token) return <main class="msg"><p>This replay link has no token. <a href="/">New game</a></p></main>;
  if (error && !data) return <main class="msg"><p role="alert" class="error">{error}</p><a href="/">New game</a></main>;
  if (!data || !geo) return <main class="msg"><p aria-live="polite">Loading the replay…</p></main>;
  const v = data.view;
  const go = (k: number) => setStep(Math.max(0, Math.min(data.steps, k)));
  return (
    <div class="game replay">
      <header class="status" aria-live="polite" data-step={data.step}>
        <span class="turn">Replay · turn {v.turn}</span>
        <span data-testid="replay-step">Step {data.step} of {data.steps}</span>
        <span class="badge">{data.seat === null ? "Spectator's view" : `${v.tags[data.seat]}'s view`}</span>
        {data.outcome && data.step === data.steps && <strong>{data.outcome.winner === null ? "No winner" : `${v.tags[data.outcome.winner]} wins`}: {data.outcome.reason}</strong>}
        <a class="button" href="/">New game</a><RulesButton />
      </header>
      <nav class="replaybar" aria-label="Replay controls">
        <button type="button" onClick={() => go(0)} disabled={data.step === 0} aria-label="To the start">⏮</button>
        <button type="button" onClick={() => go(data.step - 1)} disabled={data.step === 0} aria-label="Step back">◀ Back</button>
        <button type="button" onClick={() => go(data.step + 1)} disabled={data.step === data.steps} aria-label="Step forward">Forward ▶</button>
        <button type="button" onClick={() => go(data.steps)} disabled={data.step === data.steps} aria-label="To the end">⏭</button>
        <label>Step <input type="range" min={0} max={data.steps} value={data.step} onChange={(e) => go(Number(e.currentTarget.value))} /></label>
        <form onSubmit={(e) => { e.preventDefault(); const t = Number(turn); if (Number.isFinite(t) && turn !== "") go(stepForTurn(data.turns, t)); }}>
          <label>Jump to turn <input type="number" min={data.turns[0]} max={data.turns[data.turns.length - 1]} value={turn}
                                     onInput={(e) => setTurn(e.currentTarget.value)} size={4} /></label>
          <button type="submit">Go</button>
        </form>
        {seatToken && <label>View as <select value={viewpoint} onChange={(e) => setViewpoint(e.currentTarget.value as "own" | "spectator")}>
          <option value="own">my seat</option><option value="spectator">a spectator</option></select></label>}
      </nav>
      {error && <p role="alert" class="error">{error}</p>}
      <div class="layout">
        <div class="boardwrap"><Board geo={geo} view={v} targets={new Map()} selected={null} onPick={() => undefined} /></div>
        <aside class="side">
          <section class="log" aria-label="This step">
            <h2>This step</h2>
            <ul data-testid="replay-events">{data.events.length ? data.events.map((e, i) => <li key={i} class={`seat${e.seat}`}>{e.text}</li>) : <li>The start of the game.</li>}</ul>
          </section>
          <SeatPanel view={v} seat={0} /><SeatPanel view={v} seat={1} />
          <Track view={v} extras={{ progress: data.progress, meloch_facing: data.meloch_facing }} />
        </aside>
      </div>
    </div>
  );
}
