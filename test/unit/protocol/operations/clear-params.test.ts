import { CallToolRequestSchema, SetLevelRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { ProtocolError } from "../../../../src/errors/protocol-errors.js";
import { clearParams } from "../../../../src/protocol/operations/clear-params.js";

/** The error a parse throws, or undefined when it parsed. */
function failureOf(parse: () => unknown): ProtocolError | undefined {
  try {
    parse();
    return undefined;
  } catch (error) {
    return error as ProtocolError;
  }
}

describe("clearParams", () => {
  const callTool = clearParams(CallToolRequestSchema);

  it("parses valid params as the SDK's schema does", () => {
    const request = { method: "tools/call", params: { name: "search", arguments: { q: "x" } } };
    expect(callTool.parse(request)).toEqual(CallToolRequestSchema.parse(request));
  });

  it("answers bad params with -32602 naming the method, the field and what was expected", () => {
    const missing = failureOf(() => callTool.parse({ method: "tools/call", params: {} }));
    expect(missing).toBeInstanceOf(ProtocolError);
    expect(missing?.code).toBe(-32602);
    expect(missing?.message).toContain("Invalid params for tools/call: `name` is missing (expected string)");
    const wrongType = failureOf(() => callTool.parse({ method: "tools/call", params: { name: 5 } }));
    expect(wrongType?.message).toContain("`name`: expected string, received number");
  });

  it("names every field that is wrong, and the params themselves when they are not an object", () => {
    const level = clearParams(SetLevelRequestSchema);
    expect(
      failureOf(() => level.parse({ method: "logging/setLevel", params: { level: "loud" } }))?.message,
    ).toMatch(/Invalid params for logging\/setLevel: `level`: /);
    expect(failureOf(() => callTool.parse({ method: "tools/call", params: "x" }))?.message).toMatch(
      /`params`: /,
    );
  });
});
