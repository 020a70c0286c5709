import { describe, expect, it } from "vitest";
import { image, text } from "../../../src/results/content.js";
import { shapePromptResult } from "../../../src/results/shape-prompt-result.js";

describe("shapePromptResult", () => {
  it("makes a string one user message, with the prompt's description when it has one", () => {
    expect(shapePromptResult("Summarise this", "Summary prompt")).toEqual({
      description: "Summary prompt",
      messages: [{ role: "user", content: { type: "text", text: "Summarise this" } }],
    });
    expect("description" in shapePromptResult("x", undefined)).toBe(false);
  });

  it("turns an array of strings, blocks and messages into messages in order", () => {
    const png = image("aGk=", "image/png");
    const assistant = { role: "assistant", content: { type: "text", text: "ok" } };
    const { messages } = shapePromptResult(["first", png, assistant, text("last")], undefined);
    expect(messages).toEqual([
      { role: "user", content: { type: "text", text: "first" } },
      { role: "user", content: png },
      assistant,
      { role: "user", content: { type: "text", text: "last" } },
    ]);
  });

  it("passes a { messages } result through", () => {
    const result = { messages: [{ role: "user" as const, content: { type: "text" as const, text: "x" } }] };
    expect(shapePromptResult(result, "ignored")).toBe(result);
  });

  it("refuses anything else with a message that says what a prompt may return", () => {
    expect(() => shapePromptResult(42, undefined)).toThrow(
      /a prompt must return a string, content blocks, messages \(\{ role, content \}\) or \{ messages \}; got 42/,
    );
    expect(() => shapePromptResult([{ type: "text", text: "unbranded" }], undefined)).toThrow(/got \{"type"/);
  });
});
