// The player areas, drawn from the typed view and the public content (a mat's sections): the
// Scythe mat with its sections (top and bottom actions, cost boxes and the cubes on them, coins,
// recruits), upgrades, structures and tracks; the Expeditions area with its public hand, active
// row, tucked cards and workers. Only the viewer's own combat cards are shown, the other's count.
import { useContext } from "preact/hooks";
import type { ExpView, ScytheView, View } from "./generated/view";
import { HelpContext, Tip } from "./help";
import { Target } from "./targets";

/** Each seat's progress toward each Triumph box and the Meloch benefits facing it (the server's
 * ``progress`` and ``meloch_facing``, from the engine). */
export interface Extras { progress: { column: number; label: string; have: number; need: number; open: boolean }[][]; meloch_facing: string[] }

const SHAPE = ["■", "●"];

function Stats({ items }: { items: [string, string, string | number][] }) {
  return <dl class="stats">{items.map(([icon, name, v]) => (
    <div key={name} class="stat" title={name}><dt><span aria-hidden="true">{icon}</span> {name}</dt><dd>{v}</dd></div>))}</dl>;
}

function Cards({ label, ids, kind = "card", refIds, empty = "none" }: { label: string; ids: readonly string[]; kind?: string;
                                                                       refIds?: readonly string[]; empty?: string }) {
  return <p class="cards"><span class="k">{label}:</span> {ids.length ? ids.map((c, i) => (
    <Target key={`${c}${i}`} kind={kind} id={refIds?.[i] ?? c} name={c}><Tip id={c} /></Target>)) : empty}</p>;
}

export function ScytheMat({ view, seat }: { view: View; seat: number }) {
  const s = view.seats[seat] as ScytheView;
  const help = useContext(HelpContext);
  const mat = help.content?.mats[s.mat];
  const mine = view.seat === seat;
  return (
    <div class="mat scythe">
      <Stats items={[["⚡", "Power", s.power], ["♥", "Popularity", s.popularity], ["◎", "Coins", s.coins],
        ["🂠", "Combat cards", s.combat_cards], ["☗", "Workers on the mat", s.workers_on_mat], ["★", "Stars left", s.stars_unplaced]]} />
      <p class="matname">Faction <Tip id={s.faction} /> · mat <Tip id={s.mat} />
        {s.factory_card && <> · Factory card <Tip id={s.factory_card} /></>}</p>
      {mat && <table class="sections" aria-label="Mat sections">
        <thead><tr><th scope="col">Section</th><th scope="col">Top action</th><th scope="col">Bottom action</th>
          <th scope="col">Cost</th><th scope="col">Coins</th></tr></thead>
        <tbody>{mat.sections.map((sec, i) => {
          const cubes = s.bottom_cubes[i] ?? 0;
          const here = s.section === i;
          return (
            <tr key={i} class={here ? "current" : undefined} aria-current={here ? "true" : undefined}>
              <th scope="row"><Target kind="section" id={String(i + 1)} name={`Section ${i + 1}`}>{i + 1}</Target>
                {here && <span class="token" title="The action token is here"> ◆</span>}</th>
              <td><Tip id={sec.top} label={sec.top} /></td>
              <td><Tip id={sec.bottom} label={sec.bottom} />{s.recruits.includes(sec.bottom) && <span class="recruit" title="Recruit enlisted: its ongoing bonus is unlocked"> ✚</span>}</td>
              <td><span class="costboxes" title={`${sec.bottom_cost} cost boxes, ${cubes} covered by upgrade cubes`}>
                {Array.from({ length: sec.bottom_cost }, (_, k) => <span key={k} class={k < cubes ? "box cube" : "box"}>{k < cubes ? "▣" : "□"}</span>)}
              </span></td>
              <td>+{sec.bottom_coins}</td>
            </tr>);
        })}</tbody>
      </table>}
      <p><span class="k">Upgrades:</span> {s.top_upgrades.length ? s.top_upgrades.map((u) => u.replace(/_/g, " ")).join(", ") : "none"}
        {" "}· <span class="k"><Tip id="recruit" label="Recruits" />:</span> {s.recruits.length ? s.recruits.map((r) => <Tip key={r} id={r} />) : "none"}
        {s.enlist_bonuses.length > 0 && <> · <span class="k"><Tip id="enlist" label="Enlist bonuses" />:</span> {s.enlist_bonuses.map((b) => <Tip key={b} id={b} />)}</>}</p>
      <p><span class="k">Structures:</span> {s.structures.length ? s.structures.map(([k, loc]) => `${k} on ${loc}`).join(", ") : "none"}
        {" "}· <span class="k">Mechs:</span> {s.mechs.length}/4 · <span class="k">Workers on the board:</span> {s.workers.length}</p>
      {s.resources.length > 0 && <p><span class="k">Resources:</span> {s.resources.map(([loc, k, n]) => `${n} ${k} on ${loc}`).join(", ")}</p>}
      {mine && s.hand_combat && <Cards label="Your combat cards" ids={s.hand_combat} kind="combat_card"
                                       refIds={s.combat_card_ids?.map((n) => `c${n}`)} />}
    </div>
  );
}

