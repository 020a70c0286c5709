import { describe, expect, it } from "vitest";
import { AppMetrics } from "../../../../src/metrics/app-metrics.js";
import type { AppRuntime } from "../../../../src/protocol/app-runtime.js";
import type { RequestExtra } from "../../../../src/protocol/calls/call-context.js";
import { createOperationTable } from "../../../../src/protocol/operations/operation-table.js";
import { newSession } from "../../../../src/protocol/session.js";
import { catalogueOf } from "../../../support/unit-catalogue.js";

const echo = {
  definition: {
    kind: "tool",
    name: "echo",
    where: "Echo.run",
    listing: { name: "echo", inputSchema: { type: "object" } },
    capabilities: new Map(),
  },
  execute: async (invocation: { args: unknown }) => ({
    content: [{ type: "text", text: JSON.stringify(invocation.args) }],
  }),
};
const registry = {
  tools: new Map([["echo", echo]]),
  prompts: new Map(),
  staticResources: new Map(),
  templates: [],
};
const runtime = {
  registry,
  catalogue: catalogueOf(registry as never),
  listPageSize: 50,
  metrics: new AppMetrics(),
  logger: { debug() {}, info() {}, warn() {}, error() {} },
  principalOf: () => "",
  appInterceptors: [],
} as unknown as AppRuntime;

describe("createOperationTable", () => {
  const table = createOperationTable(runtime);

  it("holds one frozen handler per protocol method the app serves", () => {
    expect(Object.isFrozen(table)).toBe(true);
    expect(table.map((op) => op.method).sort()).toEqual(
      [
        "completion/complete",
        "logging/setLevel",
        "prompts/get",
        "prompts/list",
        "resources/list",
        "resources/read",
        "resources/subscribe",
        "resources/templates/list",
        "resources/unsubscribe",
        "tools/call",
        "tools/list",
      ].sort(),
    );
  });

  it("lists the registry's tools and runs them through the observed runner", async () => {
    const session = newSession(
      () => "s1",
      () => undefined,
    );
    const byMethod = (method: string) => table.find((op) => op.method === method);
    const list = byMethod("tools/list");
    expect(await list?.handle(session, { method: "tools/list" }, {} as RequestExtra)).toEqual({
      tools: [{ name: "echo", inputSchema: { type: "object" } }],
    });
    const call = byMethod("tools/call");
    const extra = { signal: new AbortController().signal, requestId: 1 } as unknown as RequestExtra;
    const request = call?.schema.parse({
      method: "tools/call",
      params: { name: "echo", arguments: { a: 1 } },
    });
    expect(await call?.handle(session, request as never, extra)).toEqual({
      content: [{ type: "text", text: '{"a":1}' }],
    });
    await expect.poll(() => runtime.metrics.operation("echo").calls).toBe(1);
  });
});
