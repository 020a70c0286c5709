// Child process of test/e2e/contract-stdio.test.ts (plain JS on the compiled package, `npm run
// build` first): an app with `protocol: "2026-07-28"` on stdio, whose tools show ctx.callId and
// how many times a handler ran.
await import("reflect-metadata");
const { z } = await import("zod");
const { McpFactory, McpModule, McpService, Tool } = await import("frugal-mcp");

/** How many runs each callId had, and how many times each order was placed. */
const runs = new Map();
const placed = new Map();
const form = (field) => ({
  message: `Your ${field}?`,
  requestedSchema: { type: "object", properties: { [field]: { type: "string" } }, required: [field] },
});

class ProbeService {
  id(_input, ctx) {
    return ctx.callId;
  }
  async ask(_input, ctx) {
    runs.set(ctx.callId, (runs.get(ctx.callId) ?? 0) + 1);
    const answer = await ctx.elicit(form("colour"));
    return JSON.stringify({ callId: ctx.callId, runs: runs.get(ctx.callId), colour: answer.content?.colour });
  }
  async placeOrder({ order }, ctx) {
    const answer = await ctx.elicit(form("pin"));
    placed.set(order, (placed.get(order) ?? 0) + 1);
    return `order ${order} with ${answer.content?.pin} (run ${placed.get(order)})`;
  }
}
const decorate = (name, options) =>
  Tool(options)(ProbeService.prototype, name, Object.getOwnPropertyDescriptor(ProbeService.prototype, name));
decorate("id", { description: "Its call's id" });
decorate("ask", { description: "Asks a colour" });
decorate("placeOrder", {
  description: "Places an order once its PIN is given",
  input: { order: z.string() },
});
McpService()(ProbeService);
class ProbeModule {}
McpModule({ services: [ProbeService] })(ProbeModule);

const app = await McpFactory.create(ProbeModule, {
  name: "contract-stdio",
  version: "1.0.0",
  protocol: "2026-07-28",
  cursorSecret: "a long enough secret for the stdio probes",
});
await app.listen({ transport: "stdio" });
