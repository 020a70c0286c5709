import { describe, expect, it } from "vitest";
import { shapeResourceResult } from "../../../src/results/shape-resource-result.js";

const uri = "config://app";

describe("shapeResourceResult", () => {
  it("answers a string as text, plain unless the resource names a type", () => {
    expect(shapeResourceResult("hello", uri, undefined)).toEqual({
      contents: [{ uri, mimeType: "text/plain", text: "hello" }],
    });
    expect(shapeResourceResult("# Title", uri, "text/markdown").contents[0]).toMatchObject({
      mimeType: "text/markdown",
    });
  });

  it("answers bytes as a base64 blob of only the viewed bytes", () => {
    const view = new Uint8Array([0, 104, 105]).subarray(1);
    expect(shapeResourceResult(view, uri, undefined)).toEqual({
      contents: [{ uri, mimeType: "application/octet-stream", blob: "aGk=" }],
    });
  });

  it("passes a full ReadResourceResult through unchanged", () => {
    const result = { contents: [{ uri: "config://other", text: "x" }] };
    expect(shapeResourceResult(result, uri, undefined)).toBe(result);
  });

  it("answers anything else as JSON, including an object whose contents are not resource contents", () => {
    expect(shapeResourceResult({ a: 1, at: new Date(0) }, uri, undefined)).toEqual({
      contents: [{ uri, mimeType: "application/json", text: '{"a":1,"at":"1970-01-01T00:00:00.000Z"}' }],
    });
    expect(shapeResourceResult({ contents: ["a"] }, uri, undefined).contents[0]).toMatchObject({
      text: '{"contents":["a"]}',
    });
    expect(shapeResourceResult(undefined, uri, undefined).contents[0]).toMatchObject({ text: "null" });
  });
});