export function ExpArea({ view, seat }: { view: View; seat: number }) {
  const e = view.seats[seat] as ExpView;
  const mine = view.seat === seat;
  return (
    <div class="mat expeditions">
      <Stats items={[["⚡", "Power", e.power], ["◆", "Guile", e.guile], ["◎", "Coins", e.coins], ["🂠", "Combat cards", e.combat_cards]]} />
      <p class="matname">Mech <Tip id={e.mech} /> at {e.loc} · hero <Tip id={e.character} />{e.hero_trashed ? " (trashed)" : ""}
        {" "}· companion <Tip id={e.companion} /> · action token on {e.token || "—"}</p>
      <p><span class="k">Workers:</span> {e.workers.length ? e.workers.map((w, i) => (
        <Target key={i} kind="worker" id={w} name={`${w} worker`}><span class={`worker ${w}`} title={`${w} worker`}>{w}</span></Target>)) : "none"}</p>
      <Cards label={`Hand (${e.hand}, face up)`} ids={e.hand_cards} />
      <p class="cards"><span class="k">Active row:</span> {e.active.length ? e.active.map(([c, side], i) => (
        <Target key={i} kind="card" id={c} name={c}><span><Tip id={c} /> <small>({side || "no worker"})</small> </span></Target>)) : "none"}</p>
      <Cards label="Upgraded (tucked)" ids={e.upgraded} /><Cards label="Melded (tucked)" ids={e.melded} />
      <Cards label="Solved quests" ids={e.solved} /><Cards label="Map tokens" ids={e.map_tokens} kind="map_token" />
      {e.corruption.length > 0 && <p><span class="k"><Tip id="corruption" label="Corruption" />:</span> {e.corruption.map(([k, n]) => `${k} ${n}`).join(", ")}</p>}
      {mine && e.hand_combat && <Cards label="Your combat cards" ids={e.hand_combat} kind="combat_card"
                                       refIds={e.combat_card_ids?.map((n) => `c${n}`)} />}
    </div>
  );
}

export function SeatPanel({ view, seat }: { view: View; seat: number }) {
  const p = view.seats[seat];
  return (
    <section class={`seatpanel seat${seat}`} aria-label={`${view.tags[seat]} player area`} data-testid={`seat${seat}`}>
      <h2><span class={`badge seat${seat}`}><span aria-hidden="true">{SHAPE[seat]} </span>{view.tags[seat]}</span>{" "}
        {p.role === "scythe" ? "Scythe" : "Expeditions"} · <span title="Stars placed">★ {view.stars[seat]}</span></h2>
      {p.role === "scythe" ? <ScytheMat view={view} seat={seat} /> : <ExpArea view={view} seat={seat} />}
    </section>
  );
}

/** The Triumph Track: each box with both requirements (hover/tap for the text), the stars on it and
 * each seat's progress toward it; a box an option names (Boast) is a target. The Meloch card row with
 * the benefits facing each player. */
export function Track({ view, extras }: { view: View; extras: Extras | null }) {
  const help = useContext(HelpContext);
  const side = view.setup.track_side;
  const cats = help.content?.tracks[side] ?? [];
  const roleName = (seat: number) => (view.seats[seat].role === "scythe" ? "Scythe" : "Expeditions");
  return (
    <section class="track" aria-label="Triumph Track">
      <h2>Triumph Track {side} <small>({view.setup.seats[0]?.stars_to_win === view.setup.seats[1]?.stars_to_win
        ? `first to ${view.setup.seats[0]?.stars_to_win ?? 4} stars wins`
        : view.setup.seats.map((st, i) => `${view.tags[i]} wins with ${st.stars_to_win} stars`).join(", ")})</small></h2>
      <ol>{view.track.map((box, i) => {
        const c = cats[i];
        return (
          <li key={i} class={box.length ? "taken" : undefined} data-box={i + 1}>
            <Target kind="track_box" id={String(i + 1)} name={`Triumph box ${i + 1}`}>
              <Tip id={`track-${side}-${i + 1}`} label={`${i + 1}${c?.combat ? " ⚔" : ""}`} />
            </Target>
            <ul class="req">{[0, 1].map((seat) => {
              const p = extras?.progress[seat]?.[i];
              const label = p?.label ?? (roleName(seat) === "Scythe" ? c?.scythe.label : c?.expeditions.label) ?? "";
              const done = p ? p.have >= p.need : false;
              return <li key={seat} class={`seat${seat}${done ? " met" : ""}`} data-testid={`progress-${seat}-${i + 1}`}
                         title={p ? `${view.tags[seat]} (${roleName(seat)}): ${label}, has ${p.have} of ${p.need}` : label}>
                <span aria-hidden="true">{SHAPE[seat]}</span> {view.tags[seat]}: {label}
                {p && <> <meter min={0} max={Math.max(1, p.need)} value={Math.min(p.have, p.need)} aria-hidden="true" />
                  <span class="have">{p.have}/{p.need}{done ? " ✓" : ""}</span></>}
              </li>;
            })}</ul>
            <span class="stars">{box.length ? box.map((s) => <span key={s} class={`badge seat${s}`}>{SHAPE[s]}★{view.tags[s]}</span>) : "no star"}</span>
          </li>);
      })}</ol>
      <div class="meloch">
        <p><span class="k">Meloch row:</span> {view.meloch_row.length ? view.meloch_row.map(([c, rotated], i) => <span key={i}><Tip id={c} /> {rotated ? "(rotated)" : "(upright)"} </span>) : "—"}</p>
        {extras && view.meloch_row.length > 0 && <ul class="facing" data-testid="meloch-facing">{[0, 1].map((seat) => (
          <li key={seat} class={`seat${seat}`}><span aria-hidden="true">{SHAPE[seat]}</span> Facing {view.tags[seat]}: {extras.meloch_facing[seat] || "nothing"}</li>))}</ul>}
      </div>
    </section>
  );
}
