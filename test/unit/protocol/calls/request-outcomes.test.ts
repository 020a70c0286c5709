import { describe, expect, it } from "vitest";
import type { CallOutcome } from "../../../../src/pipeline/call-outcome.js";
import { withEnvelope } from "../../../../src/protocol/calls/request-envelope.js";
import { outcomeOf, recordOutcome } from "../../../../src/protocol/calls/request-outcomes.js";

const outcome = (hit: boolean) => ({ cacheHit: hit, freshForMs: 1000 }) as unknown as CallOutcome;

describe("recordOutcome", () => {
  it("keeps the first operation's outcome of a 2026-07-28 request, not those of operations inside it", () => {
    const extra = withEnvelope({}, { logLevel: undefined, capabilities: undefined, outcome: undefined });
    recordOutcome(extra, outcome(true));
    recordOutcome(extra, outcome(false));
    expect(outcomeOf(extra)).toEqual(outcome(true));
  });

  it("keeps nothing for a 2025 request", () => {
    const extra = {};
    recordOutcome(extra, outcome(true));
    expect(outcomeOf(extra)).toBeUndefined();
    expect(Object.getOwnPropertySymbols(extra)).toEqual([]);
  });
});
