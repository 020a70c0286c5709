import { describe, expect, it } from "vitest";
import { newResourceId } from "../../../src/storage/resource-id.js";
import type { StoredResourceMeta } from "../../../src/storage/storage.js";
import { parseStoredMeta } from "../../../src/storage/stored-meta.js";

const id = newResourceId();
const meta: StoredResourceMeta = {
  id,
  uri: `ephemeral://r/${id}`,
  owner: "session:a",
  creator: "session:a",
  name: "rows",
  description: "some rows",
  mimeType: "application/json",
  kind: "json-array",
  size: 120,
  total: 3,
  version: 2,
  createdAt: 1_000,
  expiresAt: 61_000,
};

describe("parseStoredMeta", () => {
  it("gives back valid metadata written as JSON, global (null owner) or not", () => {
    expect(parseStoredMeta(JSON.stringify(meta), id)).toEqual(meta);
    const global = { ...meta, owner: null, description: undefined };
    expect(parseStoredMeta(JSON.stringify(global), id)).toEqual({
      ...meta,
      owner: null,
      description: undefined,
    });
  });

  it("refuses metadata planted under another id", () => {
    expect(parseStoredMeta(JSON.stringify(meta), newResourceId())).toBeUndefined();
  });

  it("refuses text that is not JSON or not an object", () => {
    for (const text of ["", "{", "null", "42", '"meta"']) expect(parseStoredMeta(text, id)).toBeUndefined();
  });

  it("refuses each malformed field", () => {
    const broken: Array<Partial<Record<keyof StoredResourceMeta, unknown>>> = [
      { uri: 1 },
      { owner: 3 },
      { creator: null },
      { name: undefined },
      { description: 5 },
      { mimeType: [] },
      { kind: "xml" },
      { size: -1 },
      { size: 1.5 },
      { total: "3" },
      { version: 0 },
      { createdAt: "now" },
      { expiresAt: null },
    ];
    for (const change of broken)
      expect(
        parseStoredMeta(JSON.stringify({ ...meta, ...change }), id),
        JSON.stringify(change),
      ).toBeUndefined();
  });
});
