import { describe, expect, it } from "vitest";
import { boardUnits, wrap } from "./board";
import type { View } from "./generated/view";

const view = {
  tags: ["S", "E"],
  seats: [
    { role: "scythe", character: "home-s", mechs: ["3", "3"], workers: ["1", "1", "2"], structures: [["mill", "1"], ["mine", "2"]] },
    { role: "expeditions", loc: "5", workers: ["blue", "blue", "hero", "green"], hero_trashed: false },
  ],
} as unknown as View;

describe("board pieces", () => {
  const us = boardUnits(view);
  const at = (loc: string) => us.filter((u) => u.loc === loc).map((u) => `${u.seat}:${u.glyph}${u.count > 1 ? u.count : ""}${u.colour ? `/${u.colour}` : ""}`);
  it("counts Scythe pieces by kind and location", () => {
    expect(at("home-s")).toEqual(["0:C"]);
    expect(at("3")).toEqual(["0:M2"]);
    expect(at("1")).toEqual(["0:W2", "0:Ml"]);
    expect(at("2")).toEqual(["0:W", "0:Mn"]);  // mine and mill told apart
  });
  it("puts the Expeditions mech with its workers by colour and its hero", () => {
    expect(at("5")).toEqual(["1:X", "1:B2/blue", "1:H", "1:G/green"]);
    const trashed = boardUnits({ ...view, seats: [view.seats[0], { ...view.seats[1], hero_trashed: true }] } as unknown as View);
    expect(trashed.some((u) => u.glyph === "H")).toBe(false);
  });
  it("names pieces for screen readers with their counts", () => {
    expect(us.find((u) => u.glyph === "M")?.name).toBe("2 mechs");
  });
});

describe("lake card names", () => {
  it("wrap in two lines, the rest shortened", () => {
    expect(wrap("Temple of the Jaguar", 12, 2)).toEqual(["Temple of", "the Jaguar"]);
    expect(wrap("Field Radio", 12, 2)).toEqual(["Field Radio"]);
    expect(wrap("A very long lake card name indeed", 12, 2)).toEqual(["A very long", "lake card…"]);
  });
});
