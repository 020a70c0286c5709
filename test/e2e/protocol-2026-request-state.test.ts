/**
 * An answered 2026-07-28 request state completes once, across instances: two app instances
 * (A and B, the same `cursorSecret`) share a `RedisCache`, whose once-records hold what the
 * first submission of a state answered. The same principal re-sending the answered request
 * to either instance gets the first result without the handler running again; another
 * principal is refused; a state issued by A is answered on B. With the default in-memory
 * cache the same holds on one instance; an anonymous caller's state is single use.
 *
 *   npx vitest run test/e2e/protocol-2026-request-state.test.ts
 */
import {
  CACHE,
  LOGGER,
  type McpApp,
  McpFactory,
  McpModule,
  McpService,
  RedisCache,
  Tool,
  type ToolContext,
} from "frugal-mcp";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type Answer, authenticate, call2026, recordingLogger } from "../support/front-door.js";
import { textOf } from "../support/raw-2026.js";
import { deletePrefix, REDIS_URL, randomPrefix, redisAvailable } from "../support/services.js";

const available = await redisAvailable();
const prefix = randomPrefix("protocol-2026-request-state");
const SECRET = "a long enough shared test secret for request state";

/** Times each order was placed, over every instance of this process: the side effect a repeat must not run again. */
const placed = new Map<string, number>();

@McpService()
class OrdersService {
  @Tool({ description: "Places an order once its PIN is given", input: { order: z.string() } })
  async placeOrder({ order }: { order: string }, ctx: ToolContext) {
    const { content } = await ctx.elicit({
      message: "Your PIN?",
      requestedSchema: { type: "object", properties: { pin: { type: "string" } }, required: ["pin"] },
    });
    const times = (placed.get(order) ?? 0) + 1;
    placed.set(order, times);
    return `order ${order} placed with PIN ${String(content?.pin)} (time ${times})`;
  }
}

@McpModule({ services: [OrdersService] })
class OrdersModule {}

const apps: McpApp[] = [];
afterAll(async () => {
  await Promise.allSettled(apps.splice(0).map((app) => app.close()));
  if (available) await deletePrefix(prefix);
});

/** A 2026-07-28 app listening over HTTP with `listenOptions`; with `shared`, its cache is a `RedisCache` on this file's prefix. */
async function instance(shared: boolean, listenOptions: Record<string, unknown> = { authenticate }) {
  const app = await McpFactory.create(OrdersModule, {
    name: "orders",
    version: "1.0.0",
    protocol: "2026-07-28",
    cursorSecret: SECRET,
    providers: [
      { provide: LOGGER, useValue: recordingLogger().logger },
      // Each instance its own client of the one Redis, as separate processes would have.
      ...(shared ? [{ provide: CACHE, useValue: new RedisCache({ url: REDIS_URL, prefix }) }] : []),
    ],
  });
  apps.push(app);
  return (await app.listen({ transport: "http", port: 0, ...listenOptions })).url;
}

/**
 * The holder of `token` asks `url` to place `order`: the input-required round's state, and a
 * function re-sending the request with the answer `pin` (to any instance, as any token).
 */
async function asked(url: string, order: string, pin: string, token: string | undefined) {
  const first = await call2026(url, "place_order", { arguments: { order } }, token);
  expect(first.status, first.text).toBe(200);
  expect(first.body?.result?.resultType, first.text).toBe("input_required");
  const params = {
    arguments: { order },
    requestState: first.body.result.requestState as string,
    inputResponses: { "frugal.0": { action: "accept", content: { pin } } },
  };
  return (to: string, as: string | undefined) => call2026(to, "place_order", params, as);
}

/** Once-records of request states under this file's prefix, in the shared Redis. */
async function recordsInRedis(): Promise<number> {
  const client = new Redis(REDIS_URL);
  try {
    return (await client.keys(`${prefix}r:request-state:*`)).length;
  } finally {
    client.disconnect();
  }
}

const resultText = (answer: Answer) => (answer.body?.result ? textOf(answer.body.result) : answer.text);

/** Refused with -32602, and nothing of the first answer (the PIN) in the refusal. */
function expectRefused(answer: Answer, pin: string) {
  expect(answer.body?.error?.code, `not refused with -32602: ${answer.status} ${answer.text}`).toBe(-32602);
  expect(answer.body.error.message).toMatch(/requestState/);
  expect(answer.text, "the refusal shows the PIN").not.toContain(pin);
}

