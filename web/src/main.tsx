import { render } from "preact";
import { useContext, useEffect, useMemo, useRef, useState } from "preact/hooks";
import { api, type Choices, type Content, type Named, type Rules } from "./api";
import { Board, Legend, type MapGeo } from "./board";
import type { View } from "./generated/view";
import type { CombatSide } from "./generated/event";
import { type Help, HelpContext, InfoLine, RulesButton, RulesPanel, Tip } from "./help";
import { type Batch, type Option, complete, dialShown, directPick, entryFor, groupOptions, hotseatScreen, indexEntries, lastCombat, logKinds,
  logLines, optionsByLocation, optionsByRef, parseFragment, refKey, refocusStep, takenForPlayer } from "./logic";
import { SeatPanel, Track } from "./mat";
import { TargetContext } from "./targets";
import { Seat, type StateMsg } from "./net";
import { Replay } from "./replay";
import "./style.css";

type Opponent = "hotseat" | "invite" | "agent" | "automa";
const RANDOM = "random";

/** A select over the server's choices with a "random" entry (picked here when the game starts). */
function Pick({ label, name, items, value, set }: { label: string; name: string; items: Named[]; value: string; set: (v: string) => void }) {
  return <label>{label} <select name={name} value={value} onChange={(e) => set(e.currentTarget.value)}>
    <option value={RANDOM}>Random</option>{items.map((i) => <option key={i.id} value={i.id}>{i.name}</option>)}</select></label>;
}
const pickOf = (v: string, items: Named[]): string => (v === RANDOM ? items[Math.floor(Math.random() * items.length)].id : v);

interface Created { game_id: string; seats: { seat: number; kind: string; token: string | null; link: string | null }[];
                    spectator_link: string }

