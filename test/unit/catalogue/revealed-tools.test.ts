import { describe, expect, it } from "vitest";
import { RevealedTools } from "../../../src/catalogue/revealed-tools.js";

describe("RevealedTools", () => {
  it("says whether an owner's list grew", () => {
    const revealed = new RevealedTools();
    expect(revealed.add("session:a", ["x", "y"])).toBe(true);
    expect(revealed.add("session:a", ["y"])).toBe(false);
    expect(revealed.add("session:a", [])).toBe(false);
    expect(revealed.has("session:a", "x")).toBe(true);
    expect(revealed.has("session:b", "x")).toBe(false);
  });

  it("forgets an owner, and the least recently used one past its bound", () => {
    const revealed = new RevealedTools(2);
    revealed.add("a", ["x"]);
    revealed.add("b", ["x"]);
    revealed.add("a", ["y"]); // a is now the most recently used
    revealed.add("c", ["x"]);
    expect(revealed.has("b", "x")).toBe(false);
    expect(revealed.has("a", "y")).toBe(true);
    revealed.forget("a");
    expect(revealed.has("a", "x")).toBe(false);
  });
});
