import { describe, expect, it } from "vitest";
import { callIdOf, withCallId } from "../../../../src/protocol/calls/call-id.js";

describe("callIdOf", () => {
  it("makes a random UUID on first need and keeps it on the extra, so every context of a request agrees", () => {
    const extra = { requestId: 1 };
    const id = callIdOf(extra);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(callIdOf(extra)).toBe(id);
    // Another request with the same JSON-RPC id is another call.
    expect(callIdOf({ requestId: 1 })).not.toBe(id);
  });

  it("takes a given id lazily, once, so a replayed round keeps its first round's id", () => {
    let asked = 0;
    const extra = withCallId({}, () => {
      asked++;
      return "call-of-round-1";
    });
    expect(asked).toBe(0);
    expect(callIdOf(extra)).toBe("call-of-round-1");
    expect(callIdOf(extra)).toBe("call-of-round-1");
    expect(asked).toBe(1);
  });

  it("returns the same object it was given, and adds no enumerable property to it", () => {
    const extra = { sessionId: "s" };
    expect(withCallId(extra, () => "x")).toBe(extra);
    callIdOf(extra);
    expect(Object.keys(extra)).toEqual(["sessionId"]);
    expect(JSON.stringify(extra)).toBe('{"sessionId":"s"}');
  });
});
