import { describe, expect, it } from "vitest";
import { ManualClock } from "../../../src/clock/clock.js";
import { CursorCodec, CursorError } from "../../../src/pagination/cursor-codec.js";
import { type CursorSecret, createKeyring } from "../../../src/pagination/cursor-keys.js";

const binding = {
  operation: "list",
  canonicalInput: '{"site":"a"}',
  keySpec: "updatedAt,slug:asc",
  principal: null,
};
const clock = new ManualClock(1_000);
const codec = (secret: CursorSecret | undefined, encrypt = false) =>
  new CursorCodec({ keyring: createKeyring(secret), clock, ttlMs: 60_000, encrypt, maxLength: 1024 });

describe("CursorCodec", () => {
  it("round-trips typed key values", () => {
    const c = codec("0123456789abcdef-secret");
    const after = {
      at: new Date("2026-01-02T03:04:05.678Z"),
      id: 2n ** 70n,
      n: 1.5,
      s: "é",
      b: true,
      z: null,
    };
    const decoded = c.decode(c.encode(after, binding), binding);
    expect(decoded).toEqual(after);
    expect(decoded.at).toBeInstanceOf(Date);
    expect(typeof decoded.id).toBe("bigint");
  });

  it("is opaque base64url and, when encrypted, does not reveal key values", () => {
    const signed = codec("0123456789abcdef-secret").encode({ slug: "top-secret-slug" }, binding);
    expect(signed).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(signed, "base64url").toString()).toContain("top-secret-slug");
    const c = codec("0123456789abcdef-secret", true);
    const encrypted = c.encode({ slug: "top-secret-slug" }, binding);
    expect(Buffer.from(encrypted, "base64url").toString()).not.toContain("top-secret");
    expect(c.decode(encrypted, binding)).toEqual({ slug: "top-secret-slug" });
  });

  it("binds to operation, input, key spec and principal", () => {
    const c = codec("0123456789abcdef-secret");
    const token = c.encode({ id: 1 }, binding);
    for (const other of [
      { ...binding, operation: "other" },
      { ...binding, canonicalInput: '{"site":"b"}' },
      { ...binding, keySpec: "updatedAt,slug:desc" },
      { ...binding, principal: "principal:mallory" },
    ]) {
      expect(() => c.decode(token, other)).toThrow(/another tool, other arguments or another user/);
    }
  });

  it("rotates keys: old cursors verify while listed, are refused once retired", () => {
    const old = codec([{ id: "k1", secret: "first-secret-0123456789" }]);
    const token = old.encode({ id: 1 }, binding);
    const rotated = codec([
      { id: "k2", secret: "second-secret-0123456789" },
      { id: "k1", secret: "first-secret-0123456789" },
    ]);
    expect(rotated.decode(token, binding)).toEqual({ id: 1 });
    expect(
      Buffer.from(rotated.encode({ id: 1 }, binding), "base64url")
        .subarray(2, 4)
        .toString(),
    ).toBe("k2");
    const retired = codec([{ id: "k2", secret: "second-secret-0123456789" }]);
    expect(() => retired.decode(token, binding)).toThrow(/not issued by this server/);
    const sameIdOtherSecret = codec([{ id: "k1", secret: "forged-secret-0123456789" }]);
    expect(() => sameIdOtherSecret.decode(token, binding)).toThrow(/altered/);
  });

  it("refuses expired, oversized and malformed cursors with a CursorError", () => {
    const c = codec("0123456789abcdef-secret");
    const token = c.encode({ id: 1 }, binding);
    clock.advance(60_001);
    expect(() => c.decode(token, binding)).toThrow(/expired/);
    expect(() => c.decode("A".repeat(2000), binding)).toThrow(/longer than 1024/);
    for (const bad of ["", "!!", "AAAA", Buffer.from([1, 0]).toString("base64url")]) {
      expect(() => c.decode(bad, binding)).toThrow(CursorError);
    }
  });

  it("refuses short secrets and uses a random key without one", () => {
    expect(createKeyring("short").weak).toBe(true);
    expect(createKeyring("a-secret-of-16-bytes").weak).toBe(false);
    expect(() => createKeyring("")).toThrow(/empty/);
    expect(createKeyring(undefined).ephemeral).toBe(true);
    const a = codec(undefined);
    const b = codec(undefined);
    expect(() => b.decode(a.encode({ id: 1 }, binding), binding)).toThrow(CursorError);
  });
});

describe("CursorCodec.encode", () => {
  it("refuses to issue a cursor that decode would refuse as too long", () => {
    const c = new CursorCodec({
      keyring: createKeyring("0123456789abcdef-secret"),
      clock,
      ttlMs: 60_000,
      encrypt: false,
      maxLength: 200,
    });
    expect(() => c.encode({ path: "x".repeat(500) }, binding)).toThrow(/over maxCursorLength \(200\)/);
  });
});