function NewGame() {
  const [ch, setCh] = useState<Choices | null>(null);
  const [mapSide, setMap] = useState("");
  const [track, setTrack] = useState("");
  const [variant, setVariant] = useState("standard");
  const [comp, setComp] = useState<Record<string, string>>({});
  const [opp, setOpp] = useState<Opponent>("agent");
  const [agent, setAgent] = useState("random");
  const [level, setLevel] = useState(2);
  const [threat, setThreat] = useState(false);
  const [mySeat, setMySeat] = useState(0);
  const [turnLimit, setTurnLimit] = useState(300);
  const [error, setError] = useState("");
  useEffect(() => {
    api<Choices>("GET", "/api/choices").then((c) => {
      setCh(c); setMap(c.map_sides[0].id); setTrack(c.track_sides[0]); setTurnLimit(c.default_turn_limit);
      setAgent(c.agents.includes("heuristic") ? "heuristic" : c.agents[0]);
    }).catch((e: Error) => setError(e.message));
  }, []);
  if (!ch) return <main class="newgame"><h1>Duel of Meloch</h1>{error ? <p role="alert" class="error">{error}</p> : <p aria-live="polite">Loading…</p>}</main>;
  const roles = ch.variants.find((v) => v.id === variant)?.roles ?? ["scythe", "expeditions"];
  // the engine's default components until the player picks others (or "random")
  const c = (seat: number, k: string) => comp[`${seat}.${k}`] ?? String(ch.default_seat[k] ?? RANDOM);
  const setC = (seat: number, k: string) => (v: string) => setComp({ ...comp, [`${seat}.${k}`]: v });
  const roleName = (r: string) => (r === "scythe" ? "Scythe" : "Expeditions");
  const start = async () => {
    const human = { kind: "human" };
    const other = opp === "agent" ? { kind: "agent", agent } : opp === "automa" ? { kind: "agent", agent: `automa:${level}${threat ? "+threat" : ""}` } : human;
    const solo = opp === "agent" || opp === "automa";
    const seats = solo ? [0, 1].map((i) => (i === mySeat ? human : other)) : [human, human];
    const seatSetup = roles.map((role, i) => (role === "scythe"
      ? { role, faction: pickOf(c(i, "faction"), ch.factions), mat: pickOf(c(i, "mat"), ch.mats), stars_to_win: Number(c(i, "stars_to_win")) }
      : { role, mech: pickOf(c(i, "mech"), ch.mechs), character: pickOf(c(i, "character"), ch.characters), companion: pickOf(c(i, "companion"), ch.companions),
          stars_to_win: Number(c(i, "stars_to_win")) }));
    try {
      const g = await api<Created>("POST", "/api/games", {
        setup: { map_side: pickOf(mapSide, ch.map_sides), track_side: track === RANDOM ? ch.track_sides[Math.floor(Math.random() * ch.track_sides.length)] : track,
                 variant, seats: seatSetup, turn_limit: turnLimit }, seats });
      let hash: string;
      if (opp === "hotseat") hash = `seats=${g.seats.map((s) => s.token).join(",")}`;
      else {
        const mine = solo ? g.seats[mySeat] : g.seats[0];
        hash = `token=${mine.token}`;
        if (opp === "invite") sessionStorage.setItem(`invite:${g.game_id}`, JSON.stringify({ link: g.seats[1].link, spectator: g.spectator_link }));
      }
      location.assign(`/games/${g.game_id}#${hash}`);
    } catch (e) { setError(String((e as Error).message)); }
  };
  const watch = async (file: File | undefined) => {
    if (!file) return;
    try {
      // sent as read (not parsed here): a record's 63-bit seed does not survive JavaScript's numbers
      const r = await fetch("/api/games/import", { method: "POST", headers: { "content-type": "application/json" }, body: await file.text() });
      const g = await r.json() as { game_id: string; spectator_token: string; message?: string };
      if (!r.ok) throw new Error(g.message ?? `HTTP ${r.status}`);
      location.assign(`/games/${g.game_id}/replay#token=${g.spectator_token}`);
    } catch (e) { setError(`This record cannot be replayed: ${(e as Error).message}`); }
  };
  return (
    <main class="newgame">
      <h1>Duel of Meloch <RulesButton /></h1>
      <p class="lede">A Scythe player against an Expeditions player: first to 4 stars on the Triumph Track wins.</p>
      <form onSubmit={(e) => { e.preventDefault(); void start(); }}>
        <fieldset><legend>Opponent</legend>
          <label><input type="radio" name="opp" value="agent" checked={opp === "agent"} onChange={() => setOpp("agent")} /> An agent</label>
          <label><input type="radio" name="opp" value="automa" checked={opp === "automa"} onChange={() => setOpp("automa")} /> The Automa (solo rules)</label>
          <label><input type="radio" name="opp" value="hotseat" checked={opp === "hotseat"} onChange={() => setOpp("hotseat")} /> A friend on this device</label>
          <label><input type="radio" name="opp" value="invite" checked={opp === "invite"} onChange={() => setOpp("invite")} /> A friend by invite link</label>
        </fieldset>
        {opp === "agent" && <label>Agent level <select name="agent" value={agent} onChange={(e) => setAgent(e.currentTarget.value)}>
          {ch.agents.map((a) => <option key={a} value={a}>{a}</option>)}</select></label>}
        {opp === "automa" && <>
          <label>Automa level <select name="automa_level" value={level} onChange={(e) => setLevel(Number(e.currentTarget.value))}>
            {ch.automa_levels.map((l) => <option key={l} value={l}>{l}</option>)}</select></label>
          <label><input type="checkbox" name="threat" checked={threat} onChange={(e) => setThreat(e.currentTarget.checked)} /> Threat variant</label>
        </>}
        {(opp === "agent" || opp === "automa") && <label>You play <select name="seat" value={mySeat} onChange={(e) => setMySeat(Number(e.currentTarget.value))}>
          {roles.map((r, i) => <option key={i} value={i}>{roleName(r)}{roles[0] === roles[1] ? ` ${i + 1}` : ""}</option>)}</select></label>}
        <fieldset><legend>Game</legend>
          <label>Map side <select name="map_side" value={mapSide} onChange={(e) => setMap(e.currentTarget.value)}>
            <option value={RANDOM}>Random</option>{ch.map_sides.map((m) => <option key={m.id} value={m.id}>{m.name}</option>)}</select></label>
          <label>Triumph Track side <select name="track_side" value={track} onChange={(e) => setTrack(e.currentTarget.value)}>
            <option value={RANDOM}>Random</option>{ch.track_sides.map((t) => <option key={t} value={t}>{t}</option>)}</select></label>
          <label>Variant <select name="variant" value={variant} onChange={(e) => setVariant(e.currentTarget.value)}>
            {ch.variants.map((v) => <option key={v.id} value={v.id}>{v.roles.map(roleName).join(" vs ")}</option>)}</select></label>
          <label>Turn limit <input type="number" name="turn_limit" min={2} max={1000} value={turnLimit}
                                   onChange={(e) => setTurnLimit(Number(e.currentTarget.value))} /></label>
        </fieldset>
        {roles.map((r, i) => (
          <fieldset key={`${variant}${i}`}><legend>Seat {i + 1}: {roleName(r)}</legend>
            {r === "scythe" ? <>
              <Pick label="Faction" name={`faction${i}`} items={ch.factions} value={c(i, "faction")} set={setC(i, "faction")} />
              <Pick label="Player mat" name={`mat${i}`} items={ch.mats} value={c(i, "mat")} set={setC(i, "mat")} />
            </> : <>
              <Pick label="Mech" name={`mech${i}`} items={ch.mechs} value={c(i, "mech")} set={setC(i, "mech")} />
              <Pick label="Character" name={`character${i}`} items={ch.characters} value={c(i, "character")} set={setC(i, "character")} />
              <Pick label="Companion" name={`companion${i}`} items={ch.companions} value={c(i, "companion")} set={setC(i, "companion")} />
            </>}
            <label>Stars to win <select name={`stars${i}`} value={c(i, "stars_to_win")} onChange={(e) => setC(i, "stars_to_win")(e.currentTarget.value)}>
              {ch.stars_to_win.map((n) => <option key={n} value={String(n)}>{n === 4 ? "4 (standard)" : `${n} (experience-disparity handicap)`}</option>)}</select></label>
          </fieldset>))}
        <button type="submit" class="primary">Start game</button>
        {error && <p role="alert" class="error">{error}</p>}
      </form>
      <section class="watch" aria-label="Watch a record">
        <h2>Watch a game record</h2>
        <label>Record file (from a finished game's "Download the record", or <code>meloch play</code>'s save)
          <input type="file" accept=".json,application/json" onChange={(e) => void watch(e.currentTarget.files?.[0])} /></label>
      </section>
    </main>
  );
}

