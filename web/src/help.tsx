// Rules at hand: every card, token, ability and track box shows its text on hover (title) and on
// tap/click/Enter (the info line), from the server's public content texts; the rules panel shows
// the rules topics and the glossary (the same texts as the terminal's `rules`).
import { createContext } from "preact";
import { useContext, useState } from "preact/hooks";
import type { Content, Entry, Rules } from "./api";
import { entryFor } from "./logic";

export interface Help { content: Content | null; index: Map<string, Entry>; show: (text: string) => void; toggleRules: () => void }
export const HelpContext = createContext<Help>({ content: null, index: new Map(), show: () => undefined, toggleRules: () => undefined });

/** Opens the rules panel (in each page's header). */
export function RulesButton() {
  const help = useContext(HelpContext);
  return <button type="button" class="rulesbtn" onClick={help.toggleRules}>Rules</button>;
}

/** A name with its rules text: hover shows it as a tooltip, a tap or Enter shows it in the info line. */
export function Tip({ id, label }: { id: string; label?: string }) {
  const help = useContext(HelpContext);
  const e = entryFor(help.index, id);
  const text = label ?? (e ? e.name : id);
  if (!e) return <span>{text}</span>;
  return <button type="button" class="tip" title={e.text} aria-label={`${text}: show its text`}
                 onClick={() => help.show(e.text)}>{text}</button>;
}

/** The line where a tapped text shows (phones have no hover). */
export function InfoLine({ text, onClose }: { text: string; onClose: () => void }) {
  if (!text) return null;
  return <p class="info" role="status" data-testid="info">{text} <button type="button" onClick={onClose} aria-label="Close the text">×</button></p>;
}

export function RulesPanel({ rules, onClose }: { rules: Rules; onClose: () => void }) {
  const [q, setQ] = useState("");
  const words = Object.entries(rules.glossary).filter(([k, v]) => !q || k.includes(q.toLowerCase()) || v.toLowerCase().includes(q.toLowerCase()));
  return (
    <aside class="rules" role="dialog" aria-label="Rules" data-testid="rules">
      <header><h2>Rules</h2><button type="button" onClick={onClose} autoFocus>Close rules</button></header>
      {Object.entries(rules.topics).map(([k, v]) => <details key={k}><summary>{k}</summary><p>{v}</p></details>)}
      <h3>Glossary</h3>
      <label>Find a word <input type="search" value={q} onInput={(e) => setQ(e.currentTarget.value)} /></label>
      <dl>{words.map(([k, v]) => <><dt key={k}>{k}</dt><dd>{v}</dd></>)}</dl>
    </aside>
  );
}
