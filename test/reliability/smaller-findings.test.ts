/**
 * Issue 13, finding 11 (the smaller findings): input-limit errors name the argument,
 * `__proto__` keys are refused, non-object `arguments` answer -32602, a deep `_meta` is
 * refused instead of overflowing the stack, an over-long stdio line is skipped and
 * reported, and encrypted-cursor servers refuse plain signed cursors.
 * Loopback and in-process only; every test well under 5 s.
 */
import { PassThrough } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  Cached,
  type Logger,
  type McpApp,
  McpFactory,
  McpModule,
  McpService,
  Paginated,
  Tool,
} from "frugal-mcp";
import { createTestClient, type TestClient } from "frugal-mcp/testing";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
// Not exported from the package entry: `app.listen({ transport: "stdio" })` builds it on process.stdin.
import { StdioTransport } from "../../src/transports/stdio-transport.js";

@McpService()
class Probe {
  @Tool({ description: "Count rows", input: { rows: z.array(z.number()), note: z.string().optional() } })
  count({ rows }: { rows: number[] }) {
    return { count: rows.length };
  }

  @Tool({ description: "Echo a tree", input: { tree: z.unknown().optional(), name: z.string().optional() } })
  tree({ name }: { tree?: unknown; name?: string | undefined }) {
    return { name: name ?? null };
  }

  @Tool({ description: "A cached answer", input: { key: z.string() } })
  @Cached({ ttl: 60_000 })
  cached({ key }: { key: string }) {
    return { key };
  }

  @Tool({ description: "Numbers, paged" })
  @Paginated("n", { limit: 2 })
  numbers() {
    return [1, 2, 3, 4, 5].map((n) => ({ n }));
  }
}

@McpModule({ services: [Probe] })
class ProbeModule {}

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.allSettled(opened.splice(0).map((o) => o.close()));
});

async function testClient(options: Parameters<typeof createTestClient>[1] = {}): Promise<TestClient> {
  const t = await createTestClient(ProbeModule, options);
  opened.push(t);
  return t;
}

function text(result: unknown): string {
  return ((result as { content: Array<{ text?: string }> }).content ?? [])
    .map((c) => c.text ?? "")
    .join("\n");
}

// ---------------------------------------------------------------------------------------------
// Raw Streamable HTTP: bodies an SDK client would never send
// ---------------------------------------------------------------------------------------------

async function httpApp(): Promise<{ url: string; app: McpApp }> {
  const app = await McpFactory.create(ProbeModule, { name: "probe", version: "1.0.0" });
  opened.push(app);
  const { url } = await app.listen({ transport: "http", port: 0 });
  return { url, app };
}

const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

/** Opens a session with the SDK client (so the handshake is real) and returns its id. */
async function openSession(url: string): Promise<string> {
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const client = new Client({ name: "raw", version: "1.0.0" });
  await client.connect(transport);
  opened.push({ close: async () => {} }); // the app's close ends the session
  return transport.sessionId as string;
}

/** POSTs a raw JSON-RPC body on a session and returns the one JSON-RPC answer. */
async function rawCall(url: string, sessionId: string, body: string): Promise<Record<string, any>> {
  const response = await fetch(url, {
    method: "POST",
    headers: { ...HEADERS, "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18" },
    body,
  });
  const raw = await response.text();
  const data = raw.includes("data:")
    ? raw
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).trim())
        .filter(Boolean)
        .at(-1)
    : raw;
  return JSON.parse(data as string);
}