function Combat({ view, waiting }: { view: View; waiting: boolean }) {
  const c = view.combat;
  if (!c) return null;
  const side = (i: number) => {
    const dial = dialShown(i === 0 ? c.dial_0 : c.dial_1);
    const cards = i === 0 ? c.cards_0 : c.cards_1;
    const role = i === c.attacker ? "attacker" : "defender";
    return <li data-seat={i}>{view.tags[i]} ({role}): {c.committed[i] ? "committed" : "choosing"}{dial !== null ? ` · dial ${dial}` : ""}
      {cards && (dial !== null || cards.length > 0) ? <> · cards {cards.length ? cards.map((x, k) => <Tip key={k} id={x} />) : "none"}</> : ""}</li>;
  };
  return (
    <section class="combat" aria-live="polite" data-testid="combat">
      <h2>⚔ Combat at {c.loc}</h2>
      <ul>{side(c.attacker)}{side(c.defender)}</ul>
      {c.revealed && c.totals && <p>Totals: {c.totals.map(String).join(" vs ")}</p>}
      {!c.revealed && <p>{waiting ? <strong data-testid="combat-waiting">Waiting for the opponent to set their dial… </strong> : null}
        Dials and cards stay secret until both have committed.</p>}
    </section>
  );
}

/** The secret Power Dial and the combat-card picker: the same options the engine offers (its ``dial``
 * and ``tuck`` choices), shown as a dial of numbers and a row of cards, each with its cost. */
