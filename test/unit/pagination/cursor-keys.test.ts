/**
 * Cursor keys shared by every instance, and the three-step rotation (issue 14): at each
 * step of the procedure documented on `CursorSecret`, a cursor signed by any instance is
 * verified by every other, whichever step it is at; and a list that names one id twice is
 * refused at start-up.
 */
import { describe, expect, it } from "vitest";
import { ManualClock } from "../../../src/clock/clock.js";
import { FrugalConfigError } from "../../../src/errors/config-error.js";
import { CursorCodec, CursorError } from "../../../src/pagination/cursor-codec.js";
import { type CursorSecret, createKeyring } from "../../../src/pagination/cursor-keys.js";

const binding = {
  operation: "list",
  canonicalInput: "{}",
  keySpec: "id:asc",
  keyFields: ["id"],
  principal: "principal:alice",
};
const clock = new ManualClock(1_000);
const instance = (secret: CursorSecret) =>
  new CursorCodec({ keyring: createKeyring(secret), clock, ttlMs: 60_000, encrypt: false, maxLength: 1024 });

const OLD = { id: "2026-11", secret: "old-secret-0123456789abcdef" };
const NEW = { id: "2026-12", secret: "new-secret-0123456789abcdef" };

describe("cursor key rotation across instances", () => {
  it("never fails a cursor while the instances roll through the three steps", () => {
    // Each step is rolled out instance by instance: neighbouring steps run side by side.
    const steps: CursorSecret[] = [[OLD], [OLD, NEW], [NEW, OLD], [NEW]];
    for (let step = 0; step < steps.length - 1; step++) {
      const before = instance(steps[step] as CursorSecret);
      const after = instance(steps[step + 1] as CursorSecret);
      for (const [signer, verifier] of [
        [before, after],
        [after, before],
      ] as const) {
        // Cursors from step 2 on (signed by the new key) meet step 3 only after the old ones expired.
        const cursor = signer.encode({ id: 7 }, binding);
        expect(verifier.decode(cursor, binding)).toEqual({ id: 7 });
      }
    }
  });

  it("refuses a cursor signed by a key the instance does not have, with a message to start again", () => {
    const cursor = instance([NEW]).encode({ id: 7 }, binding);
    expect(() => instance([OLD]).decode(cursor, binding)).toThrow(CursorError);
  });

  it("refuses two keys with one id at start-up, naming the setting", () => {
    expect(() => createKeyring([OLD, { id: OLD.id, secret: "another-secret-0123456789" }])).toThrow(
      FrugalConfigError,
    );
    expect(() => createKeyring([OLD, { id: OLD.id, secret: "another-secret-0123456789" }])).toThrow(
      /cursorSecret: two keys have the id "2026-11"/,
    );
    expect(() => createKeyring(["same-secret-0123456789", "same-secret-0123456789"])).toThrow(/two keys/);
  });
});
