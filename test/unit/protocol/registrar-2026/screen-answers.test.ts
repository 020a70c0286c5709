import { describe, expect, it } from "vitest";
import { answersProblem } from "../../../../src/protocol/registrar-2026/screen-answers.js";

const limits = { maxBytes: 200, maxElements: 20, maxDepth: 3 };
const message = (inputResponses: unknown) => ({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "t", inputResponses },
});

describe("answersProblem", () => {
  it("lets requests without answers, and answers within the limits, through", () => {
    expect(answersProblem({ jsonrpc: "2.0", id: 1, method: "tools/list" }, limits)).toBeUndefined();
    expect(answersProblem({ params: null }, limits)).toBeUndefined();
    expect(answersProblem(null, limits)).toBeUndefined();
    expect(
      answersProblem(message({ confirm: { action: "accept", content: { ok: true } } }), limits),
    ).toBeUndefined();
  });

  it("names the answers, not the arguments, when they pass a limit", () => {
    expect(answersProblem(message({ note: "x".repeat(500) }), limits)).toBe(
      "Invalid params: inputResponses: the answers are larger than 200 bytes (passed in the answer `note`); send less data per call",
    );
    expect(answersProblem(message({ a: { b: { c: { d: { e: 1 } } } } }), limits)).toBe(
      "Invalid params: inputResponses: the answer `a` is nested deeper than 3 levels",
    );
  });

  // measure-input's count message ("arguments hold more than …") is renamed too.
  it("names the answers when there are too many values in them", () => {
    const problem = answersProblem(message(Array.from({ length: 30 }, (_, i) => i)), limits);
    expect(problem).toMatch(/^Invalid params: inputResponses: the answers hold more than 20 values/);
  });
});
