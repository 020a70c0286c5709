import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { AppMetrics } from "../../../../src/metrics/app-metrics.js";
import type { AppRuntime } from "../../../../src/protocol/app-runtime.js";
import type { RequestExtra } from "../../../../src/protocol/calls/call-context.js";
import type { RunOperation } from "../../../../src/protocol/calls/run-operation.js";
import type { ProtocolOperation } from "../../../../src/protocol/operations/operation.js";
import { toolOperations } from "../../../../src/protocol/operations/tool-operations.js";
import { newSession } from "../../../../src/protocol/session.js";
import { catalogueOf } from "../../../support/unit-catalogue.js";

const toolNamed = (name: string) => ({
  definition: {
    kind: "tool",
    name,
    listing: { name, inputSchema: { type: "object" } },
    capabilities: new Map(),
  },
  execute: async () => undefined,
});
const registry = { tools: new Map(["a", "b", "search"].map((name) => [name, toolNamed(name)])) };
const runtime = {
  registry,
  catalogue: catalogueOf(registry as never),
  metrics: new AppMetrics(),
  listPageSize: 2,
} as unknown as AppRuntime;
/** The runner the app gives: here it answers what it was asked to run, as the pipeline's result. */
const run: RunOperation = async (_session, operation, args) => ({
  content: [
    { type: "text", text: `${(operation.definition as { name: string }).name}:${JSON.stringify(args)}` },
  ],
});
const [list, callTool] = toolOperations(runtime, run) as [ProtocolOperation, ProtocolOperation];
const session = newSession(
  () => "s",
  () => undefined,
);
const call = (op: ProtocolOperation, params: unknown) =>
  op.handle(session, op.schema.parse({ method: op.method, params }), {} as RequestExtra);

describe("tool operations", () => {
  it("lists tools in pages of the app's list size, with a cursor to the next", async () => {
    const first = (await call(list, {})) as { tools: Tool[]; nextCursor?: string };
    expect(first.tools.map((t) => t.name)).toEqual(["a", "b"]);
    const second = (await call(list, { cursor: first.nextCursor })) as { tools: Tool[]; nextCursor?: string };
    expect(second.tools.map((t) => t.name)).toEqual(["search"]);
    expect(second).not.toHaveProperty("nextCursor");
  });

  it("runs a known tool with its arguments (none: an empty object)", async () => {
    expect(await call(callTool, { name: "search", arguments: { q: "x" } })).toEqual({
      content: [{ type: "text", text: 'search:{"q":"x"}' }],
    });
    expect(await call(callTool, { name: "search" })).toEqual({
      content: [{ type: "text", text: "search:{}" }],
    });
  });

  it("refuses an unknown tool with -32602, pointing at tools/list", () => {
    expect(() => call(callTool, { name: "nope" })).toThrow(
      expect.objectContaining({
        code: -32602,
        message: expect.stringContaining('Unknown tool "nope". Call tools/list to see the available tools.'),
      }),
    );
  });
});
