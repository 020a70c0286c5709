/**
 * Issue 13, finding 8: `app.close()` under load. Calls that arrive while it drains get an
 * error at once (their handlers never start), over HTTP and in memory; calls still
 * running at the drain deadline get an error answer and an aborted `ctx.signal`; no
 * handler that honours its signal runs after `close()` resolves, and one that does not is
 * named in a warning; a new session during the drain gets 503 with a JSON-RPC error,
 * never a 500. Loopback only; every test bounded well under 15 s.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import {
  LOGGER,
  type Logger,
  type McpApp,
  McpFactory,
  McpModule,
  McpService,
  Tool,
  type ToolContext,
} from "frugal-mcp";
import { createTestClient } from "frugal-mcp/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { type Deferred, deferred } from "../support/gates.js";

// ---------------------------------------------------------------------------------------------
// The module under test
// ---------------------------------------------------------------------------------------------

/** What the handlers did, reset before each test. */
let seen: {
  /** The app under test, so a handler can tell whether it started during the drain. */
  app: McpApp | undefined;
  /** Handlers that started while the app was draining (must stay 0). */
  startedWhileDraining: string[];
  /** Runs of `record`. */
  records: number;
  /** Side effects of `tick`, one per loop turn. */
  writes: number;
  /** Handlers running now. */
  running: number;
  /** Calls whose ctx.signal fired, with whether close() had already resolved then. */
  aborted: Array<{ tool: string; afterClose: boolean }>;
  closeResolved: boolean;
  holdStarted: Deferred;
  release: Deferred;
};

function resetSeen() {
  seen = {
    app: undefined,
    startedWhileDraining: [],
    records: 0,
    writes: 0,
    running: 0,
    aborted: [],
    closeResolved: false,
    holdStarted: deferred(),
    release: deferred(),
  };
}
resetSeen();

/** Resolves when `signal` aborts. */
const abortOf = (signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });

/** Real time is the work being simulated here (a call that takes `ms`), never an ordering. */
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });

/** Runs a handler body, counting it as running and noting a start during the drain. */
async function running<T>(tool: string, ctx: ToolContext, body: () => Promise<T>): Promise<T> {
  if (seen.app?.draining) seen.startedWhileDraining.push(tool);
  seen.running++;
  ctx.signal.addEventListener(
    "abort",
    () => {
      seen.aborted.push({ tool, afterClose: seen.closeResolved });
    },
    { once: true },
  );
  try {
    return await body();
  } finally {
    seen.running--;
  }
}

@McpService()
class Drainee {
  @Tool({ description: "Count a run" })
  record(_input: unknown, ctx: ToolContext) {
    return running("record", ctx, async () => {
      seen.records++;
      return { records: seen.records };
    });
  }

  @Tool({ description: "Work for ms milliseconds", input: { ms: z.number().int().min(0).max(1000) } })
  work({ ms }: { ms: number }, ctx: ToolContext) {
    return running("work", ctx, async () => {
      await sleep(ms, ctx.signal);
      return { ms };
    });
  }

  @Tool({ description: "Write a side effect every few ms until aborted" })
  tick(_input: unknown, ctx: ToolContext) {
    return running("tick", ctx, async () => {
      while (!ctx.signal.aborted) {
        seen.writes++;
        await sleep(3, ctx.signal);
      }
      return { writes: seen.writes };
    });
  }

  @Tool({ description: "Hold until released or aborted" })
  hold(_input: unknown, ctx: ToolContext) {
    return running("hold", ctx, async () => {
      seen.holdStarted.resolve();
      await Promise.race([seen.release.promise, abortOf(ctx.signal)]);
      return { released: !ctx.signal.aborted };
    });
  }

  @Tool({ description: "Ignore ctx.signal and wait for the release" })
  stubborn(_input: unknown, ctx: ToolContext) {
    return running("stubborn", ctx, async () => {
      seen.holdStarted.resolve();
      await seen.release.promise;
      return { done: true };
    });
  }
}

@McpModule({ services: [Drainee] })
class DrainModule {}

function recordingLogger() {
  const errors: string[] = [];
  const warnings: string[] = [];
  const logger: Logger = {
    debug() {},
    info() {},
    warn(message) {
      warnings.push(message);
    },
    error(message, details) {
      errors.push(`${message} ${details instanceof Error ? details.stack : String(details ?? "")}`);
    },
  };
  return { logger, errors, warnings };
}

const clients: Client[] = [];
const apps: McpApp[] = [];

