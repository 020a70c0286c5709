/**
 * The HTTP front door as a hostile client meets it, on both registrars (the default SDK 1.x
 * one and `protocol: "2026-07-28"`) and every way of serving (listen, stateless, a mounted
 * httpHandler). Who may come in: 401 on 2026-07-28 requests as on 2025 ones, before the
 * body is read; the request state of an input-required round bound to its principal, used
 * once and unreadable; an answer nested too deep refused by name. What holding the door
 * costs: the connection cap and slow-request timeouts of `app.listen`, a client gone
 * mid-body (no error logged, the next request served), an empty batch and a body that is
 * not JSON answered as JSON-RPC says. Over a stdio-like connection of the 2026-07-28 app, a
 * 2025 client's `resources/subscribe` is honoured.
 *
 *   npx vitest run --config vitest.reliability.config.ts test/reliability/front-door.test.ts
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { InMemoryTransport } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { LOGGER, type McpApp, McpFactory, McpModule, McpService, Tool, type ToolContext } from "frugal-mcp";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { McpApp2026 } from "../../src/app/app-2026.js";
import {
  type Answer,
  authenticate,
  body2026,
  call2026,
  closedOnServer,
  type Heard,
  headers2026,
  hear,
  INITIALIZE,
  JSON_HEADERS,
  nestedJson,
  openSocket,
  postRaw,
  recordingLogger,
  requestArrived,
  requestHead,
} from "../support/front-door.js";
import { Era2026Module } from "../support/protocol-2026-services.js";
import { textOf } from "../support/raw-2026.js";

/** Times each order was placed: the side effect a replayed answer must not repeat. */
const placed = new Map<string, number>();

const form = (field: string, message: string) => ({
  message,
  requestedSchema: {
    type: "object" as const,
    properties: { [field]: { type: "string" as const } },
    required: [field],
  },
});

@McpService()
class DoorService {
  @Tool({ description: "Answers pong" })
  pong() {
    return "pong";
  }

  @Tool({ description: "Who is calling" })
  whoami(_input: unknown, ctx: ToolContext) {
    return `${ctx.owner} ${ctx.auth?.clientId ?? "-"}`;
  }

  @Tool({ description: "Places an order once its PIN is given", input: { order: z.string() } })
  async placeOrder({ order }: { order: string }, ctx: ToolContext) {
    const { content } = await ctx.elicit(form("pin", "Your PIN?"));
    const times = (placed.get(order) ?? 0) + 1;
    placed.set(order, times);
    return `order ${order} placed with PIN ${String(content?.pin)} (time ${times})`;
  }

  @Tool({
    description: "Asks for the PIN, then for a confirmation, then places",
    input: { order: z.string() },
  })
  async confirmOrder({ order }: { order: string }, ctx: ToolContext) {
    const pin = await ctx.elicit(form("pin", "Your PIN?"));
    const confirmed = await ctx.elicit(form("confirm", "Really?"));
    placed.set(order, (placed.get(order) ?? 0) + 1);
    return `order ${order}: ${String(pin.content?.pin).length}-digit PIN, ${String(confirmed.content?.confirm)}`;
  }
}

@McpModule({ services: [DoorService] })
class DoorModule {}

/** Longest a refusal that needs no body may take (generous; reading a body never sent takes forever). */
const PROMPT_MS = 2_000;
const REGISTRARS = [
  ["default (SDK 1.x)", false],
  ["2026-07-28", true],
] as const;
const MOUNTS = ["listen", "listen, stateless", "httpHandler in http.createServer"] as const;

