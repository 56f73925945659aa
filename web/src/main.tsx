import { render } from "preact";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { Board, type MapGeo } from "./board";
import type { ExpView, ScytheView, View } from "./generated/view";
import type { CombatSide } from "./generated/event";
import { type Batch, complete, groupOptions, lastCombat, logLines, optionsByLocation, parseFragment } from "./logic";
import { Seat, type StateMsg } from "./net";
import "./style.css";

type Opponent = "hotseat" | "invite" | "agent";

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const r = await fetch(path, { method, headers: { "content-type": "application/json" },
                                body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await r.json();
  if (!r.ok) throw new Error(data.message ?? `HTTP ${r.status}`);
  return data as T;
}

interface Created { game_id: string; seats: { seat: number; kind: string; token: string | null; link: string | null }[];
                    spectator_link: string }

function NewGame() {
  const [mapSide, setMap] = useState("jungle");
  const [track, setTrack] = useState("A");
  const [opp, setOpp] = useState<Opponent>("agent");
  const [agent, setAgent] = useState("random");
  const [mySeat, setMySeat] = useState(0);
  const [turnLimit, setTurnLimit] = useState(300);
  const [error, setError] = useState("");
  const start = async () => {
    const human = { kind: "human" };
    const seats = opp === "agent" ? [0, 1].map((i) => (i === mySeat ? human : { kind: "agent", agent })) : [human, human];
    try {
      const g = await api<Created>("POST", "/api/games",
        { setup: { map_side: mapSide, track_side: track, turn_limit: turnLimit }, seats });
      let hash: string;
      if (opp === "hotseat") hash = `seats=${g.seats.map((s) => s.token).join(",")}`;
      else {
        const mine = opp === "agent" ? g.seats[mySeat] : g.seats[0];
        hash = `token=${mine.token}`;
        if (opp === "invite") sessionStorage.setItem(`invite:${g.game_id}`, JSON.stringify({ link: g.seats[1].link, spectator: g.spectator_link }));
      }
      location.assign(`/games/${g.game_id}#${hash}`);
    } catch (e) { setError(String((e as Error).message)); }
  };
  return (
    <main class="newgame">
      <h1>Duel of Meloch</h1>
      <p class="lede">A Scythe player against an Expeditions player: first to 4 stars on the Triumph Track wins.</p>
      <form onSubmit={(e) => { e.preventDefault(); void start(); }}>
        <label>Map side <select name="map_side" value={mapSide} onChange={(e) => setMap(e.currentTarget.value)}>
          <option value="jungle">Jungle</option><option value="desert">Desert</option></select></label>
        <label>Triumph Track side <select name="track_side" value={track} onChange={(e) => setTrack(e.currentTarget.value)}>
          <option value="A">A</option><option value="B">B</option></select></label>
        <fieldset><legend>Opponent</legend>
          <label><input type="radio" name="opp" value="agent" checked={opp === "agent"} onChange={() => setOpp("agent")} /> An agent</label>
          <label><input type="radio" name="opp" value="hotseat" checked={opp === "hotseat"} onChange={() => setOpp("hotseat")} /> A friend on this device</label>
          <label><input type="radio" name="opp" value="invite" checked={opp === "invite"} onChange={() => setOpp("invite")} /> A friend by invite link</label>
        </fieldset>
        {opp === "agent" && <>
          <label>Agent <select name="agent" value={agent} onChange={(e) => setAgent(e.currentTarget.value)}>
            <option value="random">random</option><option value="aggressive">aggressive</option></select></label>
          <label>You play <select name="seat" value={mySeat} onChange={(e) => setMySeat(Number(e.currentTarget.value))}>
            <option value={0}>Scythe</option><option value={1}>Expeditions</option></select></label>
        </>}
        <label>Turn limit <input type="number" name="turn_limit" min={2} max={1000} value={turnLimit}
                                 onChange={(e) => setTurnLimit(Number(e.currentTarget.value))} /></label>
        <button type="submit" class="primary">Start game</button>
        {error && <p role="alert" class="error">{error}</p>}
      </form>
    </main>
  );
}

function SeatPanel({ view, seat }: { view: View; seat: number }) {
  const p = view.seats[seat];
  const tag = view.tags[seat];
  const mine = view.seat === seat;
  return (
    <section class={`seatpanel seat${seat}`} aria-label={`${tag} player area`}>
      <h2><span class={`badge seat${seat}`}>{tag}</span> {p.role === "scythe" ? "Scythe" : "Expeditions"}
        {" "}★ {view.stars[seat]}</h2>
      {p.role === "scythe" ? (() => {
        const s = p as ScytheView;
        return <ul class="stats">
          <li title="Power">⚡ {s.power}</li><li title="Popularity">♥ {s.popularity}</li><li title="Coins">◎ {s.coins}</li>
          <li title="Combat cards">🂠 {s.combat_cards}</li><li>mat {s.mat} · section {s.section < 0 ? "-" : s.section}</li>
          <li>workers {s.workers.length} (+{s.workers_on_mat} on mat) · mechs {s.mechs.length} · structures {s.structures.length}</li>
          <li>upgrades {s.top_upgrades.length} · recruits {s.recruits.length}</li>
          {s.resources.length > 0 && <li>resources: {s.resources.map(([loc, k, n]) => `${n} ${k}@${loc}`).join(", ")}</li>}
          {mine && s.hand_combat && <li class="cards">Your combat cards: {s.hand_combat.join(", ") || "none"}</li>}
        </ul>;
      })() : (() => {
        const e = p as ExpView;
        return <ul class="stats">
          <li title="Power">⚡ {e.power}</li><li title="Guile">◆ {e.guile}</li><li title="Coins">◎ {e.coins}</li>
          <li title="Combat cards">🂠 {e.combat_cards}</li><li>hero {e.character}{e.hero_trashed ? " (trashed)" : ""} · token {e.token}</li>
          <li>workers: {e.workers.join(", ") || "none"}</li>
          <li>hand ({e.hand}): {e.hand_cards.join(", ") || "—"}</li>
          <li>active: {e.active.map(([c, side]) => `${c} ${side}`).join(", ") || "—"}</li>
          {mine && e.hand_combat && <li class="cards">Your combat cards: {e.hand_combat.join(", ") || "none"}</li>}
        </ul>;
      })()}
    </section>
  );
}

function Track({ view }: { view: View }) {
  return (
    <section class="track" aria-label="Triumph Track">
      <h2>Triumph Track</h2>
      <ol>{view.track.map((box, i) => (
        <li key={i} title={`Box ${i + 1}`}>{box.length ? box.map((s) => view.tags[s]).join(" ") : "·"}</li>))}</ol>
      <p>Meloch row: {view.meloch_row.map(([c, up]) => `${c}${up ? "↑" : "↓"}`).join(" ") || "—"}</p>
    </section>
  );
}

function Combat({ view }: { view: View }) {
  const c = view.combat;
  if (!c) return null;
  const side = (i: number) => {
    const dial = i === 0 ? c.dial_0 : c.dial_1;
    const cards = i === 0 ? c.cards_0 : c.cards_1;
    return <li data-seat={i}>{view.tags[i]}: {c.committed[i] ? "committed" : "choosing"}{dial != null ? ` · dial ${dial}` : ""}
      {cards ? ` · cards ${cards.join(", ") || "none"}` : ""}</li>;
  };
  return (
    <section class="combat" aria-live="polite">
      <h2>Combat at {c.loc}</h2>
      <ul>{side(c.attacker)}{side(c.defender)}</ul>
      {c.revealed && c.totals && <p>Totals: {c.totals.map(String).join(" vs ")}</p>}
      {!c.revealed && <p>Dials and cards stay secret until both have committed.</p>}
    </section>
  );
}

function Reveal({ view, batches }: { view: View; batches: Batch[] }) {
  const r = lastCombat(batches);
  if (!r) return null;
  const side = (s: CombatSide) => (
    <li>{view.tags[s.seat]}: dial {s.dial}{s.cards.map((c) => ` + ${c.name} (${c.value})`).join("")} = <strong>{s.total}</strong></li>);
  return (
    <section class="reveal" data-testid="reveal" aria-label="Last combat">
      <h2>Last combat at {r.loc}: {view.tags[r.winner]} wins</h2>
      <ul>{side(r.attacker)}{side(r.defender)}</ul>
    </section>
  );
}

function Game({ game }: { game: string }) {
  const frag = useMemo(() => parseFragment(location.hash), []);
  const [, bump] = useState(0);
  const [refusal, setRefusal] = useState("");
  const [geo, setGeo] = useState<MapGeo | null>(null);
  const [picked, setPicked] = useState<string | null>(null);
  const [typed, setTyped] = useState("");
  const [logSeat, setLogSeat] = useState<string>("all");
  const [shownSeat, setShownSeat] = useState<number | null>(null);
  const [passTo, setPassTo] = useState<number | null>(null);
  const seats = useRef<Seat[]>([]);
  useEffect(() => {
    seats.current = frag.tokens.map((t) => new Seat(game, t, () => bump((n) => n + 1), (m) => setRefusal(m)));
    seats.current.forEach((s) => s.open());
    return () => seats.current.forEach((s) => s.close());
  }, [game]);
  const states = seats.current.map((s) => s.state).filter((s): s is StateMsg => s !== null);
  const deciding = states.find((s) => s.options.length > 0);
  const hotseat = frag.tokens.length > 1;
  // hot-seat: show the deciding seat's view; a pass-the-device screen hides the previous seat's secrets
  const current: StateMsg | undefined = hotseat ? (deciding ?? states.find((s) => s.seat === shownSeat) ?? states[0]) : states[0];
  useEffect(() => {
    if (!hotseat || !deciding || deciding.seat === null) return;
    if (shownSeat !== null && deciding.seat !== shownSeat) setPassTo(deciding.seat);
    setShownSeat(deciding.seat);
  }, [deciding?.seat, deciding?.seq]);
  useEffect(() => {
    if (current && !geo) void api<MapGeo>("GET", `/api/maps/${current.view.setup.map_side}`).then(setGeo);
  }, [current?.view.setup.map_side]);
  const me = current ? seats.current.find((s) => s.state === current) : undefined;
  // forced decisions are taken for the player
  useEffect(() => {
    if (current && current.forced && current.options.length === 1 && passTo === null) me?.move(current.options[0].action);
  }, [current?.seq, current?.forced, passTo]);
  if (frag.tokens.length === 0) return <main class="msg"><p>This link has no seat token. <a href="/">New game</a></p></main>;
  if (!current || !geo) return <main class="msg"><p aria-live="polite">Connecting…</p></main>;
  const view = current.view;
  const send = (action: string) => { setRefusal(""); setPicked(null); setTyped(""); me?.move(action); };
  const targets = optionsByLocation(current.options);
  const shown = picked ? targets.get(picked) ?? [] : current.options;
  const invite = sessionStorage.getItem(`invite:${game}`);
  const lines = logLines(current.events, logSeat === "all" ? null : Number(logSeat));
  if (passTo !== null) {
    return <main class="pass"><h1>Pass the device to {view.tags[passTo]}</h1>
      <p>The other player should look away.</p>
      <button class="primary" autoFocus onClick={() => setPassTo(null)}>I am {view.tags[passTo]}: show my turn</button></main>;
  }
  const prompt = current.outcome ? "" : current.decision ? (current.options.length ? current.decision.prompt
    : `Waiting for ${view.tags[current.decision.seat]}…`) : "";
  return (
    <div class="game">
      <header class="status" aria-live="polite" data-seq={current.seq}>
        <span class="turn">Turn {view.turn}</span>
        {current.seat !== null ? <span class={`badge seat${current.seat}`}>You: {view.tags[current.seat]}</span> : <span class="badge">Spectator</span>}
        <strong data-testid="prompt">{prompt}</strong>
        {current.can_undo && <button onClick={() => me?.undo()}>Undo</button>}
      </header>
      {refusal && <p class="error" role="alert">{refusal}</p>}
      {invite && current.seq === 0 && (() => { const i = JSON.parse(invite) as { link: string; spectator: string };
        return <p class="invite">Invite link for your opponent: <input readOnly value={i.link} data-testid="invite" size={40} />
          {" "}Spectators: <input readOnly value={i.spectator} data-testid="spectate" size={30} /></p>; })()}
      {current.outcome && (
        <div class="over" role="dialog" aria-label="Game over" data-testid="gameover">
          <h2>{current.outcome.winner === null ? "No winner" : `${view.tags[current.outcome.winner]} wins`}</h2>
          <p>{current.outcome.reason}</p><a class="button primary" href="/">New game</a>
        </div>)}
      <div class="layout">
        <div class="boardwrap"><Board geo={geo} view={view} targets={targets} selected={picked}
                                       onPick={(l) => { const o = targets.get(l) ?? []; if (o.length === 1) send(o[0].action); else setPicked(l); }} /></div>
        <aside class="side">
          {current.options.length > 0 && (
            <section class="options" aria-label="Your options">
              {picked && <p>At {picked}: <button onClick={() => setPicked(null)}>show all</button></p>}
              {groupOptions(shown).map(([g, os]) => (
                <div key={g} class="group" role="group" aria-label={g || "options"}>
                  <h3>{g}</h3>
                  {os.map((o) => (
                    <button key={o.action} class="option" data-action={o.action} data-free={o.free ? "1" : undefined} onClick={() => send(o.action)}
                            title={`${o.action}${o.cost.length ? ` · cost: ${o.cost.join(", ")}` : ""}${o.gain.length ? ` · gain: ${o.gain.join(", ")}` : ""}`}>
                      {o.label}{o.free && <em> (free)</em>}
                      {o.cost.length > 0 && <small class="cost"> −{o.cost.join(", ")}</small>}
                      {o.gain.length > 0 && <small class="gain"> +{o.gain.join(", ")}</small>}
                    </button>))}
                </div>))}
              <form class="actionbox" onSubmit={(e) => { e.preventDefault(); const c = complete(current.options, typed); send(c.length === 1 ? c[0].action : typed); }}>
                <label>Action <input list="actions" value={typed} onInput={(e) => setTyped(e.currentTarget.value)} placeholder="type notation…" /></label>
                <datalist id="actions">{complete(current.options, typed).slice(0, 50).map((o) => <option key={o.action} value={o.action}>{o.label}</option>)}</datalist>
              </form>
            </section>)}
          <Combat view={view} />
          <Reveal view={view} batches={current.events} />
          <SeatPanel view={view} seat={0} /><SeatPanel view={view} seat={1} />
          <Track view={view} />
          <section class="log" aria-label="Game log">
            <h2>Log <select aria-label="Filter log by seat" value={logSeat} onChange={(e) => setLogSeat(e.currentTarget.value)}>
              <option value="all">all</option><option value="0">{view.tags[0]}</option><option value="1">{view.tags[1]}</option></select></h2>
            <ol reversed>{lines.slice(-200).reverse().map((l, i) => <li key={i} class={`seat${l.seat}`}>{l.text}</li>)}</ol>
          </section>
        </aside>
      </div>
    </div>
  );
}

function App() {
  const m = location.pathname.match(/^\/games\/([^/]+)/);
  return m ? <Game game={m[1]} /> : <NewGame />;
}

render(<App />, document.getElementById("app")!);
