import { describe, expect, it } from "vitest";
import { ManualClock } from "../../../src/clock/clock.js";
import { QueryCursorError } from "../../../src/ephemeral/query-resource.js";
import { CursorCodec } from "../../../src/pagination/cursor-codec.js";
import { createKeyring } from "../../../src/pagination/cursor-keys.js";
import { queryCursors } from "../../../src/runtime/query-cursors.js";

const clock = new ManualClock(Date.UTC(2026, 5, 1));
const HOUR = 60 * 60 * 1000;
const cursors = queryCursors(
  new CursorCodec({
    keyring: createKeyring("0123456789abcdef-secret"),
    clock,
    ttlMs: HOUR,
    encrypt: false,
    maxLength: 1024,
  }),
);
const binding = {
  operation: "query_resource",
  canonicalInput: '{"uri":"ephemeral://search/1"}',
  keySpec: "position",
  owner: "principal:alice",
};

describe("queryCursors", () => {
  it("issues a cursor that reads back the position and the state it carried", () => {
    const token = cursors.issue({ p: 40, v: 3, total: 120 }, binding);
    expect(cursors.read(token, binding)).toEqual({ p: 40, v: 3, total: 120 });
  });

  it("binds a cursor to the query and the principal", () => {
    const token = cursors.issue({ p: 1 }, binding);
    expect(() => cursors.read(token, { ...binding, canonicalInput: '{"uri":"other"}' })).toThrow(
      QueryCursorError,
    );
    expect(() => cursors.read(token, { ...binding, owner: "principal:bob" })).toThrow(QueryCursorError);
  });

  it("binds no session: another session of nobody in particular reads it", () => {
    const token = cursors.issue({ p: 2 }, { ...binding, owner: "session:a" });
    expect(cursors.read(token, { ...binding, owner: "session:b" })).toEqual({ p: 2 });
  });

  it("refuses an altered or expired cursor with a QueryCursorError whose message is safe to show", () => {
    const token = cursors.issue({ p: 5 }, binding);
    const altered = `${token.slice(0, -2)}${token.endsWith("A") ? "B" : "A"}A`;
    expect(() => cursors.read(altered, binding)).toThrow(QueryCursorError);
    clock.advance(2 * HOUR);
    let refusal: unknown;
    try {
      cursors.read(token, binding);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(QueryCursorError);
    expect((refusal as Error).message).toMatch(/expired/i);
  });
});