describe("finding 11: smaller findings", () => {
  it("1. an input-limit error names the argument that passed it", async () => {
    const t = await testClient({ inputLimits: { maxElements: 100 } } as never);
    const many = await t.callTool({
      name: "count",
      arguments: { note: "x", rows: Array.from({ length: 200 }, () => 1) },
    });
    expect(many.isError).toBe(true);
    expect(text(many)).toContain("argument `rows`");
    expect(text(many)).toContain("more than 100 values");

    let deep: unknown = 1;
    for (let i = 0; i < 40; i++) deep = { d: deep };
    const nested = await t.callTool({ name: "tree", arguments: { name: "n", tree: deep } });
    expect(nested.isError).toBe(true);
    expect(text(nested)).toContain("argument `tree` is nested deeper than");
  });

  it("2. a `__proto__` key in the arguments is refused by name, not dropped", async () => {
    const { url } = await httpApp();
    const session = await openSession(url);
    const top = await rawCall(
      url,
      session,
      '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"tree","arguments":{"name":"a","__proto__":{"polluted":true}}}}',
    );
    expect(top.result?.isError).toBe(true);
    expect(JSON.stringify(top.result?.content)).toContain("`__proto__`");
    const nested = await rawCall(
      url,
      session,
      '{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"tree","arguments":{"tree":{"__proto__":{"polluted":true}}}}}',
    );
    expect(nested.result?.isError).toBe(true);
    expect(JSON.stringify(nested.result?.content)).toContain("`__proto__` (inside argument `tree`)");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("3. non-object `arguments` answer -32602 with a short message", async () => {
    const { url } = await httpApp();
    const session = await openSession(url);
    const cases = [
      [11, "5", "a number"],
      [12, "[1,2]", "an array"],
      [13, '"text"', "a string"],
      [14, "null", "null"],
    ] as const;
    for (const [id, args, kind] of cases) {
      const answer = await rawCall(
        url,
        session,
        `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"count","arguments":${args}}}`,
      );
      expect(answer.id).toBe(id);
      expect(answer.error?.code).toBe(-32602);
      expect(answer.error?.message).toBe(`Invalid params: \`arguments\` must be an object, not ${kind}`);
    }
  });

  it("4. a deeply nested `_meta` on a cached tool is refused with -32602, not a stack overflow", async () => {
    const { url } = await httpApp();
    const session = await openSession(url);
    const meta = `${'{"d":'.repeat(20_000)}1${"}".repeat(20_000)}`;
    const answer = await rawCall(
      url,
      session,
      `{"jsonrpc":"2.0","id":21,"method":"tools/call","params":{"name":"cached","arguments":{"key":"k"},"_meta":${meta}}}`,
    );
    expect(JSON.stringify(answer)).not.toContain("call stack");
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.message).toBe("Invalid params: `_meta` is nested deeper than 32 levels");
    const fine = await rawCall(
      url,
      session,
      '{"jsonrpc":"2.0","id":22,"method":"tools/call","params":{"name":"cached","arguments":{"key":"k"},"_meta":{"frugal/maxTokens":500}}}',
    );
    expect(fine.result?.structuredContent).toEqual({ key: "k" });
  });

  it("5. a stdio line over 10 MiB is skipped, reported and answered; the server goes on", async () => {
    const app = await McpFactory.create(ProbeModule, { name: "probe", version: "1.0.0" });
    opened.push(app);
    const errors: string[] = [];
    const logger: Logger = { debug() {}, info() {}, warn() {}, error: (message) => errors.push(message) };
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let out = "";
    stdout.on("data", (chunk) => {
      out += String(chunk);
    });
    const answer = async (id: number) => {
      const started = Date.now();
      while (Date.now() - started < 3_000) {
        const line = out
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l))
          .find((m) => m.id === id);
        if (line) return line;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error(`no answer to ${id}; stdout: ${out.slice(0, 300)}`);
    };
    await app.connect(new StdioTransport(logger, stdin, stdout));
    const send = (message: object) => stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    await answer(1);
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    // The SDK client's layout (method, params, jsonrpc, id), 11 MiB, written in 1 MiB pieces.
    const huge = JSON.stringify({
      method: "tools/call",
      params: { name: "tree", arguments: { name: "x".repeat(11 * 1024 * 1024) } },
      jsonrpc: "2.0",
      id: 2,
    });
    for (let at = 0; at < huge.length; at += 1024 * 1024) stdin.write(huge.slice(at, at + 1024 * 1024));
    stdin.write("\n");
    send({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "tree", arguments: { name: "ok" } },
    });

    const refused = await answer(2);
    expect(refused.error.code).toBe(-32600);
    expect(refused.error.message).toMatch(
      /^Request too large: a stdio message may be at most 10485760 bytes/,
    );
    expect((await answer(3)).result.structuredContent).toEqual({ name: "ok" });
    expect(errors).toEqual([
      expect.stringMatching(
        /^stdio: skipped a message of \d+ bytes, over the 10485760-byte line limit; answered request 2 with -32600$/,
      ),
    ]);
  });

  it("6. with encryptCursors, a plain signed cursor from the same secret is refused", async () => {
    const cursorSecret = "smaller-findings-secret-0123456789";
    const plain = await testClient({ cursorSecret });
    const first = await plain.callTool({ name: "numbers", arguments: {} });
    const cursor = (first.structuredContent as { nextCursor: string }).nextCursor;
    expect(cursor).toEqual(expect.any(String));

    const encrypted = await testClient({ cursorSecret, encryptCursors: true });
    const refused = await encrypted.callTool({ name: "numbers", arguments: { cursor } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toBe(
      "Invalid cursor: the cursor is not encrypted, and this server accepts only encrypted cursors. Call numbers again without `cursor` to start from the first page.",
    );
    // Its own cursors still work, and are refused the other way round.
    const own = (
      (await encrypted.callTool({ name: "numbers", arguments: {} })).structuredContent as {
        nextCursor: string;
      }
    ).nextCursor;
    const second = await encrypted.callTool({ name: "numbers", arguments: { cursor: own } });
    expect(second.isError).toBeFalsy();
    const back = await plain.callTool({ name: "numbers", arguments: { cursor: own } });
    expect(text(back)).toContain("the cursor is encrypted, and this server accepts only signed cursors");
  });
});
