import { describe, expect, it } from "vitest";
import {
  audio,
  embeddedResource,
  image,
  isContentBlock,
  resourceLink,
  text,
} from "../../../src/results/content.js";

const bytes = new Uint8Array([104, 105]); // "hi", base64 "aGk="

describe("content helpers", () => {
  it("build protocol blocks whose JSON carries no mark", () => {
    expect(JSON.parse(JSON.stringify(text("Summary")))).toEqual({ type: "text", text: "Summary" });
    expect(Object.keys(text("x"))).toEqual(["type", "text"]);
  });

  it("encode bytes as base64 and pass base64 strings through", () => {
    expect(image(bytes, "image/png")).toEqual({ type: "image", data: "aGk=", mimeType: "image/png" });
    expect(audio("UklGRg==", "audio/wav")).toEqual({
      type: "audio",
      data: "UklGRg==",
      mimeType: "audio/wav",
    });
  });

  it("encode only the viewed bytes of a subarray", () => {
    const view = new Uint8Array([0, 104, 105, 0]).subarray(1, 3);
    expect(image(view, "image/png").data).toBe("aGk=");
  });

  it("build resource links and embedded resources, text or bytes", () => {
    expect(resourceLink({ uri: "articles://blog/a", name: "A" })).toEqual({
      type: "resource_link",
      uri: "articles://blog/a",
      name: "A",
    });
    expect(embeddedResource({ uri: "test://doc", mimeType: "text/plain", text: "hello" }).resource).toEqual({
      uri: "test://doc",
      mimeType: "text/plain",
      text: "hello",
    });
    expect(embeddedResource({ uri: "test://bin", blob: bytes }).resource).toMatchObject({ blob: "aGk=" });
  });

  it("isContentBlock recognises the helpers' blocks only, not look-alikes", () => {
    expect(isContentBlock(text("x"))).toBe(true);
    expect(isContentBlock(resourceLink({ uri: "u://a", name: "a" }))).toBe(true);
    expect(isContentBlock({ type: "text", text: "x" })).toBe(false);
    expect(isContentBlock(null)).toBe(false);
    expect(isContentBlock("text")).toBe(false);
  });
});