function CombatPicker({ view, options, kind, send }: { view: View; options: Option[]; kind: string; send: (a: string) => void }) {
  const help = useContext(HelpContext);
  const me = view.seat === null ? null : view.seats[view.seat];
  if (kind === "c_dial") {
    return (
      <div class="picker dial" role="group" aria-label="Power Dial" data-testid="dial">
        <h3>Power Dial <small>(secret until the reveal; you have {me?.power ?? "?"} power)</small></h3>
        <div class="dialrow">{options.map((o) => {
          const n = o.action.split(" ").pop() ?? "";
          return <button key={o.action} type="button" class="option dialnum" data-action={o.action} title={o.label}
                         aria-label={o.label} onClick={() => send(o.action)}>{n}</button>;
        })}</div>
      </div>);
  }
  return (
    <div class="picker tuck" role="group" aria-label="Combat cards to tuck" data-testid="tuck">
      <h3>Tuck a combat card <small>(secret until the reveal)</small></h3>
      <div class="cardrow">{options.map((o) => {
        const ref = o.refs.find((r) => r.kind === "combat_card");
        const e = ref ? entryFor(help.index, o.label.replace(/^.*?combat card /i, "")) : undefined;
        return <button key={o.action} type="button" class={`option card${ref ? "" : " done"}`} data-action={o.action}
                       title={e?.text ?? o.label} onClick={() => send(o.action)}>
          {o.label}{e && <small class="effect">{e.text.replace(/^.*?\): /, "")}</small>}</button>;
      })}</div>
    </div>);
}

function Reveal({ view, batches }: { view: View; batches: Batch[] }) {
  const help = useContext(HelpContext);
  const r = lastCombat(batches);
  if (!r) return null;
  const effect = (name: string) => {
    const t = entryFor(help.index, name)?.text ?? "";
    return t.replace(/^.*?\): /, "").replace(/ Discarded on your turn:.*$/, "");
  };
  const side = (s: CombatSide) => (
    <li>{view.tags[s.seat]}: dial {s.dial}{s.cards.map((c, k) => <span key={k}> + <Tip id={c.name} label={`${c.name} (${c.value})`} /></span>)} = <strong>{s.total}</strong>
      {s.cards.length > 0 && <ul class="effects">{s.cards.map((c, k) => <li key={k}><em>{c.name}</em>: {effect(c.name) || `value ${c.value}`}</li>)}</ul>}</li>);
  return (
    <section class="reveal" data-testid="reveal" aria-label="Last combat">
      <h2>Last combat at {r.loc}: {view.tags[r.winner]} wins, {r.attacker.total} to {r.defender.total}</h2>
      <ul>{side(r.attacker)}{side(r.defender)}</ul>
    </section>
  );
}

interface Hint { action: string | null; label: string; seq: number; reason?: string }

