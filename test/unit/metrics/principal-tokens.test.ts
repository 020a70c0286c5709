import { describe, expect, it } from "vitest";
import { PrincipalTokens } from "../../../src/metrics/principal-tokens.js";

describe("PrincipalTokens", () => {
  it("counts calls and tokens per owner, a call without counted tokens as 0 tokens", () => {
    const tokens = new PrincipalTokens();
    tokens.record("alice", 120);
    tokens.record("alice", undefined);
    tokens.record("bob", 7);
    expect(tokens.stats()).toEqual({
      byPrincipal: { alice: { calls: 2, tokensOut: 120 }, bob: { calls: 1, tokensOut: 7 } },
      others: { calls: 0, tokensOut: 0, principals: 0 },
    });
  });

  it("keeps the first owners apart and counts the rest together, bounded", () => {
    const tokens = new PrincipalTokens(2);
    for (const owner of ["a", "b", "c", "d", "c"]) tokens.record(owner, 10);
    const stats = tokens.stats();
    expect(Object.keys(stats.byPrincipal)).toEqual(["a", "b"]);
    expect(stats.others).toEqual({ calls: 3, tokensOut: 30, principals: 2 });
  });

  it("hands out copies: reading the statistics never changes them", () => {
    const tokens = new PrincipalTokens();
    tokens.record("a", 1);
    const read = tokens.stats();
    (read.byPrincipal.a as { calls: number }).calls = 99;
    expect(tokens.stats().byPrincipal.a?.calls).toBe(1);
  });
});
