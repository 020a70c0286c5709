/**
 * The contract's single completion of 2026-07-28 request state (DESIGN.md "Protocol versions"
 * and "Running on several instances"; README "An answered request completes once"), written
 * from its text alone: submitting the same answered state again never runs the handler again
 * and returns the first result; another caller's attempt never uses it up; with instances that
 * share state (a RedisCache, or a RedisSessionStore) this holds across instances.
 */

import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type Authenticate,
  CACHE,
  type McpApp,
  McpFactory,
  McpModule,
  McpService,
  type ProviderEntry,
  RedisCache,
  RedisSessionStore,
  SESSION_STORE,
  Tool,
  type ToolContext,
} from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { messagesOf } from "../support/raw-2026.js";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const SECRET = "a long enough secret shared by both instances of the probe";
const PRINCIPALS: Record<string, string> = { "Bearer t-alice": "alice", "Bearer t-bob": "bob" };
const authenticate: Authenticate = (req) => PRINCIPALS[req.headers.authorization ?? ""];

/** How many times each order was placed: the side effect a second completion would repeat. */
const placed = new Map<string, number>();

@McpService()
class OrderService {
  @Tool({ description: "Places an order once its PIN is given", input: { order: z.string() } })
  async placeOrder({ order }: { order: string }, ctx: ToolContext) {
    const { content } = await ctx.elicit({
      message: "Your PIN?",
      requestedSchema: { type: "object", properties: { pin: { type: "string" } }, required: ["pin"] },
    });
    const times = (placed.get(order) ?? 0) + 1;
    placed.set(order, times);
    return `order ${order} placed with PIN ${String(content?.pin)} (run ${times}, ${randomUUID()})`;
  }
}

function moduleWith(providers: () => ProviderEntry[]) {
  @McpModule({ services: [OrderService], providers: providers() })
  class OrderModule {}
  return OrderModule;
}

const apps: McpApp[] = [];
const servers: Server[] = [];
afterAll(async () => {
  await Promise.allSettled(apps.map((app) => app.close()));
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const MOUNTS = ["listen", "listen stateless", "httpHandler", "httpHandler stateless"] as const;

async function instance(
  providers: () => ProviderEntry[] = () => [],
  mount: (typeof MOUNTS)[number] = "listen",
): Promise<string> {
  const app = await McpFactory.create(moduleWith(providers), {
    name: "orders",
    version: "1.0.0",
    protocol: "2026-07-28",
    cursorSecret: SECRET,
  });
  apps.push(app);
  const options = { authenticate, allowAnonymous: true, stateless: mount.endsWith("stateless") };
  if (mount.startsWith("listen"))
    return (await app.listen({ transport: "http", port: 0, ...options })).url as string;
  const handler = app.httpHandler(options);
  const server = createServer((req, res) => void handler(req, res));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

interface Answer {
  status: number;
  result?: {
    resultType?: string;
    isError?: boolean;
    content?: Array<{ text?: string }>;
    [key: string]: unknown;
  };
  error?: { code: number; message: string };
}

/** One raw 2026-07-28 `tools/call` of place_order on `url` as the holder of `token` (none: anonymous). */
async function call(url: string, params: Record<string, unknown>, token?: string): Promise<Answer> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "place_order",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "place_order",
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1.0.0" },
          "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
        },
        ...params,
      },
    }),
  });
  const message = messagesOf(await response.text()).find((m) => "result" in m || "error" in m);
  return { status: response.status, ...message };
}

/** Asks (on `url`, as `token`) to place `order`; answers how to send the answered round anywhere. */
async function asked(url: string, order: string, token?: string) {
  const first = await call(url, { arguments: { order } }, token);
  expect(first.result?.resultType, JSON.stringify(first)).toBe("input_required");
  const [key] = Object.keys(first.result?.inputRequests as object);
  const params = {
    arguments: { order },
    requestState: first.result?.requestState,
    inputResponses: { [key as string]: { action: "accept", content: { pin: `PIN-${order}` } } },
  };
  return (to: string, as?: string, other?: Record<string, unknown>) =>
    call(to, other ? { ...params, arguments: other } : params, as);
}

const resultText = (answer: Answer) => answer.result?.content?.[0]?.text;
const refused = (answer: Answer) => answer.error !== undefined || answer.result?.isError === true;