function Game({ game }: { game: string }) {
  const frag = useMemo(() => parseFragment(location.hash), []);
  const [, bump] = useState(0);
  const [refusal, setRefusal] = useState("");
  const [geo, setGeo] = useState<MapGeo | null>(null);
  const [picked, setPicked] = useState<string | null>(null);
  const [typed, setTyped] = useState("");
  const [logSeat, setLogSeat] = useState<string>("all");
  const [logKind, setLogKind] = useState<string>("all");
  const [shownSeat, setShownSeat] = useState<number | null>(null);
  const [hint, setHint] = useState<Hint | null>(null);
  const [overClosed, setOverClosed] = useState(false);
  const refocus = useRef(false);
  const seats = useRef<Seat[]>([]);
  useEffect(() => {
    seats.current = frag.tokens.map((t) => new Seat(game, t, () => bump((n) => n + 1), (m) => setRefusal(m)));
    seats.current.forEach((s) => s.open());
    return () => seats.current.forEach((s) => s.close());
  }, [game]);
  const states = seats.current.map((s) => s.state).filter((s): s is StateMsg => s !== null);
  const deciding = states.find((s) => s.options.length > 0);
  const hotseat = frag.tokens.length > 1;
  // hot-seat: the deciding seat's view, but a pass-the-device screen first whenever the seat changes
  // (decided here, in the render, so the next seat's secrets are never painted before it)
  const hs = hotseatScreen(hotseat ? deciding?.seat ?? null : null, shownSeat);
  const passTo = hotseat ? hs.pass : null;
  const current: StateMsg | undefined = hotseat
    ? (passTo !== null ? undefined : states.find((s) => s.seat === hs.seat) ?? deciding ?? states[0]) : states[0];
  useEffect(() => {
    if (hotseat && shownSeat === null && deciding && deciding.seat !== null) setShownSeat(deciding.seat);
  }, [deciding?.seat]);
  useEffect(() => {
    const any = current ?? states[0];
    if (any && !geo) void api<MapGeo>("GET", `/api/maps/${any.view.setup.map_side}`).then(setGeo);
  }, [states[0]?.view.setup.map_side]);
  const me = current ? seats.current.find((s) => s.state === current) : undefined;
  // forced decisions are taken for the player (never behind a pass-the-device screen)
  const taken = current !== undefined && takenForPlayer(current.forced, current.options.length, passTo);
  useEffect(() => {
    if (current && taken) me?.move(current.options[0].action);
  }, [current?.seq, current?.forced, passTo]);
  useEffect(() => { setHint(null); setPicked(null); }, [current?.seq]);
  // keyboard play: after a choice, focus goes back to the options (not to the top of the page)
  useEffect(() => {
    const step = refocusStep(refocus.current, current?.options.length ?? 0, taken);
    refocus.current = step.wanted;
    if (step.focus) document.getElementById("options")?.focus();
  }, [current?.seq, current?.options.length]);
  if (frag.tokens.length === 0) return <main class="msg"><p>This link has no seat token. <a href="/">New game</a></p></main>;
  if (passTo !== null) {
    const tags = states[0]?.view.tags ?? [];
    return <main class="pass"><h1>Pass the device to {tags[passTo]}</h1>
      <p>{tags[passTo]} decides now. The other player should look away: nothing of {tags[passTo]}'s hand is shown until then.</p>
      <button class="primary" autoFocus onClick={() => setShownSeat(passTo)}>I am {tags[passTo]}: show my turn</button></main>;
  }
  const failed = seats.current.find((s) => s.failed)?.failed;
  if (failed && !current) return <main class="msg"><p class="error" role="alert" data-testid="refusal">This link does not open a game: {failed}.</p>
    <p><a href="/">New game</a></p></main>;
  if (!current || !geo) return <main class="msg"><p aria-live="polite">Connecting…</p></main>;
  const view = current.view;
  const send = (action: string) => {
    refocus.current = document.activeElement instanceof HTMLElement && document.activeElement.closest("#options, .side, .boardkeys") !== null;
    setRefusal(""); setPicked(null); setTyped(""); setHint(null); me?.move(action);
  };
  const targets = optionsByLocation(current.options);
  const byRef = optionsByRef(current.options);
  const pick = (key: string) => {
    const os = byRef.get(key) ?? [];
    const one = directPick(os);
    if (one) send(one.action); else setPicked(key);
  };
  const shown = picked ? byRef.get(picked) ?? [] : current.options;
  const invite = sessionStorage.getItem(`invite:${game}`);
  const lines = logLines(current.events, logSeat === "all" ? null : Number(logSeat), logKind === "all" ? null : logKind);
  const kinds = logKinds(current.events);
  const decisionKind = current.decision?.kind ?? "";
  const picker = current.options.length > 0 && (decisionKind === "c_dial" || decisionKind === "c_tuck");
  const waiting = !current.outcome && current.decision !== null && current.options.length === 0;
  const prompt = current.outcome ? "" : current.decision ? (current.options.length ? current.decision.prompt
    : `Waiting for ${view.tags[current.decision.seat]}…`) : "";
  const askHint = async () => {
    if (!me) return;
    try { setHint(await api<Hint>("GET", `/api/games/${game}/hint`, undefined, me.token)); } catch (e) { setRefusal((e as Error).message); }
  };
  const extras = current.progress ? { progress: current.progress, meloch_facing: current.meloch_facing } : null;
  const pickedName = picked?.startsWith("location:") ? picked.slice(9) : picked?.replace(":", " ");
  return (
    <TargetContext.Provider value={{ byRef, picked, pick }}>
    <div class="game">
      <a class="skip" href="#options">Skip to your options</a>
      <header class="status" aria-live="polite" data-seq={current.seq}>
        <span class="turn" data-testid="turn">Turn {view.turn}</span>
        {current.seat !== null ? <span class={`badge seat${current.seat}`}>You: {["■", "●"][current.seat]} {view.tags[current.seat]}</span> : <span class="badge">Spectator</span>}
        <span class="score" aria-label="Stars">★ {view.tags[0]} {view.stars[0]} · {view.tags[1]} {view.stars[1]}</span>
        <strong data-testid="prompt" class={waiting ? "waiting" : undefined}>{prompt}</strong>
        {current.can_undo && <button onClick={() => me?.undo()}>Undo</button>}
        <RulesButton />
      </header>
      {refusal && <p class="error" role="alert" data-testid="refusal">{refusal}</p>}
      {invite && current.seq === 0 && (() => { const i = JSON.parse(invite) as { link: string; spectator: string };
        return <p class="invite"><label>Invite link for your opponent: <input readOnly value={i.link} data-testid="invite" size={40} /></label>
          {" "}<label>Spectators: <input readOnly value={i.spectator} data-testid="spectate" size={30} /></label></p>; })()}
      {current.outcome && (
        <div class={`over${overClosed ? " closed" : ""}`} role={overClosed ? "status" : "dialog"} aria-label="Game over" data-testid="gameover">
          <h2>{current.outcome.winner === null ? "No winner" : `${view.tags[current.outcome.winner]} wins`}</h2>
          <p>{current.outcome.reason}</p>
          <p class="actions">{!overClosed && <button type="button" onClick={() => setOverClosed(true)}>See the board</button>}
            <a class="button primary" href="/">New game</a>
            {me && <a class="button" href={`/games/${game}/replay#token=${me.token}`}>Watch the replay</a>}
            {me && <button type="button" onClick={() => void download(game, me.token)}>Download the record</button>}</p>
        </div>)}
      <div class="layout">
        <div class="boardwrap"><Board geo={geo} view={view} targets={targets} selected={picked?.startsWith("location:") ? picked.slice(9) : null}
                                       onPick={(l) => pick(refKey("location", l))} />
          <Legend view={view} /></div>
        <aside class="side">
          {current.options.length > 0 && (
            <section class="options" id="options" aria-label="Your options" tabIndex={-1}>
              <p class="optbar">{picked && <>Options for {pickedName}: <button onClick={() => setPicked(null)}>show all</button> </>}
                <button type="button" onClick={() => void askHint()} title="What the heuristic agent would choose (it sees only what you see)">Hint</button>
                {hint && hint.action && hint.seq === current.seq && <span class="hint" data-testid="hint" data-action={hint.action}> Suggested: <strong>{hint.label}</strong>{hint.reason && <span class="why" data-testid="hint-reason">: {hint.reason}</span>}</span>}</p>
              {picker && !picked && <CombatPicker view={view} options={current.options.filter((o) => !o.free)} kind={decisionKind} send={send} />}
              {groupOptions(shown).filter(([, os]) => !(picker && !picked && os.every((o) => !o.free))).map(([g, os]) => (
                <div key={g} class="group" role="group" aria-label={g || "options"}>
                  <h3>{g}</h3>
                  {os.map((o) => (
                    <button key={o.action} class={`option${hint && hint.seq === current.seq && hint.action !== null && hint.action === o.action ? " hinted" : ""}`}
                            data-action={o.action} data-free={o.free ? "1" : undefined} onClick={() => send(o.action)}
                            title={`${o.action}${o.cost.length ? ` · cost: ${o.cost.join(", ")}` : ""}${o.gain.length ? ` · gain: ${o.gain.join(", ")}` : ""}`}>
                      {o.label}{o.free && <em> (free)</em>}
                      {o.cost.length > 0 && <small class="cost"> <span class="sr">cost </span>−{o.cost.join(", ")}</small>}
                      {o.gain.length > 0 && <small class="gain"> <span class="sr">gain </span>+{o.gain.join(", ")}</small>}
                    </button>))}
                </div>))}
              <form class="actionbox" onSubmit={(e) => { e.preventDefault(); if (!typed.trim()) return; const c = complete(current.options, typed); send(c.length === 1 ? c[0].action : typed); }}>
                <label>Action <input list="actions" value={typed} onInput={(e) => setTyped(e.currentTarget.value)} placeholder="type notation, e.g. a word of an option…"
                                     autoComplete="off" name="action" /></label>
                <button type="submit">Send</button>
                <datalist id="actions">{complete(current.options, typed).slice(0, 50).map((o) => <option key={o.action} value={o.action}>{o.label}</option>)}</datalist>
              </form>
            </section>)}
          <Combat view={view} waiting={waiting} />
          <Reveal view={view} batches={current.events} />
          <Track view={view} extras={extras} />
          <SeatPanel view={view} seat={0} /><SeatPanel view={view} seat={1} />
          <section class="log" aria-label="Game log">
            <h2>Log <label class="sr" for="logseat">Filter log by seat</label><select id="logseat" aria-label="Filter log by seat" value={logSeat} onChange={(e) => setLogSeat(e.currentTarget.value)}>
              <option value="all">both seats</option><option value="0">{view.tags[0]}</option><option value="1">{view.tags[1]}</option></select>
              {" "}<select aria-label="Filter log by kind" value={logKind} onChange={(e) => setLogKind(e.currentTarget.value)}>
                <option value="all">every kind</option>{kinds.map((k) => <option key={k} value={k}>{k}</option>)}</select></h2>
            <ol reversed>{lines.slice(-200).reverse().map((l, i) => <li key={i} class={`seat${l.seat}`} data-kind={l.kind}>{l.text}</li>)}</ol>
          </section>
        </aside>
      </div>
    </div>
    </TargetContext.Provider>
  );
}

