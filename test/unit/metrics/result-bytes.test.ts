import { describe, expect, it } from "vitest";
import { resultBytes } from "../../../src/metrics/result-bytes.js";

describe("resultBytes", () => {
  it("counts UTF-8 bytes of tool text, not structuredContent again", () => {
    const text = JSON.stringify({ name: "Zoë" });
    expect(resultBytes({ content: [{ type: "text", text }], structuredContent: { name: "Zoë" } })).toBe(
      Buffer.byteLength(text),
    );
  });

  it("counts base64 characters of images, audio and blobs", () => {
    expect(resultBytes({ content: [{ type: "image", data: "AAAA", mimeType: "image/png" }] })).toBe(4);
    expect(resultBytes({ contents: [{ uri: "f://a", blob: "QUJD" }] })).toBe(4);
    expect(resultBytes({ content: [{ type: "resource", resource: { uri: "f://a", text: "abc" } }] })).toBe(3);
  });

  it("counts resource contents and prompt messages", () => {
    expect(resultBytes({ contents: [{ uri: "n://1", text: "note 1" }] })).toBe(6);
    expect(
      resultBytes({
        messages: [
          { role: "user", content: { type: "text", text: "Hello" } },
          { role: "assistant", content: { type: "text", text: "é" } },
        ],
      }),
    ).toBe(7);
  });

  it("counts a resource link as its JSON", () => {
    const link = { type: "resource_link", uri: "ephemeral://t/abc", name: "t" };
    expect(resultBytes({ content: [link] })).toBe(JSON.stringify(link).length);
  });

  it("counts a byte chunk's base64, which only structuredContent carries, once", () => {
    const line = "3 bytes at offset 0 of 3; this is the last chunk";
    const chunk = { bytes: "AAECAwQFBgcICQoL", offset: 0, byteCount: 12, totalBytes: 12, hasMore: false };
    expect(resultBytes({ content: [{ type: "text", text: line }], structuredContent: chunk })).toBe(
      line.length + chunk.bytes.length,
    );
    // Answered as JSON text, the text carries the base64 already.
    const text = JSON.stringify(chunk);
    expect(resultBytes({ content: [{ type: "text", text }], structuredContent: chunk })).toBe(text.length);
    // Not a chunk: a `bytes` string without the chunk's numbers, or numbers of another type.
    for (const other of [{ bytes: "AAAAAAAA" }, { ...chunk, totalBytes: "12" }, { ...chunk, bytes: 12 }])
      expect(resultBytes({ content: [{ type: "text", text: "x" }], structuredContent: other })).toBe(1);
  });

  it("is 0 for anything that is not a result", () => {
    for (const value of [undefined, null, "text", 42, {}, { content: "x" }, { content: [null, 3] }])
      expect(resultBytes(value)).toBe(0);
  });
});
