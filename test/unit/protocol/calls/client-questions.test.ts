import { describe, expect, it } from "vitest";
import { INPUT_KEY_OPTION, inputKeyOf, isReplayed } from "../../../../src/protocol/calls/client-questions.js";
import { withEnvelope } from "../../../../src/protocol/calls/request-envelope.js";

describe("client questions", () => {
  it("tells a 2026-07-28 request (it has an envelope) from a 2025 one", () => {
    expect(
      isReplayed(withEnvelope({}, { logLevel: undefined, capabilities: undefined, outcome: undefined })),
    ).toBe(true);
    expect(isReplayed({ sessionId: "s" })).toBe(false);
  });

  it("reads the question key a handler named, and nothing else", () => {
    expect(INPUT_KEY_OPTION).toBe("frugal/inputKey");
    expect(inputKeyOf({ [INPUT_KEY_OPTION]: "confirm-delete", timeout: 5 })).toBe("confirm-delete");
    expect(inputKeyOf({ [INPUT_KEY_OPTION]: 7 })).toBeUndefined();
    expect(inputKeyOf(undefined)).toBeUndefined();
    expect(inputKeyOf({})).toBeUndefined();
  });
});
