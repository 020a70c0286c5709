/**
 * Issue 13, found by the hostile-input corpus: requests the SDK's schemas choke on, and URIs
 * whose work grew with their length. Each is answered at once with a JSON-RPC error (or an
 * `isError` result for a tool's arguments) that names the field and what it expects:
 * - a resource URI over `MAX_URI_LENGTH` (4,096 characters): `read_resource` and
 *   `search_resource` answer `isError`, `resources/read` `-32602`, naming the limit; a URI
 *   under it is matched against templates in linear time (the old expression backtracked);
 * - a `_meta.progressToken` that is neither a string nor an integer: `-32602` in memory and
 *   over HTTP (was no answer at all in memory, `400`/`-32700` over HTTP);
 * - a request without a required field (`tools/call` without `name`, `resources/read`
 *   without `uri`, a prompt argument that is not a string): `-32602` naming the field (was
 *   `-32603` with zod's raw dump); a tool call without a required argument: `isError` saying
 *   it is missing;
 * - `__proto__` in `prompts/get` arguments: `-32602` naming the key (was dropped silently).
 *
 *   npx vitest run --config vitest.reliability.config.ts test/reliability/request-params.test.ts
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ResultSchema } from "@modelcontextprotocol/sdk/types.js";
import {
  createTestClient,
  type McpApp,
  McpFactory,
  McpModule,
  McpService,
  Prompt,
  Resource,
  type TestClient,
  Tool,
} from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";

/** Every answer here must come within this (the old template expression took far longer). */
const BOUND_MS = 2_000;

@McpService()
class ParamsService {
  @Tool({ description: "Count rows", input: { rows: z.array(z.number()), note: z.string().optional() } })
  count({ rows }: { rows: number[] }) {
    return { count: rows.length };
  }

  @Resource("files://{name}")
  file({ name }: { name: string }) {
    return `file ${name.slice(0, 20)}`;
  }

  /** Three plain values split by dots: the shape that made the old expression backtrack. */
  @Resource("dots://{a}.{b}.{c}")
  dots({ c }: { a: string; b: string; c: string }) {
    return `dots ${c.slice(0, 20)}`;
  }

  @Prompt({ description: "Greet", input: { topic: z.string() } })
  greet({ topic }: { topic: string }) {
    return `Say hello about ${topic}`;
  }
}

@McpModule({ services: [ParamsService] })
class ParamsModule {}

type Outcome = { result?: Record<string, unknown>; code?: number; message?: string; ms: number };

/** Sends any request (the SDK client would refuse to build some of these) and times the answer. */
async function send(client: Client, method: string, params: unknown): Promise<Outcome> {
  const started = performance.now();
  try {
    const result = await client.request({ method, params } as never, ResultSchema.passthrough(), {
      timeout: BOUND_MS * 2,
    });
    return { result, ms: performance.now() - started };
  } catch (error) {
    const e = error as { code?: number; message?: string };
    return { code: e.code, message: e.message, ms: performance.now() - started };
  }
}

const textOf = (result: Record<string, unknown> | undefined) =>
  ((result?.content as Array<{ text?: string }> | undefined) ?? []).map((c) => c.text ?? "").join("\n");

