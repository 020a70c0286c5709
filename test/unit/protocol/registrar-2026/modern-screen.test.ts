import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { DEFAULT_INPUT_LIMITS } from "../../../../src/app/app-options.js";
import { FrugalConfigError } from "../../../../src/errors/config-error.js";
import type { AppRuntime } from "../../../../src/protocol/app-runtime.js";
import { modernScreen } from "../../../../src/protocol/registrar-2026/modern-screen.js";

/** A runtime whose registry holds one tool per input schema, named as the key. */
const runtimeWith = (schemas: Record<string, object>) =>
  ({
    registry: {
      tools: new Map(
        Object.entries(schemas).map(([name, inputSchema]) => [
          name,
          { definition: { where: `Service.${name}`, listing: { inputSchema } } },
        ]),
      ),
    },
  }) as unknown as AppRuntime;
const region = { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } };
const request = (headers: Record<string, string> = {}) => ({ headers }) as unknown as IncomingMessage;
const call = (args: object, extra: object = {}) => ({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "weather", arguments: args, ...extra },
});

describe("modernScreen", () => {
  const screen = modernScreen(runtimeWith({ weather: region }), DEFAULT_INPUT_LIMITS);

  it("lets through a request whose headers agree with its body, or that has no params", () => {
    expect(screen(request({ "mcp-param-region": "eu" }), call({ region: "eu" }))).toBeUndefined();
    expect(screen(request(), { jsonrpc: "2.0", id: 1, method: "ping" })).toBeUndefined();
  });

  it("refuses params or an envelope that is no object, naming it", () => {
    expect(screen(request(), { jsonrpc: "2.0", id: 1, method: "ping", params: [1] })).toEqual({
      status: 400,
      code: -32602,
      message: "Invalid params: `params` must be an object, not an array",
    });
    expect(
      screen(request(), { jsonrpc: "2.0", id: 1, method: "ping", params: { _meta: "x" } })?.message,
    ).toContain("`params._meta` (the 2026-07-28 envelope) must be an object, not a string");
  });

  it("refuses a tools/call whose Mcp-Param header disagrees with its body (SEP-2243)", () => {
    const refusal = screen(request({ "mcp-param-region": "us" }), call({ region: "eu" }));
    expect(refusal).toMatchObject({
      status: 400,
      code: -32020,
      data: { mismatch: { header: "Mcp-Param-Region" } },
    });
  });

  it("refuses answers nested deeper than the input limits", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 40; i++) deep = { d: deep };
    const refusal = screen(
      request({ "mcp-param-region": "eu" }),
      call({ region: "eu" }, { inputResponses: { a: deep } }),
    );
    expect(refusal).toMatchObject({ status: 200, code: -32602 });
    expect(refusal?.message).toMatch(/^Invalid params: inputResponses: /);
  });

  it("fails at start-up on a tool with an invalid header declaration, naming the tool", () => {
    const bad = { type: "object", properties: { p: { type: "string", "x-mcp-header": "Bad Header" } } };
    expect(() => modernScreen(runtimeWith({ bad }), DEFAULT_INPUT_LIMITS)).toThrow(FrugalConfigError);
    expect(() => modernScreen(runtimeWith({ bad }), DEFAULT_INPUT_LIMITS)).toThrow(/Service\.bad/);
  });
});
