import { describe, expect, it } from "vitest";
import { clampBox, complete, dialShown, directPick, entryFor, groupOptions, hotseatScreen, indexEntries, refocusStep, takenForPlayer, lastCombat, logKinds, logLines,
  mergeBatches, optionsByLocation, optionsByRef, panBy, parseFragment, refKey, stepForTurn, zoomAt, type Option } from "./logic";

const opt = (action: string, group: string, refs: { kind: string; id: string }[] = []): Option =>
  ({ action, label: action.toUpperCase(), group, cost: [], gain: [], refs, free: false });

describe("options", () => {
  it("groups in order of first appearance", () => {
    const g = groupOptions([opt("a", "x"), opt("b", "y"), opt("c", "x")]);
    expect(g.map(([k, v]) => [k, v.map((o) => o.action)])).toEqual([["x", ["a", "c"]], ["y", ["b"]]]);
  });
  it("indexes location refs only", () => {
    const m = optionsByLocation([opt("S move 1", "move", [{ kind: "location", id: "1" }, { kind: "unit", id: "char" }]),
      opt("S move 2", "move", [{ kind: "location", id: "2" }])]);
    expect([...m.keys()]).toEqual(["1", "2"]);
    expect(m.get("1")?.[0].action).toBe("S move 1");
  });
  it("completes on every typed word", () => {
    const os = [opt("S section 2", "s"), opt("S section 3", "s"), opt("S move char 1", "m")];
    expect(complete(os, "sec 3").map((o) => o.action)).toEqual(["S section 3"]);
    expect(complete(os, "").length).toBe(3);
  });
});

describe("log", () => {
  const b = (seq: number, seat: number, text: string) => ({ seq, seat, kind: "move", events: [{ kind: "k", seat, text }] });
  it("merges batches once each, in order", () => {
    const m = mergeBatches([b(1, 0, "a"), b(2, 1, "b")], [b(2, 1, "b"), b(3, 0, "c")]);
    expect(m.map((x) => x.seq)).toEqual([1, 2, 3]);
  });
  it("filters by seat", () => {
    expect(logLines([b(1, 0, "a"), b(2, 1, "b")], 1).map((l) => l.text)).toEqual(["b"]);
  });
});

describe("fragment", () => {
  it("reads hot-seat and invite tokens", () => {
    expect(parseFragment("#seats=a,b").tokens).toEqual(["a", "b"]);
    expect(parseFragment("#token=x")).toEqual({ tokens: ["x"], spectator: false });
    expect(parseFragment("#token=x&spectate=1").spectator).toBe(true);
  });
});

describe("combat reveal", () => {
  it("finds the last resolved combat in the log", () => {
    const side = (seat: number, total: number) => ({ seat, dial: 3, cards: [{ id: 1, name: "X", value: 2 }], total });
    const res = { kind: "combat_resolved" as const, loc: "4", winner: 1, attacker: side(0, 5), defender: side(1, 6) };
    const batches = [{ seq: 1, seat: 0, kind: "move", events: [{ kind: "combat", seat: 0, text: "t", data: res }] },
                     { seq: 2, seat: 1, kind: "move", events: [{ kind: "x", seat: 1, text: "u" }] }];
    expect(lastCombat(batches)?.winner).toBe(1);
    expect(lastCombat(batches.slice(1))).toBeNull();
  });
});

describe("rules at hand", () => {
  const idx = indexEntries([{ id: "c1", name: "Element of Surprise", kind: "combat card", text: "E" },
    { id: "i02", name: "Machete", kind: "discovery", text: "M" }]);
  it("finds an entry by id, by name and by the view's combat-card form", () => {
    expect(entryFor(idx, "i02")?.text).toBe("M");
    expect(entryFor(idx, "machete")?.text).toBe("M");
    expect(entryFor(idx, "Element of Surprise (1) #8")?.text).toBe("E");
    expect(entryFor(idx, "nothing")).toBeUndefined();
  });
});

describe("replay", () => {
  it("jumps to the first step of a turn, or the last step", () => {
    expect(stepForTurn([1, 1, 2, 2, 3], 2)).toBe(2);
    expect(stepForTurn([1, 1, 2, 2, 3], 1)).toBe(0);
    expect(stepForTurn([1, 1, 2, 2, 3], 9)).toBe(4);
  });
});