beforeEach(() => {
  resetSeen();
});

afterEach(async () => {
  seen.release.resolve();
  await Promise.allSettled(clients.splice(0).map((c) => c.close()));
  await Promise.allSettled(apps.splice(0).map((a) => a.close()));
});

async function createApp(drainTimeoutMs: number) {
  const { logger, errors, warnings } = recordingLogger();
  const app = await McpFactory.create(DrainModule, {
    name: "drain",
    version: "1",
    drainTimeoutMs,
    providers: [{ provide: LOGGER, useValue: logger }],
  });
  seen.app = app;
  apps.push(app);
  const { url } = await app.listen({ transport: "http", port: 0 });
  return { app, url, errors, warnings };
}

/** An SDK client over Streamable HTTP that records every HTTP status it receives. */
async function connect(url: string, statuses: number[] = []) {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    fetch: async (input, init) => {
      const res = await fetch(input, init);
      statuses.push(res.status);
      return res;
    },
  });
  const client = new Client({ name: "drain-test", version: "1" });
  await client.connect(transport);
  clients.push(client);
  return client;
}

/** Closes the app and notes when `close()` resolved, for the handlers' records. */
function closeApp(app: McpApp): Promise<void> {
  return app.close().then(() => {
    seen.closeResolved = true;
  });
}

/**
 * A call's outcome: "ok", "shutdown" for the server's -32000 "Server is shutting down"
 * answer (the SDK's own "Connection closed" is -32000 too, and does not count), or what
 * else the client got.
 */
async function outcomeOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
    return "ok";
  } catch (error) {
    if (error instanceof McpError && error.code === -32000 && /Server is shutting down/.test(error.message))
      return "shutdown";
    return error instanceof McpError ? `${error.code} ${error.message}` : String(error);
  }
}

/** Bounds a call, so a lost answer fails the test fast (the SDK's own default is 60 s). */
const BOUNDED = { timeout: 4000 };

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

describe("app.close() while calls arrive", () => {
  it("over HTTP, answers a call that arrives during the drain with -32000 at once, without running it", async () => {
    const { app, url, errors } = await createApp(5000);
    const holder = await connect(url);
    const other = await connect(url);
    const held = holder.callTool({ name: "hold", arguments: {} }, undefined, BOUNDED);
    await seen.holdStarted.promise;

    const closing = closeApp(app);
    const started = Date.now();
    const late = await other.callTool({ name: "record", arguments: {} }, undefined, BOUNDED).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(late).toBeInstanceOf(McpError);
    expect((late as McpError).code).toBe(-32000);
    expect((late as McpError).message).toMatch(/Server is shutting down/);
    // At once: long before the drain deadline (5 s) or the held call ends.
    expect(Date.now() - started).toBeLessThan(1000);
    expect(seen.records).toBe(0);

    // The call that was running before close() is drained normally.
    seen.release.resolve();
    expect(await held).toMatchObject({ structuredContent: { released: true } });
    await closing;
    expect(seen.startedWhileDraining).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("in memory (createTestClient), answers a call that arrives during the drain with -32000 at once", async () => {
    const t = await createTestClient(DrainModule, { drainTimeoutMs: 5000 });
    seen.app = t.app;
    const other = await t.connect();
    const held = t.client.callTool({ name: "hold", arguments: {} }, undefined, BOUNDED);
    await seen.holdStarted.promise;

    const closing = closeApp(t.app);
    const late = await outcomeOf(other.callTool({ name: "record", arguments: {} }, undefined, BOUNDED));
    expect(late).toBe("shutdown");
    expect(seen.records).toBe(0);
    seen.release.resolve();
    expect(await held).toMatchObject({ structuredContent: { released: true } });
    await closing;
    expect(seen.startedWhileDraining).toEqual([]);
  });

  it("answers a call still running at the drain deadline with -32000 and aborts its ctx.signal before close() resolves", async () => {
    const { app, url, errors } = await createApp(300);
    const client = await connect(url);
    const held = client.callTool({ name: "hold", arguments: {} }, undefined, BOUNDED);
    await seen.holdStarted.promise;

    const started = Date.now();
    const closing = closeApp(app);
    const cut = await held.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(cut).toBeInstanceOf(McpError);
    expect((cut as McpError).code).toBe(-32000);
    expect((cut as McpError).message).toMatch(/Server is shutting down.*drain deadline/);
    // At the deadline, not at the client's own timeout.
    expect(Date.now() - started).toBeLessThan(2000);
    await closing;
    expect(seen.aborted).toEqual([{ tool: "hold", afterClose: false }]);
    expect(seen.running).toBe(0);
    expect(errors).toEqual([]);
  });

  it("answers a new session during the drain with 503 and a JSON-RPC error, never a 500 or a logged stack", async () => {
    const { app, url, errors } = await createApp(5000);
    const holder = await connect(url);
    const held = holder.callTool({ name: "hold", arguments: {} }, undefined, BOUNDED);
    await seen.holdStarted.promise;

    const closing = closeApp(app);
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "late", version: "1" },
        },
      }),
    });
    expect(res.status).toBe(503);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const body = (await res.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(-32000);
    expect(body.error.message).toMatch(/shutting down/);
    expect(res.headers.get("mcp-session-id")).toBeNull();

    const statuses: number[] = [];
    await expect(connect(url, statuses)).rejects.toThrow();
    expect(statuses).toEqual([503]);

    seen.release.resolve();
    await held;
    await closing;
    expect(errors).toEqual([]);
  });

  it("names a handler that ignores ctx.signal in a warning when close() resolves", async () => {
    const { app, url, warnings } = await createApp(200);
    const client = await connect(url);
    const call = outcomeOf(client.callTool({ name: "stubborn", arguments: {} }, undefined, BOUNDED));
    await seen.holdStarted.promise;
    await closeApp(app);
    // Its client was answered at the deadline; the handler itself is still running, and said so.
    expect(await call).toBe("shutdown");
    expect(seen.running).toBe(1);
    expect(warnings.join("\n")).toMatch(/stubborn.*ctx\.signal/);
    seen.release.resolve();
  });
});

