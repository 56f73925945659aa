// Clickable targets beyond the board's locations: a mat section, a Triumph box, a card, a combat
// card, a worker, a map token... whatever an option names in its ``refs`` (the engine's, never
// guessed here). A target is highlighted; a click sends its one option (when it costs and gains
// nothing) or lists its options with their costs and gains in the options panel.
import { createContext, type ComponentChildren } from "preact";
import { useContext } from "preact/hooks";
import { type Option, refKey } from "./logic";

export interface Targets { byRef: Map<string, Option[]>; picked: string | null; pick: (key: string) => void }
export const TargetContext = createContext<Targets>({ byRef: new Map(), picked: null, pick: () => undefined });

export function Target({ kind, id, name, children }: { kind: string; id: string; name: string; children: ComponentChildren }) {
  const t = useContext(TargetContext);
  const key = refKey(kind, id);
  const os = t.byRef.get(key);
  if (!os?.length) return <>{children}</>;
  const what = os.map((o) => `${o.label}${o.cost.length ? ` (cost: ${o.cost.join(", ")})` : ""}${o.gain.length ? ` (gain: ${o.gain.join(", ")})` : ""}`).join("; ");
  return <span class={`target${t.picked === key ? " selected" : ""}`} data-ref={key}>
    {children}
    <button type="button" class="pickref" title={what} aria-label={`${name}: ${os.length === 1 ? os[0].label : `${os.length} options`}`}
            onClick={() => t.pick(key)}>{os.length === 1 ? "choose" : `${os.length} options`}</button>
  </span>;
}