describe("zoom and pan", () => {
  const full = { x: 0, y: 0, w: 720, h: 600 };
  it("zooms about a point that stays in place", () => {
    const b = zoomAt(full, full, 2, 360, 300);
    expect(b).toEqual({ x: 180, y: 150, w: 360, h: 300 });
    const c = zoomAt(full, full, 2, 0, 0);
    expect([c.x, c.y, c.w]).toEqual([0, 0, 360]);
  });
  it("never zooms out past the board nor in past the limit, and pans inside it", () => {
    expect(zoomAt(full, full, 0.5, 100, 100)).toEqual(full);
    expect(zoomAt(full, full, 100, 360, 300).w).toBe(180);
    const b = zoomAt(full, full, 2, 360, 300);
    expect(panBy(b, full, -1000, 0).x).toBe(0);
    expect(panBy(b, full, 1000, 1000)).toEqual({ x: 360, y: 300, w: 360, h: 300 });
    expect(clampBox({ x: -5, y: -5, w: 9999, h: 1 }, full)).toEqual(full);
  });
});

describe("targets beyond the board", () => {
  it("indexes every ref kind: sections, track boxes, cards, workers", () => {
    const m = optionsByRef([opt("S section 2", "section", [{ kind: "section", id: "2" }]),
      opt("E boast 6", "boast", [{ kind: "track_box", id: "6" }]), opt("E play nikte", "play", [{ kind: "card", id: "nikte" }]),
      opt("E worker hero", "worker", [{ kind: "worker", id: "hero" }]),
      opt("E move 1", "move mech", [{ kind: "unit", id: "mech" }, { kind: "location", id: "home-e" }, { kind: "location", id: "1" }])]);
    expect(m.get(refKey("section", "2"))?.[0].action).toBe("S section 2");
    expect(m.get(refKey("track_box", "6"))?.[0].action).toBe("E boast 6");
    expect(m.get(refKey("card", "nikte"))?.length).toBe(1);
    expect(m.get(refKey("worker", "hero"))?.length).toBe(1);
    expect(m.get(refKey("unit", "mech"))?.[0].action).toBe("E move 1");
    expect(m.has(refKey("location", "1")) && m.has(refKey("location", "home-e"))).toBe(true);
  });
  it("sends a pick at once only when it is one option that costs and gains nothing", () => {
    expect(directPick([opt("a", "g")])?.action).toBe("a");
    expect(directPick([opt("a", "g"), opt("b", "g")])).toBeNull();
    expect(directPick([{ ...opt("a", "g"), cost: ["power 2"] }])).toBeNull();
    expect(directPick([{ ...opt("a", "g"), gain: ["$1"] }])).toBeNull();
  });
});

describe("hot-seat", () => {
  it("asks to pass the device before another seat's view is shown", () => {
    expect(hotseatScreen(0, null)).toEqual({ pass: null, seat: 0 });
    expect(hotseatScreen(1, 0)).toEqual({ pass: 1, seat: null });  // nothing of seat 1 on screen yet
    expect(hotseatScreen(1, 1)).toEqual({ pass: null, seat: 1 });
    expect(hotseatScreen(null, 1)).toEqual({ pass: null, seat: 1 });  // nobody decides (game over)
  });
});

describe("keyboard focus", () => {
  it("comes back to the options after a decision taken for the player and the other seat's turn", () => {
    let wanted = true;  // a choice was made from the options
    const forced = refocusStep(wanted, 1, takenForPlayer(true, 1, null));  // forced: taken for the player
    expect(forced).toEqual({ focus: true, wanted: true });
    wanted = forced.wanted;
    expect(refocusStep(wanted, 0, false)).toEqual({ focus: false, wanted: true });  // the other seat's turn
    expect(refocusStep(wanted, 5, takenForPlayer(false, 5, null))).toEqual({ focus: true, wanted: false });
    expect(refocusStep(false, 5, false)).toEqual({ focus: false, wanted: false });  // a mouse player keeps their focus
  });
  it("takes only a forced single option, never behind the pass-the-device screen", () => {
    expect(takenForPlayer(true, 1, null)).toBe(true);
    expect(takenForPlayer(true, 2, null)).toBe(false);
    expect(takenForPlayer(false, 1, null)).toBe(false);
    expect(takenForPlayer(true, 1, 1)).toBe(false);
  });
});

describe("log by kind", () => {
  const batch = { seq: 1, seat: 0, kind: "move", events: [{ kind: "combat", seat: 0, text: "a" }, { kind: "star", seat: 1, text: "b" },
    { kind: "combat", seat: 1, text: "c" }] };
  it("lists the kinds present and filters on seat and kind together", () => {
    expect(logKinds([batch])).toEqual(["combat", "star"]);
    expect(logLines([batch], null, "combat").map((l) => l.text)).toEqual(["a", "c"]);
    expect(logLines([batch], 1, "combat").map((l) => l.text)).toEqual(["c"]);
    expect(logLines([batch], 1).map((l) => l.text)).toEqual(["b", "c"]);
  });
  it("shows a dial only once it is set", () => {
    expect(dialShown(-1)).toBeNull();
    expect(dialShown(undefined)).toBeNull();
    expect(dialShown(0)).toBe(0);
    expect(dialShown(7)).toBe(7);
  });
});