describe("request params and URI lengths (in memory)", () => {
  let t: TestClient;

  beforeAll(async () => {
    t = await createTestClient(ParamsModule, { ephemeral: { tools: true } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("refuses resource URIs over 4,096 characters by the limit, at once, on every path", async () => {
    for (const length of [4_097, 10_000, 100_000]) {
      const uri = `files://${"A".repeat(length - 8)}`;
      for (const tool of ["read_resource", "search_resource"]) {
        const args = tool === "read_resource" ? { uri } : { uri, pattern: "A" };
        const answer = await send(t.client, "tools/call", { name: tool, arguments: args });
        expect(answer.ms, `${tool} ${length}: ${Math.round(answer.ms)} ms`).toBeLessThan(BOUND_MS);
        expect(answer.result?.isError, `${tool} ${length}`).toBe(true);
        expect(textOf(answer.result)).toContain("uri: a resource URI may be at most 4096 characters");
      }
      const read = await send(t.client, "resources/read", { uri });
      expect(read.ms).toBeLessThan(BOUND_MS);
      expect(read.code).toBe(-32602);
      expect(read.message).toContain(
        `the URI is ${length} characters long; a resource URI may be at most 4096`,
      );
    }
    // At the limit, the URI is still served.
    const atLimit = `files://${"A".repeat(4_096 - 8)}`;
    const served = await t.client.readResource({ uri: atLimit });
    expect((served.contents[0] as { text?: string }).text).toBe(`file ${"A".repeat(20)}`);
  });

  it("matches templates in linear time: a hostile URI under the limit is answered at once", async () => {
    // `dots://{a}.{b}.{c}` against "a.a.a…/" (no match): the old expression took about 1 s at
    // 2,000 characters and over a minute at 8,000; 4,000 here.
    const hostile = `dots://${"a.".repeat(1_990)}/`;
    const read = await send(t.client, "resources/read", { uri: hostile });
    expect(read.ms, `resources/read: ${Math.round(read.ms)} ms`).toBeLessThan(BOUND_MS);
    expect(read.code).toBe(-32002);
    const tool = await send(t.client, "tools/call", { name: "read_resource", arguments: { uri: hostile } });
    expect(tool.ms, `read_resource: ${Math.round(tool.ms)} ms`).toBeLessThan(BOUND_MS);
    expect(textOf(tool.result)).toContain("Unknown resource");
    // The same template still splits a matching URI as before (greedy values).
    const served = await t.client.readResource({ uri: "dots://x.y.z.end" });
    expect((served.contents[0] as { text?: string }).text).toBe("dots end");
  });

  it("answers a progress token that is neither a string nor an integer with -32602 naming it", async () => {
    for (const progressToken of [1.5, null, true, {}, [1], -0.25]) {
      const answer = await send(t.client, "tools/call", {
        name: "count",
        arguments: { rows: [1] },
        _meta: { progressToken },
      });
      expect(answer.code, JSON.stringify(progressToken)).toBe(-32602);
      expect(answer.message).toContain("`_meta.progressToken` must be a string or an integer");
    }
    // Valid tokens still work.
    for (const progressToken of ["p-1", 7, -3]) {
      const answer = await send(t.client, "tools/call", {
        name: "count",
        arguments: { rows: [1, 2] },
        _meta: { progressToken },
      });
      expect(answer.result?.structuredContent).toEqual({ count: 2 });
    }
    const notObject = await send(t.client, "tools/call", { name: "count", arguments: {}, _meta: 5 });
    expect(notObject.code).toBe(-32602);
    expect(notObject.message).toContain("`_meta` must be an object, not a number");
  });

  it("answers requests missing a required field with -32602 naming the field, not -32603", async () => {
    const cases: Array<[string, unknown, string]> = [
      ["tools/call", { arguments: {} }, "Invalid params for tools/call: `name` is missing (expected string)"],
      ["tools/call", { name: 5 }, "`name`: expected string, received number"],
      ["tools/call", undefined, "Invalid params for tools/call: `params` is missing (expected object)"],
      ["resources/read", {}, "Invalid params for resources/read: `uri` is missing (expected string)"],
      ["prompts/get", {}, "Invalid params for prompts/get: `name` is missing (expected string)"],
      ["prompts/get", { name: "greet", arguments: { topic: 5 } }, "`arguments.topic`: expected string"],
      ["completion/complete", {}, "Invalid params for completion/complete: `ref`"],
      ["resources/subscribe", { uri: 7 }, "`uri`: expected string, received number"],
    ];
    for (const [method, params, expected] of cases) {
      const answer = await send(t.client, method, params);
      expect(answer.code, `${method} ${JSON.stringify(params)}: ${answer.message}`).toBe(-32602);
      expect(answer.message).toContain(expected);
      expect(answer.message).not.toContain('"code"'); // no raw zod issue dump
    }
    // Methods whose params are optional still answer without any.
    expect((await t.client.listTools()).tools.map((tool) => tool.name)).toContain("count");
    // A tool's own missing argument is the tool's isError (the model can fix it), saying so.
    const missing = await send(t.client, "tools/call", { name: "count", arguments: { note: "x" } });
    expect(missing.result?.isError).toBe(true);
    expect(textOf(missing.result)).toBe('Invalid arguments for tool "count": rows: missing (expected array)');
  });

  it("refuses `__proto__` in prompt arguments by name instead of dropping it", async () => {
    const args = JSON.parse('{"topic":"cats","__proto__":"x"}');
    const answer = await send(t.client, "prompts/get", { name: "greet", arguments: args });
    expect(answer.code).toBe(-32602);
    expect(answer.message).toContain('arguments of prompt "greet": the key `__proto__` is not allowed');
    const fine = await t.client.getPrompt({ name: "greet", arguments: { topic: "cats" } });
    expect(JSON.stringify(fine.messages)).toContain("about cats");
  });
});

describe("request params over Streamable HTTP", () => {
  let app: McpApp;
  let url: string;
  let session: string;
  const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

  async function post(body: string, headers: Record<string, string> = {}) {
    const response = await fetch(url, { method: "POST", headers: { ...HEADERS, ...headers }, body });
    const raw = await response.text();
    const data = raw.includes("data:")
      ? raw
          .split("\n")
          .filter((line) => line.startsWith("data:"))
          .map((line) => line.slice(5).trim())
          .filter(Boolean)
          .at(-1)
      : raw;
    return { status: response.status, headers: response.headers, json: JSON.parse(data as string) };
  }

  beforeAll(async () => {
    app = await McpFactory.create(ParamsModule, { name: "params", version: "1.0.0" });
    ({ url } = await app.listen({ transport: "http", port: 0 }));
    const init = await post(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "raw", version: "1" },
        },
      }),
    );
    session = init.headers.get("mcp-session-id") as string;
    const done = await fetch(url, {
      method: "POST",
      headers: { ...HEADERS, "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" },
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    });
    await done.body?.cancel();
  });
  afterAll(async () => {
    await app?.close();
  });

  it("answers an invalid progress token -32602 on its session (was 400 and -32700)", async () => {
    const headers = { "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" };
    for (const [id, token] of [
      [21, "1.5"],
      [22, "null"],
      [23, '{"a":1}'],
    ] as const) {
      const answer = await post(
        `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"count","arguments":{"rows":[1]},"_meta":{"progressToken":${token}}}}`,
        headers,
      );
      expect(answer.status).toBe(200);
      expect(answer.json.id).toBe(id);
      expect(answer.json.error?.code).toBe(-32602);
      expect(answer.json.error?.message).toContain("`_meta.progressToken` must be a string or an integer");
    }
    const missingName = await post(
      '{"jsonrpc":"2.0","id":24,"method":"tools/call","params":{"arguments":{}}}',
      headers,
    );
    expect(missingName.json.error?.code).toBe(-32602);
    expect(missingName.json.error?.message).toContain("`name` is missing (expected string)");
  });
});
