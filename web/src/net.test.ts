import { describe, expect, it } from "vitest";
import { isFinal } from "./net";

describe("isFinal", () => {
  it("stops reconnecting only on the server's own refusals (44xx)", () => {
    for (const code of [4400, 4401, 4404, 4409]) expect(isFinal(code)).toBe(true);
    for (const code of [1000, 1001, 1006, 1011, 1012, 4000, 4500]) expect(isFinal(code)).toBe(false);
  });
});
