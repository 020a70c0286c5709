import { describe, expect, it } from "vitest";
import {
  envelopeOf,
  type RequestEnvelope,
  withEnvelope,
} from "../../../../src/protocol/calls/request-envelope.js";

describe("request envelopes", () => {
  it("ride on a request's extra, and a 2025 request has none", () => {
    const envelope: RequestEnvelope = {
      logLevel: "info",
      capabilities: { elicitation: {} },
      outcome: undefined,
    };
    const extra = withEnvelope({ requestId: 3 }, envelope);
    expect(envelopeOf(extra)).toBe(envelope);
    expect(envelopeOf({ requestId: 3 })).toBeUndefined();
    // Never serialized with the extra: a symbol key.
    expect(Object.keys(extra)).toEqual(["requestId"]);
  });
});