/** Apps of a describe block (closed after all), apps of one test (closed after it). */
const apps: McpApp[] = [];
const testApps: McpApp[] = [];
const servers: Server[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.allSettled(testApps.splice(0).map((app) => app.close()));
});
afterAll(async () => {
  await Promise.allSettled(apps.splice(0).map((app) => app.close()));
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function createApp(modern: boolean) {
  const app = await McpFactory.create(DoorModule, {
    name: "door",
    version: "1.0.0",
    cursorSecret: "a long enough test secret for request state",
    providers: [{ provide: LOGGER, useValue: recordingLogger().logger }],
    ...(modern ? { protocol: "2026-07-28" as const } : {}),
  });
  apps.push(app);
  return app;
}

/** Serves `app` with `options` the way `mount` says; answers its MCP endpoint's URL. */
async function serve(app: McpApp, mount: (typeof MOUNTS)[number], options: Record<string, unknown>) {
  if (mount !== "httpHandler in http.createServer") {
    const stateless = mount === "listen, stateless" ? { stateless: true } : {};
    return (await app.listen({ transport: "http", port: 0, ...options, ...stateless })).url;
  }
  const handler = app.httpHandler(options);
  // As listen does: a handler that throws is answered 500 (the test reads what the client gets).
  const server = createServer((req, res) => {
    handler(req, res).catch(() => res.headersSent || res.writeHead(500).end());
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

describe.each(REGISTRARS)("authentication at the front door of the %s registrar", (_label, modern) => {
  describe.each(MOUNTS)("served by %s", (mount) => {
    let url: string;
    beforeAll(async () => {
      url = await serve(await createApp(modern), mount, { authenticate });
    });

    it("answers a 2026-07-28 request without a token 401, with WWW-Authenticate", async () => {
      const answer = await call2026(url, "whoami");
      expect(answer.status, answer.text).toBe(401);
      expect(answer.headers.get("www-authenticate")).toMatch(/^Bearer /);
      expect(answer.text).not.toContain("principal:");
    });

    it('answers a 2026-07-28 request with a forged token 401, error="invalid_token"', async () => {
      const answer = await call2026(url, "whoami", {}, "forged-alice");
      expect(answer.status, answer.text).toBe(401);
      expect(answer.headers.get("www-authenticate")).toContain('error="invalid_token"');
    });

    it("answers a 2025 initialize without a token 401", async () => {
      const answer = await postRaw(url, INITIALIZE, JSON_HEADERS);
      expect(answer.status, answer.text).toBe(401);
      expect(answer.headers.get("www-authenticate")).toMatch(/^Bearer /);
    });

    it.each([
      ["a 2026-07-28 request", headers2026("tools/call", "whoami")],
      ["a request whose era only its body tells", JSON_HEADERS],
    ])(
      "answers %s without a token 401 before reading its body (1 MB announced, none sent)",
      async (_kind, headers) => {
        const started = performance.now();
        const socket = await openSocket(url, sockets);
        socket.write(requestHead(url, headers, 1024 * 1024));
        const heard = await hear(socket, { boundMs: PROMPT_MS, untilHeaders: true, since: started });
        expect(heard.text, `no answer within ${PROMPT_MS} ms (closed: ${heard.closed})`).toMatch(
          /^HTTP\/1\.1 401 /,
        );
        expect(heard.text).toMatch(/\r\nwww-authenticate: Bearer /i);
      },
    );

    it.runIf(modern)("serves a 2026-07-28 request with a valid token as its principal", async () => {
      const alice = await call2026(url, "whoami", {}, "good-alice");
      expect(alice.status, alice.text).toBe(200);
      expect(textOf(alice.body?.result)).toBe("principal:alice alice");
      const bob = await call2026(url, "whoami", {}, "good-bob");
      expect(textOf(bob.body?.result)).toBe("principal:bob bob");
    });
  });
});

describe("the request state of a 2026-07-28 input-required round", () => {
  let url: string;
  beforeAll(async () => {
    url = await serve(await createApp(true), "listen", { authenticate, allowAnonymous: true });
  });

  /** Alice asks to place `order`: the state of her input-required round, and her answer to send with it. */
  async function aliceIsAsked(order: string, pin: string) {
    const first = await call2026(url, "place_order", { arguments: { order } }, "good-alice");
    expect(first.body?.result?.resultType, first.text).toBe("input_required");
    const params = {
      arguments: { order },
      requestState: first.body.result.requestState as string,
      inputResponses: { "frugal.0": { action: "accept", content: { pin } } },
    };
    return (token?: string) => call2026(url, "place_order", params, token);
  }

  const resultText = (answer: Answer) => (answer.body?.result ? textOf(answer.body.result) : answer.text);

  /** Refused: a JSON-RPC error or an isError result, and nothing of Alice's answer in it. */
  function expectRefused(answer: Answer, pin: string) {
    const refused = answer.body?.error !== undefined || answer.body?.result?.isError === true;
    expect(refused, `not refused: ${answer.status} ${answer.text}`).toBe(true);
    expect(answer.text, "the answer shows Alice's PIN").not.toContain(pin);
  }

  it("answers Alice's answered round with the result, once", async () => {
    const send = await aliceIsAsked("o-plain", "1000-ALICE");
    const done = await send("good-alice");
    expect(resultText(done)).toBe("order o-plain placed with PIN 1000-ALICE (time 1)");
    expect(placed.get("o-plain")).toBe(1);
  });

  it("refuses Bob re-sending Alice's request state and answers", async () => {
    const send = await aliceIsAsked("o-bob", "1111-ALICE");
    expect(resultText(await send("good-alice"))).toContain("(time 1)");
    expectRefused(await send("good-bob"), "1111-ALICE");
    expect(placed.get("o-bob")).toBe(1);
  });

  it("refuses an anonymous caller re-sending Alice's request state and answers", async () => {
    const send = await aliceIsAsked("o-anonymous", "2222-ALICE");
    expect(resultText(await send("good-alice"))).toContain("(time 1)");
    expectRefused(await send(undefined), "2222-ALICE");
    expect(placed.get("o-anonymous")).toBe(1);
  });

  it("answers Alice re-sending her answered round 5 times with the first result, the side effect run once", async () => {
    const send = await aliceIsAsked("o-again", "3333-ALICE");
    const first = resultText(await send("good-alice"));
    expect(first).toBe("order o-again placed with PIN 3333-ALICE (time 1)");
    for (let i = 0; i < 5; i++) expect(resultText(await send("good-alice")), `re-send ${i + 1}`).toBe(first);
    expect(placed.get("o-again")).toBe(1);
  });

  it("still serves Alice's first submission after Bob's refused attempt (the binding is checked before use)", async () => {
    const send = await aliceIsAsked("o-bob-first", "4444-ALICE");
    expectRefused(await send("good-bob"), "4444-ALICE");
    expect(placed.get("o-bob-first")).toBeUndefined();
    expect(resultText(await send("good-alice"))).toBe(
      "order o-bob-first placed with PIN 4444-ALICE (time 1)",
    );
    expect(placed.get("o-bob-first")).toBe(1);
  });

  it("issues a request state after an answer that does not hold the answer readably", async () => {
    const first = await call2026(url, "confirm_order", { arguments: { order: "o-pin" } }, "good-alice");
    expect(first.body?.result?.resultType, first.text).toBe("input_required");
    const second = await call2026(
      url,
      "confirm_order",
      {
        arguments: { order: "o-pin" },
        requestState: first.body.result.requestState,
        inputResponses: { "frugal.0": { action: "accept", content: { pin: "4921-SECRET" } } },
      },
      "good-alice",
    );
    expect(second.body?.result?.resultType, second.text).toBe("input_required");
    const state = second.body.result.requestState as string;
    expect(state).not.toContain("4921-SECRET");
    expect(
      Buffer.from(state, "base64url").toString("latin1"),
      "the PIN is readable in the state",
    ).not.toContain("4921-SECRET");
    expect(placed.get("o-pin")).toBeUndefined();
  });

  it("refuses an answer nested 5,000 levels deep with -32602 naming the depth, without running the handler on it", async () => {
    const body = body2026("tools/call", {
      name: "place_order",
      arguments: { order: "o-deep" },
      inputResponses: "DEEP",
    }).replace(
      '"DEEP"',
      `{"frugal.0":{"action":"accept","content":{"pin":"5555","extra":${nestedJson(5_000)}}}}`,
    );
    const answer = await postRaw(url, body, headers2026("tools/call", "place_order", "good-alice"));
    expect(answer.text).not.toMatch(/Maximum call stack/i);
    expect(answer.status).toBeLessThan(500);
    expect(answer.body?.error?.code, answer.text.slice(0, 500)).toBe(-32602);
    expect(answer.body.error.message).toMatch(/nest|depth/i);
    expect(placed.get("o-deep")).toBeUndefined();
  });
});

/** The two doors a request can come in by: a 2026-07-28 one, and one whose era only its body tells. */
const KINDS = [
  [
    "a 2026-07-28 call",
    headers2026("tools/call", "pong"),
    body2026("tools/call", { name: "pong", arguments: {} }),
  ],
  ["a 2025 initialize", JSON_HEADERS, INITIALIZE],
] as const;

/** An app of the registrar `modern` says, listening with `options`; its URL and what it logged. */
async function listening(modern: boolean, options: Record<string, unknown> = {}) {
  const recording = recordingLogger();
  const app = await McpFactory.create(DoorModule, {
    name: "door",
    version: "1.0.0",
    providers: [{ provide: LOGGER, useValue: recording.logger }],
    ...(modern ? { protocol: "2026-07-28" as const } : {}),
  });
  testApps.push(app);
  const { url } = await app.listen({ transport: "http", port: 0, ...options });
  return { url, recording };
}

/** Cut off: answered 408, or closed without a word, by the bound `hear` was given. */
function expectCutOff(heard: Heard, boundMs: number) {
  const answered408 = /^HTTP\/1\.1 408 /.test(heard.text);
  expect(
    answered408 || (heard.closed && heard.text === ""),
    `neither 408 nor closed within ${boundMs} ms (closed: ${heard.closed}): ${JSON.stringify(heard.text.slice(0, 120))}`,
  ).toBe(true);
}

describe.each(REGISTRARS)("the limits of app.listen on the %s registrar", (_label, modern) => {
  it("answers the connection beyond maxConnections: 5 with 503, or closes it at once", async () => {
    const { url } = await listening(modern, { maxConnections: 5 });
    for (let i = 0; i < 5; i++) await openSocket(url, sockets);
    const started = performance.now();
    const extra = await openSocket(url, sockets);
    extra.write(requestHead(url, JSON_HEADERS, Buffer.byteLength(INITIALIZE)) + INITIALIZE);
    const heard = await hear(extra, { boundMs: PROMPT_MS, untilHeaders: true, since: started });
    expect(
      /^HTTP\/1\.1 503 /.test(heard.text) || (heard.closed && heard.text === ""),
      `the 6th connection was served: ${JSON.stringify(heard.text.slice(0, 120))}`,
    ).toBe(true);
  });

  it("cuts off a client trickling its headers past headersTimeoutMs: 500 (408 or closed)", async () => {
    const { url } = await listening(modern, { headersTimeoutMs: 500 });
    const bound = 1.5 * 500 + 1_000;
    const started = performance.now();
    const socket = await openSocket(url, sockets);
    socket.write(`POST ${new URL(url).pathname} HTTP/1.1\r\nHost: ${new URL(url).host}\r\nX-Slow: `);
    // One more header byte every 100 ms, never the blank line that ends the headers.
    const trickle = setInterval(() => socket.writable && socket.write("x"), 100);
    const heard = await hear(socket, { boundMs: bound, untilHeaders: true, since: started });
    clearInterval(trickle);
    expectCutOff(heard, bound);
  });

  it.each([
    ["a body trickled under its Content-Length", 100_000, " "],
    ["a chunked body that never ends", "chunked", "1\r\n \r\n"],
  ] as const)("cuts off %s past requestTimeoutMs: 1000 (408 or closed)", async (_kind, length, piece) => {
    const { url } = await listening(modern, { requestTimeoutMs: 1_000 });
    const bound = 2_500;
    const started = performance.now();
    const socket = await openSocket(url, sockets);
    socket.write(requestHead(url, headers2026("tools/call", "pong"), length));
    const trickle = setInterval(() => socket.writable && socket.write(piece), 50);
    const heard = await hear(socket, { boundMs: bound, untilHeaders: true, since: started });
    clearInterval(trickle);
    expectCutOff(heard, bound);
  });

  it.each(KINDS)(
    "logs no error or stack when a client sends half of %s and goes away, then serves the next",
    async (_kind, headers, body) => {
      const { url, recording } = await listening(modern);
      const stderr = vi.spyOn(process.stderr, "write");
      try {
        const socket = await openSocket(url, sockets);
        socket.write(requestHead(url, headers, Buffer.byteLength(body)) + body.slice(0, body.length >> 1));
        await requestArrived(socket);
        socket.destroy();
        await closedOnServer(socket);
        await new Promise((resolve) => setImmediate(resolve));
        const next = await postRaw(url, INITIALIZE, JSON_HEADERS);
        expect(next.status, next.text).toBe(200);
        expect(next.body?.result?.serverInfo?.name).toBe("door");
      } finally {
        stderr.mockRestore();
      }
      expect(recording.problems()).toEqual([]);
      expect(stderr.mock.calls.map(([chunk]) => String(chunk)).join("")).not.toMatch(/\n\s+at /);
    },
  );
});

describe.each(REGISTRARS)("the JSON-RPC envelope at the front door of the %s registrar", (_label, modern) => {
  it.each(KINDS)("answers an empty batch [] 400 with -32600 (headers of %s)", async (_kind, headers) => {
    const { url } = await listening(modern);
    const answer = await postRaw(url, "[]", headers);
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body?.error?.code, answer.text).toBe(-32600);
  });

  it.each(KINDS)(
    "answers a body that is not JSON with -32700 saying so (headers of %s)",
    async (_kind, headers) => {
      const { url } = await listening(modern);
      const answer = await postRaw(url, '{"jsonrpc": "2.0", "id": 1, "method": ', headers);
      expect(answer.status, answer.text).toBeGreaterThanOrEqual(400);
      expect(answer.status, answer.text).toBeLessThan(500);
      expect(answer.body?.error?.code, answer.text).toBe(-32700);
      expect(answer.body.error.message).toMatch(/not valid JSON/i);
    },
  );

  const malformed: Array<[string, string, RegExp]> = [
    [
      "a wrong jsonrpc version",
      '{"jsonrpc":"1.0","id":1,"method":"tools/list"}',
      /`jsonrpc` must be "2\.0", not "1\.0"/,
    ],
    [
      "a method that is a number",
      '{"jsonrpc":"2.0","id":1,"method":5}',
      /`method` must be a string, not a number/,
    ],
    [
      "an id that is an object",
      '{"jsonrpc":"2.0","id":{},"method":"ping"}',
      /`id` must be a string or a number/,
    ],
    [
      "a batch holding a string",
      '[{"jsonrpc":"2.0","id":1,"method":"ping"},"x"]',
      /message 1 of the batch must be a JSON-RPC message/,
    ],
  ];
  it.each(KINDS)(
    "answers malformed envelopes 400 with -32600 naming the field (headers of %s)",
    async (_kind, headers) => {
      const { url } = await listening(modern);
      for (const [what, body, named] of malformed) {
        const answer = await postRaw(url, body, headers);
        expect(answer.status, `${what}: ${answer.text}`).toBe(400);
        expect(answer.body?.error?.code, `${what}: ${answer.text}`).toBe(-32600);
        expect(answer.body.error.message, what).toMatch(named);
      }
    },
  );
});

describe("the 2026-07-28 envelope at the front door", () => {
  it("answers a _meta that is no object -32602 naming params._meta", async () => {
    const { url } = await listening(true);
    const body = '{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"_meta":"nope"}}';
    const answer = await postRaw(url, body, headers2026("tools/list"));
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body?.error?.code).toBe(-32602);
    expect(answer.body.error.message).toContain("`params._meta` (the 2026-07-28 envelope) must be an object");
    expect(answer.body.id).toBe(7);
  });
});

describe("a 2025 client's resources/subscribe over a stdio-like connection of the 2026-07-28 app", () => {
  /** A 2026 app serving an SDK 1.x client as `listen({ transport: "stdio" })` would (`connectAnyEra`). */
  async function subscribed(uri: string) {
    const app = (await McpFactory.create(Era2026Module, {
      name: "stdio-subscribe",
      version: "1.0.0",
      protocol: "2026-07-28",
      providers: [{ provide: LOGGER, useValue: recordingLogger().logger }],
    })) as McpApp2026;
    testApps.push(app);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await app.connectAnyEra(serverSide);
    const client = new ClientV1({ name: "v1-client", version: "1.0.0" });
    const updated: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (notification) => {
      updated.push(notification.params.uri);
    });
    await client.connect(clientSide as never);
    await client.subscribeResource({ uri });
    await client.readResource({ uri });
    return { app, client, updated };
  }

  it("delivers notifications/resources/updated when a tool's invalidation changes the resource", async () => {
    const { client, updated } = await subscribed("config://app");
    await client.callTool({ name: "set_theme", arguments: { theme: "light" } });
    await vi.waitFor(() => expect(updated).toContain("config://app"), { timeout: PROMPT_MS, interval: 20 });
    await client.close();
  });

  it("delivers notifications/resources/updated for app.notifyResourceUpdated(uri)", async () => {
    const { app, client, updated } = await subscribed("sites://alpha");
    await app.notifyResourceUpdated("sites://alpha");
    await vi.waitFor(() => expect(updated).toEqual(["sites://alpha"]), { timeout: PROMPT_MS, interval: 20 });
    await client.close();
  });
});
