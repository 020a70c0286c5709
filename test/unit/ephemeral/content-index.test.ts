import { describe, expect, it } from "vitest";
import {
  decodeOffsets,
  type EncodedContent,
  encodeContent,
  INDEX_ENTRY_BYTES,
  ITEM_SEPARATOR,
} from "../../../src/ephemeral/content-index.js";

const offsetsOf = (encoded: EncodedContent) => [...decodeOffsets(encoded.index)];

/** Entry `i` read back the way the entry reader does: up to the next offset, minus its trailer. */
function entry(encoded: EncodedContent, i: number): string {
  const offsets = decodeOffsets(encoded.index);
  const trailer = encoded.kind === "json-array" ? ITEM_SEPARATOR.length : 1;
  const end = Math.min((offsets[i + 1] as number) - trailer, encoded.content.length);
  return encoded.content.subarray(offsets[i], end).toString("utf8");
}
const entries = (encoded: EncodedContent) =>
  Array.from({ length: encoded.total }, (_, i) => entry(encoded, i));

describe("encodeContent: JSON arrays", () => {
  it("stores one item per line of a valid JSON array, indexed by byte offset", () => {
    const items = [{ id: 1, name: "é" }, "😀", 3, null, [true]];
    const encoded = encodeContent(items);
    expect(encoded.kind).toBe("json-array");
    expect(encoded.mimeType).toBe("application/json");
    expect(encoded.total).toBe(5);
    expect(encoded.index.length).toBe(6 * INDEX_ENTRY_BYTES);
    expect(JSON.parse(encoded.content.toString("utf8"))).toEqual(items);
    expect(entries(encoded)).toEqual(items.map((item) => JSON.stringify(item)));
  });

  it("counts offsets in bytes, not characters", () => {
    const encoded = encodeContent(["ééé", "x"]);
    // "[\n" + '"ééé"' (8 bytes) + ",\n"
    expect(offsetsOf(encoded)).toEqual([2, 12, 17]);
    expect(entry(encoded, 1)).toBe('"x"');
  });

  it("stores an empty array as valid JSON with a single offset", () => {
    const encoded = encodeContent([]);
    expect(encoded.content.toString()).toBe("[\n]");
    expect(JSON.parse(encoded.content.toString())).toEqual([]);
    expect(encoded.total).toBe(0);
    expect(offsetsOf(encoded)).toEqual([2]);
  });

  it("writes bigints as strings and items JSON cannot hold as null", () => {
    const encoded = encodeContent([10n, undefined, () => 1, { big: -2n, gone: undefined }]);
    expect(JSON.parse(encoded.content.toString())).toEqual(["10", null, null, { big: "-2" }]);
    expect(entry(encoded, 3)).toBe('{"big":"-2"}');
  });

  it("keeps a given MIME type", () => {
    expect(encodeContent([1], "application/x-ndjson").mimeType).toBe("application/x-ndjson");
  });
});

describe("encodeContent: text", () => {
  it("indexes each line of a string", () => {
    const encoded = encodeContent("alpha\nβeta\n\ngamma");
    expect(encoded.kind).toBe("text");
    expect(encoded.mimeType).toBe("text/plain");
    expect(encoded.total).toBe(4);
    expect(entries(encoded)).toEqual(["alpha", "βeta", "", "gamma"]);
    expect(encoded.content.toString()).toBe("alpha\nβeta\n\ngamma");
  });

  it("does not count a final newline as the start of another line", () => {
    const encoded = encodeContent("a\nb\n");
    expect(encoded.total).toBe(2);
    expect(entries(encoded)).toEqual(["a", "b"]);
    expect(offsetsOf(encoded)).toEqual([0, 2, 4]);
  });

  it("counts blank lines, including one made of a lone newline", () => {
    expect(entries(encodeContent("\n"))).toEqual([""]);
    expect(entries(encodeContent("\n\n"))).toEqual(["", ""]);
  });

  it("stores an empty string as no lines", () => {
    const encoded = encodeContent("");
    expect(encoded.total).toBe(0);
    expect(encoded.content.length).toBe(0);
    expect(decodeOffsets(encoded.index)).toHaveLength(1);
  });

  it("keeps a carriage return as part of its line", () => {
    expect(entries(encodeContent("a\r\nb"))).toEqual(["a\r", "b"]);
  });

  it("stores other values as pretty-printed JSON text, read by line", () => {
    const encoded = encodeContent({ id: 7n, tags: ["x"] });
    expect(encoded.kind).toBe("text");
    expect(encoded.mimeType).toBe("application/json");
    expect(JSON.parse(encoded.content.toString())).toEqual({ id: "7", tags: ["x"] });
    expect(entries(encoded)).toEqual(["{", '  "id": "7",', '  "tags": [', '    "x"', "  ]", "}"]);
    expect(encodeContent(undefined).content.toString()).toBe("null");
    expect(encodeContent(42).content.toString()).toBe("42");
  });

  it("keeps a given MIME type for text", () => {
    expect(encodeContent("# Title", "text/markdown").mimeType).toBe("text/markdown");
  });
});

describe("encodeContent: bytes", () => {
  it("stores bytes as they are, without an index", () => {
    const encoded = encodeContent(new Uint8Array([0, 10, 255]));
    expect(encoded.kind).toBe("bytes");
    expect(encoded.mimeType).toBe("application/octet-stream");
    expect([...encoded.content]).toEqual([0, 10, 255]);
    expect(encoded.total).toBe(3);
    expect(encoded.index.length).toBe(0);
  });

  it("stores only the bytes of a view, not its whole backing buffer", () => {
    const backing = new Uint8Array([1, 2, 3, 4, 5, 6]);
    const encoded = encodeContent(backing.subarray(2, 5), "image/png");
    expect([...encoded.content]).toEqual([3, 4, 5]);
    expect(encoded.total).toBe(3);
    expect(encoded.mimeType).toBe("image/png");
  });

  it("treats a Buffer as bytes, not as text", () => {
    expect(encodeContent(Buffer.from("a\nb")).kind).toBe("bytes");
  });
});

describe("decodeOffsets", () => {
  it("reads offsets from bytes at any alignment", () => {
    const index = encodeContent(["a", "bb", "ccc"]).index;
    const unaligned = new Uint8Array(index.length + 3);
    unaligned.set(index, 3);
    expect([...decodeOffsets(unaligned.subarray(3))]).toEqual([...decodeOffsets(index)]);
  });

  it("copies, so later changes to the bytes read do not change the offsets", () => {
    const bytes = new Uint8Array(encodeContent(["a"]).index);
    const offsets = decodeOffsets(bytes);
    bytes.fill(0);
    expect([...offsets]).toEqual([2, 7]);
  });

  it("refuses a length that is not a whole number of entries", () => {
    expect(() => decodeOffsets(new Uint8Array(INDEX_ENTRY_BYTES + 1))).toThrow(RangeError);
  });
});
