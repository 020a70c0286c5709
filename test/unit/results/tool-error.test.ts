import { describe, expect, it } from "vitest";
import { toolError } from "../../../src/results/tool-error.js";

describe("toolError", () => {
  it("is an isError result whose text is the message", () => {
    expect(toolError('Unknown site "x". Call list_sites to see them.')).toEqual({
      content: [{ type: "text", text: 'Unknown site "x". Call list_sites to see them.' }],
      isError: true,
    });
  });

  it("carries structured details only when given", () => {
    expect(toolError("no such site", { sites: ["blog"] }).structuredContent).toEqual({ sites: ["blog"] });
    expect("structuredContent" in toolError("no such site")).toBe(false);
  });
});
