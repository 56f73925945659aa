// The player areas, drawn from the typed view and the public content (a mat's sections): the
// Scythe mat with its sections (top and bottom actions, cost boxes and the cubes on them, coins,
// recruits), upgrades, structures and tracks; the Expeditions area with its public hand, active
// row, tucked cards and workers. Only the viewer's own combat cards are shown, the other's count.
import { useContext } from "preact/hooks";
import type { ExpView, ScytheView, View } from "./generated/view";
import { HelpContext, Tip } from "./help";

const SHAPE = ["■", "●"];

function Stats({ items }: { items: [string, string, string | number][] }) {
  return <dl class="stats">{items.map(([icon, name, v]) => (
    <div key={name} class="stat" title={name}><dt><span aria-hidden="true">{icon}</span> {name}</dt><dd>{v}</dd></div>))}</dl>;
}

function Cards({ label, ids, empty = "none" }: { label: string; ids: readonly string[]; empty?: string }) {
  return <p class="cards"><span class="k">{label}:</span> {ids.length ? ids.map((c, i) => <Tip key={`${c}${i}`} id={c} />) : empty}</p>;
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
              <th scope="row">{i + 1}{here && <span class="token" title="Your action token is here"> ◆</span>}</th>
              <td><Tip id={sec.top} label={sec.top} /></td>
              <td><Tip id={sec.bottom} label={sec.bottom} />{s.recruits.includes(sec.bottom) && <span class="recruit" title="Recruit enlisted: its ongoing bonus is unlocked"> ✚</span>}</td>
              <td><span class="costboxes" title={`${sec.bottom_cost} cost boxes, ${cubes} covered by upgrade cubes`}>
                {Array.from({ length: sec.bottom_cost }, (_, k) => <span key={k} class={k < cubes ? "box cube" : "box"}>{k < cubes ? "▣" : "□"}</span>)}
              </span></td>
              <td>+{sec.bottom_coins}</td>
            </tr>);
        })}</tbody>
      </table>}
      <p><span class="k">Upgrades:</span> {s.top_upgrades.length ? s.top_upgrades.join(", ") : "none"}
        {" "}· <span class="k">Recruits:</span> {s.recruits.length ? s.recruits.join(", ") : "none"}
        {s.enlist_bonuses.length > 0 && <> · <span class="k">Enlist bonuses:</span> {s.enlist_bonuses.join(", ")}</>}</p>
      <p><span class="k">Structures:</span> {s.structures.length ? s.structures.map(([k, loc]) => `${k} on ${loc}`).join(", ") : "none"}
        {" "}· <span class="k">Mechs:</span> {s.mechs.length}/4 · <span class="k">Workers on the board:</span> {s.workers.length}</p>
      {s.resources.length > 0 && <p><span class="k">Resources:</span> {s.resources.map(([loc, k, n]) => `${n} ${k} on ${loc}`).join(", ")}</p>}
      {mine && s.hand_combat && <Cards label="Your combat cards" ids={s.hand_combat} />}
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
      <p><span class="k">Workers:</span> {e.workers.length ? e.workers.map((w, i) => <span key={i} class={`worker ${w}`} title={`${w} worker`}>{w}</span>) : "none"}</p>
      <Cards label={`Hand (${e.hand}, face up)`} ids={e.hand_cards} />
      <p class="cards"><span class="k">Active row:</span> {e.active.length ? e.active.map(([c, side], i) => <span key={i}><Tip id={c} /> <small>({side})</small> </span>) : "none"}</p>
      <Cards label="Upgraded (tucked)" ids={e.upgraded} /><Cards label="Melded (tucked)" ids={e.melded} />
      <Cards label="Solved quests" ids={e.solved} /><Cards label="Map tokens" ids={e.map_tokens} />
      {e.corruption.length > 0 && <p><span class="k">Corruption:</span> {e.corruption.map(([k, n]) => `${k} ${n}`).join(", ")}</p>}
      {mine && e.hand_combat && <Cards label="Your combat cards" ids={e.hand_combat} />}
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

/** The Triumph Track: each box with both requirements (hover/tap for the text) and the stars on it;
 * the Meloch card row with the benefits facing each player. */
export function Track({ view }: { view: View }) {
  const help = useContext(HelpContext);
  const side = view.setup.track_side;
  const cats = help.content?.tracks[side] ?? [];
  return (
    <section class="track" aria-label="Triumph Track">
      <h2>Triumph Track {side}</h2>
      <ol>{view.track.map((box, i) => {
        const c = cats[i];
        return (
          <li key={i} class={box.length ? "taken" : undefined}>
            <Tip id={`track-${side}-${i + 1}`} label={`${i + 1}${c?.combat ? " ⚔" : ""}`} />
            {c && <small class="req"><span>Scythe: {c.scythe.label}</span><br />
              <span>Expeditions: {c.expeditions.label}</span></small>}
            <span class="stars">{box.length ? box.map((s) => <span key={s} class={`badge seat${s}`}>{SHAPE[s]}★{view.tags[s]}</span>) : "·"}</span>
          </li>);
      })}</ol>
      <p>Meloch row: {view.meloch_row.length ? view.meloch_row.map(([c, up], i) => <span key={i}><Tip id={c} /> {up ? "(upright)" : "(rotated)"} </span>) : "—"}</p>
    </section>
  );
}