describe.skipIf(!available)(
  "two instances sharing a RedisCache: an answered request state completes once",
  () => {
    let a: string;
    let b: string;
    beforeAll(async () => {
      [a, b] = await Promise.all([instance(true), instance(true)]);
    });

    it("answers Alice's repeat on B with A's first result, the handler not run again; refuses Bob on B", async () => {
      const send = await asked(a, "o-across", "1234-ALICE", "good-alice");
      const first = await send(a, "good-alice");
      expect(resultText(first)).toBe("order o-across placed with PIN 1234-ALICE (time 1)");
      expect(placed.get("o-across")).toBe(1);
      expect(await recordsInRedis(), "no once-record under the shared prefix").toBeGreaterThan(0);

      const repeated = await send(b, "good-alice");
      expect(repeated.status, repeated.text).toBe(200);
      expect(repeated.body?.result, repeated.text).toEqual(first.body.result);
      expect(placed.get("o-across")).toBe(1);

      expectRefused(await send(b, "good-bob"), "1234-ALICE");
      expect(placed.get("o-across")).toBe(1);
      // Bob's attempt used nothing up: Alice's repeat still gets her first result, on either instance.
      expect(resultText(await send(b, "good-alice"))).toBe(resultText(first));
      expect(resultText(await send(a, "good-alice"))).toBe(resultText(first));
      expect(placed.get("o-across")).toBe(1);
    });

    it("answers on B a state issued by A, then Alice's repeat on A with B's first result", async () => {
      const send = await asked(a, "o-b-first", "5678-ALICE", "good-alice");
      const first = await send(b, "good-alice");
      expect(resultText(first)).toBe("order o-b-first placed with PIN 5678-ALICE (time 1)");
      expect(placed.get("o-b-first")).toBe(1);
      const repeated = await send(a, "good-alice");
      expect(repeated.body?.result, repeated.text).toEqual(first.body.result);
      expect(placed.get("o-b-first")).toBe(1);
    });

    it("runs the handler once when Alice sends the answered request to A and B at the same time", async () => {
      const send = await asked(a, "o-race", "9999-ALICE", "good-alice");
      const answers = await Promise.all([send(a, "good-alice"), send(b, "good-alice")]);
      expect(placed.get("o-race")).toBe(1);
      // The one that lost the race either waits for the first answer (same instance) or is told
      // to send again (another instance, still running); sent again, it gets the first result.
      for (const answer of answers) {
        if (answer.body?.error) expect(answer.body.error.code, answer.text).toBe(-32000);
        else expect(resultText(answer)).toBe("order o-race placed with PIN 9999-ALICE (time 1)");
      }
      expect(resultText(await send(b, "good-alice"))).toBe(
        "order o-race placed with PIN 9999-ALICE (time 1)",
      );
      expect(placed.get("o-race")).toBe(1);
    });
  },
);

describe("the default in-memory cache: an answered request state completes once on one instance", () => {
  // The records live in this process's memory: across instances, single completion needs a
  // cache that shares them (a RedisCache as the CACHE provider, as above).
  let url: string;
  beforeAll(async () => {
    url = await instance(false);
  });

  it("answers Alice's repeat on the same instance with the first result, the handler not run again", async () => {
    const send = await asked(url, "o-memory", "2468-ALICE", "good-alice");
    const first = await send(url, "good-alice");
    expect(resultText(first)).toBe("order o-memory placed with PIN 2468-ALICE (time 1)");
    const repeated = await send(url, "good-alice");
    expect(repeated.body?.result, repeated.text).toEqual(first.body.result);
    expect(placed.get("o-memory")).toBe(1);
  });
});

describe("an anonymous caller's request state (no principal): single use", () => {
  let url: string;
  beforeAll(async () => {
    url = await instance(false, { authenticate: () => undefined, allowAnonymous: true });
  });

  it("refuses the anonymous caller re-sending its own answered state with -32602, the handler not run again", async () => {
    const send = await asked(url, "o-anonymous", "1357-ANON", undefined);
    const first = await send(url, undefined);
    expect(resultText(first)).toBe("order o-anonymous placed with PIN 1357-ANON (time 1)");
    expectRefused(await send(url, undefined), "1357-ANON");
    expect(placed.get("o-anonymous")).toBe(1);
  });
});