describe("app.close() under load", () => {
  it("every call finishes or gets -32000, none starts during the drain, nothing runs after close(), no HTTP 500", async () => {
    const { app, url, errors } = await createApp(400);
    const statuses: number[] = [];
    const workers = await Promise.all(Array.from({ length: 8 }, () => connect(url, statuses)));
    // Long calls that only the deadline can end: three that honour ctx.signal with side
    // effects, one held.
    const longCalls = [
      ...[0, 1, 2].map((i) =>
        outcomeOf((workers[i] as Client).callTool({ name: "tick", arguments: {} }, undefined, BOUNDED)),
      ),
      outcomeOf((workers[3] as Client).callTool({ name: "hold", arguments: {} }, undefined, BOUNDED)),
    ];
    await seen.holdStarted.promise;

    // Each worker calls `work` in a loop until the server tells it that it is shutting down.
    const okEnough = deferred();
    let ok = 0;
    const loops = workers.map(async (client, w) => {
      const outcomes: string[] = [];
      for (let i = 0; ; i++) {
        const outcome = await outcomeOf(
          client.callTool(
            { name: "work", arguments: { ms: 5 + ((w * 7 + i * 3) % 25) } },
            undefined,
            BOUNDED,
          ),
        );
        outcomes.push(outcome);
        if (outcome === "ok" && ++ok >= 40) okEnough.resolve();
        if (outcome !== "ok") return outcomes;
      }
    });
    await okEnough.promise;

    const started = Date.now();
    await closeApp(app);
    const closeMs = Date.now() - started;
    // Nothing that honours its signal is still running, so nothing writes any more.
    expect(seen.running).toBe(0);
    const writesAtClose = seen.writes;
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen.writes).toBe(writesAtClose);

    const results = await Promise.all(loops);
    const long = await Promise.all(longCalls);
    // Every loop ended on the shutdown error, never on a timeout or any other error.
    for (const outcomes of results) {
      expect(outcomes.slice(0, -1).every((o) => o === "ok")).toBe(true);
      expect(outcomes.at(-1)).toBe("shutdown");
    }
    // The long calls were cut at the deadline with an error answer, not left waiting.
    expect(long).toEqual(["shutdown", "shutdown", "shutdown", "shutdown"]);
    expect(seen.aborted.every((a) => !a.afterClose)).toBe(true);
    expect(seen.startedWhileDraining).toEqual([]);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(errors).toEqual([]);
    expect(closeMs).toBeLessThan(2000);
    console.info(
      `[figures] shutdown under load: ${ok} calls answered before close(), ${results.length} loops ended on -32000, 4 long calls cut at the 400 ms deadline, close() took ${closeMs} ms, ${writesAtClose} side effects, none after close()`,
    );
  });
});