describe.each(MOUNTS)("single completion of an answered 2026-07-28 request on one instance (%s)", (mount) => {
  let url: string;
  beforeAll(async () => {
    url = await instance(() => [], mount);
  });
  const order = (name: string) => `${mount.replace(/\W/g, "")}-${name}`;

  it("runs the handler once and returns the first result to a second submission", async () => {
    const send = await asked(url, order("one"), "t-alice");
    const first = await send(url, "t-alice");
    expect(resultText(first)).toContain(`order ${order("one")} placed with PIN PIN-${order("one")} (run 1, `);
    const again = await send(url, "t-alice");
    expect(resultText(again)).toBe(resultText(first));
    expect(placed.get(order("one"))).toBe(1);
  });

  it("runs the handler once when the same answered state is submitted twice at once", async () => {
    const send = await asked(url, order("twice-at-once"), "t-alice");
    const [a, b] = await Promise.all([send(url, "t-alice"), send(url, "t-alice")]);
    expect(placed.get(order("twice-at-once"))).toBe(1);
    expect(resultText(a)).toBeDefined();
    expect(resultText(b)).toBe(resultText(a));
  });

  it("refuses another caller, before and after, and never lets its attempt use the state up", async () => {
    const send = await asked(url, order("contested"), "t-alice");
    expect(refused(await send(url, "t-bob"))).toBe(true);
    expect(refused(await send(url))).toBe(true);
    expect(placed.get(order("contested"))).toBeUndefined();
    const first = await send(url, "t-alice");
    expect(resultText(first)).toMatch(/ placed .*\(run 1, /);
    const bob = await send(url, "t-bob");
    expect(refused(bob)).toBe(true);
    expect(JSON.stringify(bob)).not.toContain(`PIN-${order("contested")}`);
    expect(resultText(await send(url, "t-alice"))).toBe(resultText(first));
    expect(placed.get(order("contested"))).toBe(1);
  });

  it("refuses the state with other arguments, and that attempt does not use it up", async () => {
    const send = await asked(url, order("bound"), "t-alice");
    expect(refused(await send(url, "t-alice", { order: order("other") }))).toBe(true);
    expect(placed.get(order("other"))).toBeUndefined();
    expect(resultText(await send(url, "t-alice"))).toContain("(run 1, ");
    expect(placed.get(order("bound"))).toBe(1);
  });

  it("runs an anonymous caller's answered state once", async () => {
    const send = await asked(url, order("anonymous"));
    expect(resultText(await send(url))).toMatch(/ placed .*\(run 1, /);
    const again = await send(url);
    expect(placed.get(order("anonymous"))).toBe(1);
    expect(resultText(again) ?? "").not.toMatch(/\(run 2, /);
  });
});

const SHARING = [
  [
    "a RedisCache",
    (prefix: string) => [{ provide: CACHE, useValue: new RedisCache({ url: REDIS_URL, prefix }) }],
  ],
  [
    "a RedisSessionStore",
    (prefix: string) => [
      { provide: SESSION_STORE, useValue: new RedisSessionStore({ url: REDIS_URL, prefix }) },
    ],
  ],
] as const;

describe.each(SHARING)("single completion across two instances sharing %s", (label, shared) => {
  let a: string;
  let b: string;
  const tag = label.replace(/\W/g, "");
  beforeAll(async () => {
    const prefix = `probe-2026-state:${randomUUID()}:`;
    a = await instance(() => shared(prefix) as ProviderEntry[]);
    b = await instance(() => shared(prefix) as ProviderEntry[]);
  });

  it("returns the first result when the answered state is submitted again on the other instance", async () => {
    const order = `${tag}-moved`;
    const send = await asked(a, order, "t-alice");
    const first = await send(a, "t-alice");
    expect(resultText(first)).toMatch(/\(run 1, /);
    expect(resultText(await send(b, "t-alice"))).toBe(resultText(first));
    expect(placed.get(order)).toBe(1);
  });

  it("runs the handler once when both instances get the answered state at once", async () => {
    const order = `${tag}-both`;
    const send = await asked(a, order, "t-alice");
    const [x, y] = await Promise.all([send(a, "t-alice"), send(b, "t-alice")]);
    expect(placed.get(order)).toBe(1);
    expect(resultText(y)).toBe(resultText(x));
  });

  it("never lets another caller's attempt on the other instance use the state up", async () => {
    const order = `${tag}-contested`;
    const send = await asked(a, order, "t-alice");
    expect(refused(await send(b, "t-bob"))).toBe(true);
    const first = await send(a, "t-alice");
    expect(resultText(first)).toMatch(/\(run 1, /);
    expect(refused(await send(b, "t-bob"))).toBe(true);
    expect(resultText(await send(b, "t-alice"))).toBe(resultText(first));
    expect(placed.get(order)).toBe(1);
  });

  it("runs an anonymous caller's answered state once across instances", async () => {
    const order = `${tag}-anonymous`;
    const send = await asked(a, order);
    expect(resultText(await send(a))).toMatch(/\(run 1, /);
    const again = await send(b);
    expect(placed.get(order)).toBe(1);
    expect(resultText(again) ?? "").not.toMatch(/\(run 2, /);
  });
});