async function download(game: string, token: string): Promise<void> {
  // kept as text: a record's 63-bit seed does not survive JavaScript's numbers
  const r = await fetch(`/api/games/${game}/record`, { headers: { authorization: `Bearer ${token}` } });
  if (!r.ok) return;
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([await r.text()], { type: "application/json" }));
  a.download = `meloch-${game}.json`;
  a.click();
}

function App() {
  const [content, setContent] = useState<Content | null>(null);
  const [rules, setRules] = useState<Rules | null>(null);
  const [rulesOpen, setRulesOpen] = useState(false);
  const [info, setInfo] = useState("");
  useEffect(() => {
    void api<Content>("GET", "/api/content").then(setContent);
    void api<Rules>("GET", "/api/rules").then(setRules);
  }, []);
  // content texts first, then the glossary's keywords (a mat's "produce", "upgrade"...)
  const help: Help = useMemo(() => ({
    content, show: setInfo, toggleRules: () => setRulesOpen((o) => !o),
    index: indexEntries([...(content?.entries ?? []), ...Object.entries(rules?.glossary ?? {}).map(([k, v]) => ({ id: k, name: k, kind: "keyword", text: `${k}: ${v}` }))]),
  }), [content, rules]);
  const m = location.pathname.match(/^\/games\/([^/]+)(\/replay)?/);
  return (
    <HelpContext.Provider value={help}>
      {m ? (m[2] ? <Replay game={m[1]} /> : <Game game={m[1]} />) : <NewGame />}
      {rulesOpen && rules && <RulesPanel rules={rules} onClose={() => setRulesOpen(false)} />}
      <InfoLine text={info} onClose={() => setInfo("")} />
    </HelpContext.Provider>
  );
}

render(<App />, document.getElementById("app")!);
