/**
 * Issue 13: stdio lines in the hostile-input corpus. A real stdio server process (the
 * compiled quickstart example, `node .build/examples/quickstart/main.js --stdio`, as
 * test/e2e/stdio.test.ts spawns it) is fed hostile lines: invalid JSON, huge lines, wrong
 * types, batches, deep nesting, bad ids, bad progress tokens. After each line a `ping` must
 * be answered (the process is alive and reading); a request with a valid id must get an
 * answer with that id (never -32603, no stack); a line that is no message is answered
 * -32700 (not JSON) or -32600 (not JSON-RPC, or a batch) without an id, as JSON-RPC 2.0 and
 * MCP 2025-11-25 allow; every stdout line is one JSON-RPC message; stderr holds no stack.
 *
 * Prints `[figures] stdio lines: <n> cases, <failures> failures` and its seed
 * (`FC_SEED=<n>` replays another).
 *
 *   npm run build && npx vitest run --config vitest.reliability.config.ts test/reliability/stdio-hostile.test.ts
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createInterface } from "node:readline";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const EXAMPLE = ".build/examples/quickstart/main.js";
const SEED = Number(process.env.FC_SEED ?? 1313);
/** Every answer must come within this (a generous bound on a loaded 2-CPU machine). */
const ANSWER_MS = 3_000;
const STACK = /\n\s+at |^\s{4}at /m;

type Message = {
  jsonrpc?: unknown;
  id?: unknown;
  result?: unknown;
  error?: { code?: unknown; message?: unknown };
};

/** One hostile line, and whether it is a request whose id must be answered. */
type Case = { line: string; answerId?: string };

class StdioServer {
  readonly child: ChildProcessWithoutNullStreams;
  stderr = "";
  /** Answers without an id (to lines that are no message). */
  readonly anonymous: Message[] = [];
  /** stdout lines that were not one JSON-RPC message. */
  readonly garbage: string[] = [];
  private readonly answers = new Map<string, Message>();
  private readonly waiting = new Map<string, (message: Message) => void>();

  constructor() {
    this.child = spawn(process.execPath, [EXAMPLE, "--stdio"], { stdio: "pipe" });
    this.child.stderr.on("data", (chunk) => {
      this.stderr += String(chunk);
    });
    createInterface({ input: this.child.stdout, crlfDelay: Number.POSITIVE_INFINITY }).on("line", (line) =>
      this.received(line),
    );
  }

  private received(line: string): void {
    let message: Message;
    try {
      message = JSON.parse(line);
    } catch {
      this.garbage.push(line.slice(0, 200));
      return;
    }
    if (message === null || typeof message !== "object" || message.jsonrpc !== "2.0") {
      this.garbage.push(line.slice(0, 200));
      return;
    }
    if (message.id === undefined) {
      this.anonymous.push(message);
      return;
    }
    const key = JSON.stringify(message.id);
    this.answers.set(key, message);
    this.waiting.get(key)?.(message);
  }

  write(line: string): Promise<void> {
    return new Promise((resolve, reject) =>
      this.child.stdin.write(`${line}\n`, (error) => (error ? reject(error) : resolve())),
    );
  }

  /** Whether request `id` has been answered yet. */
  answered(id: string | number): boolean {
    return this.answers.has(JSON.stringify(id));
  }

  /** The answer to request `id`, or undefined if none came within the bound. */
  answerTo(id: string | number, bound = ANSWER_MS): Promise<Message | undefined> {
    const key = JSON.stringify(id);
    const known = this.answers.get(key);
    if (known) return Promise.resolve(known);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(key);
        resolve(undefined);
      }, bound);
      this.waiting.set(key, (message) => {
        clearTimeout(timer);
        this.waiting.delete(key);
        resolve(message);
      });
    });
  }

  async request(
    id: string,
    method: string,
    params?: unknown,
    bound = ANSWER_MS,
  ): Promise<Message | undefined> {
    await this.write(
      JSON.stringify({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) }),
    );
    return this.answerTo(id, bound);
  }
}

// ---------------------------------------------------------------------------------------------
// The corpus
// ---------------------------------------------------------------------------------------------

let next = 0;
/** A fresh request id, so each answer can be told apart. */
const freshId = () => `h-${++next}`;

const noNewline = (text: string) => text.replace(/[\r\n\u2028\u2029]/g, " ");
const anyJson = fc.jsonValue({ maxDepth: 3 });
const methods = fc.constantFrom(
  "tools/call",
  "tools/list",
  "resources/read",
  "resources/list",
  "prompts/get",
  "completion/complete",
  "logging/setLevel",
  "ping",
  "x-unknown/method",
  "",
);
const hostileStrings = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom("", "\u0000", "\uD800", "../../etc/passwd", "__proto__", "constructor", "%00"),
  fc.integer({ min: 1_000, max: 200_000 }).map((n) => "A".repeat(n)),
);

/** Requests with a valid id and any params: each must be answered with that id. */
const requests: fc.Arbitrary<Case> = fc
  .record({
    method: methods,
    params: fc.oneof(
      fc.record(
        {
          name: fc.oneof(
            fc.constantFrom("add_note", "list_notes", "read_note", "summarize"),
            hostileStrings,
            anyJson,
          ),
          arguments: fc.oneof(
            fc.dictionary(
              fc.constantFrom("title", "body", "tags", "id", "tag"),
              fc.oneof(hostileStrings, anyJson),
              {
                maxKeys: 4,
              },
            ),
            anyJson,
          ),
          uri: fc.oneof(fc.constantFrom("notes://welcome", "notes://{id}"), hostileStrings),
          cursor: hostileStrings,
          level: fc.oneof(fc.constantFrom("debug", "info", "loud"), anyJson),
        },
        { requiredKeys: [] },
      ),
      anyJson,
    ),
  })
  .map(({ method, params }) => {
    const id = freshId();
    return { line: JSON.stringify({ jsonrpc: "2.0", id, method, params }), answerId: id };
  });

/** Valid requests carrying hostile `_meta`: bad progress tokens, wrong types, deep nesting. */
const metas: fc.Arbitrary<Case> = fc
  .oneof(
    fc
      .oneof(fc.double(), fc.constant(null), fc.boolean(), fc.constant({}), fc.constant([1]))
      .map((progressToken) => ({
        progressToken,
      })),
    fc
      .integer({ min: 1, max: 3_000 })
      .map((depth) => JSON.parse(`${'{"d":'.repeat(depth)}1${"}".repeat(depth)}`)),
    anyJson,
  )
  .map((_meta) => {
    const id = freshId();
    const params = { name: "list_notes", arguments: {}, _meta };
    return { line: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params }), answerId: id };
  });

/** Envelopes with a bad id, version or method: answered -32600 (with the id when it is valid), or ignored. */
const envelopes: fc.Arbitrary<Case> = fc
  .record(
    {
      jsonrpc: fc.oneof(fc.constant("2.0"), fc.constantFrom("1.0", "2", 2), anyJson),
      id: fc.oneof(fc.constantFrom(null, 1.5, -0.5, 1e21, true, {}, [], [1]), anyJson),
      method: fc.oneof(fc.constant("ping"), fc.constantFrom(5, null, ["ping"]), anyJson),
      params: anyJson,
    },
    { requiredKeys: [] },
  )
  .map((envelope) => ({ line: JSON.stringify(envelope) }));

const lines: fc.Arbitrary<Case> = fc.oneof(
  { weight: 4, arbitrary: requests },
  { weight: 2, arbitrary: metas },
  { weight: 2, arbitrary: envelopes },
  // Not JSON at all.
  { weight: 2, arbitrary: fc.string({ maxLength: 200 }).map((s) => ({ line: noNewline(s) })) },
  {
    weight: 1,
    arbitrary: fc.string({ unit: "binary", maxLength: 200 }).map((s) => ({ line: noNewline(s) })),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "{",
      "}",
      "[",
      '{"jsonrpc":"2.0"',
      "null",
      "1",
      '"x"',
      "true",
      "{}",
      "[]",
      "\uFEFF{}",
      "\u0000",
    ),
  }.arbitrary.map((line) => ({ line })),
  // Batches (MCP has none since 2025-06-18): -32600, and none of their requests runs.
  {
    weight: 1,
    arbitrary: fc
      .array(requests, { minLength: 1, maxLength: 8 })
      .map((batch) => ({ line: `[${batch.map((c) => c.line).join(",")}]` })),
  },
  // Deep nesting, up to where JSON.parse itself gives up.
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 100, max: 200_000 })
      .map((n) => ({ line: `${"[".repeat(n)}${"]".repeat(n)}` })),
  },
  // Huge lines (up to 1 MiB; over 10 MiB is skipped unread: its own test below).
  {
    weight: 1,
    arbitrary: fc.integer({ min: 10_000, max: 1024 * 1024 }).map((n) => {
      const id = freshId();
      const line = JSON.stringify({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name: "add_note", arguments: { title: "big", body: "x".repeat(n) } },
      });
      return { line, answerId: id };
    }),
  },
);

// ---------------------------------------------------------------------------------------------

describe("hostile stdio lines against a real stdio server process", () => {
  let server: StdioServer;
  let probes = 0;

  /** A ping after each line: the process must still be alive and reading. */
  async function probe(): Promise<void> {
    const id = `probe-${++probes}`;
    const answer = await server.request(id, "ping");
    expect(
      answer,
      `ping ${id} not answered within ${ANSWER_MS} ms (exit code ${server.child.exitCode})`,
    ).toEqual({
      jsonrpc: "2.0",
      id,
      result: {},
    });
  }

  beforeAll(async () => {
    if (!existsSync(EXAMPLE))
      throw new Error(`${EXAMPLE} is missing: run \`npm run build\` (npm test does it)`);
    console.log(`[figures] stdio-hostile seed: ${SEED} (set FC_SEED to replay)`);
    server = new StdioServer();
    const init = await server.request(
      "init",
      "initialize",
      {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "hostile", version: "1.0.0" },
      },
      20_000,
    ); // the process starts first (seconds on a loaded machine)
    expect(init?.result, `${JSON.stringify(init)} ${server.stderr}`).toBeDefined();
    await server.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  });

  afterAll(async () => {
    if (!server) return;
    const exited = new Promise((resolve) => server.child.once("exit", resolve));
    server.child.stdin.end();
    server.child.kill("SIGTERM");
    await exited;
  });

  it("answers or ignores each hostile line as JSON-RPC says, and keeps answering", async () => {
    const figure = { cases: 0, failures: 0, slowestMs: 0 };
    try {
      await fc.assert(
        fc.asyncProperty(lines, async ({ line, answerId }) => {
          figure.cases++;
          try {
            const anonymousBefore = server.anonymous.length;
            const started = performance.now();
            await server.write(line);
            if (answerId !== undefined) {
              const answer = await server.answerTo(answerId);
              figure.slowestMs = Math.max(figure.slowestMs, performance.now() - started);
              expect(answer, `no answer to ${answerId} for ${line.slice(0, 200)}`).toBeDefined();
              const text = JSON.stringify(answer);
              expect(text, "stack trace in the answer").not.toMatch(STACK);
              if (answer?.error) {
                expect(answer.error.code, `${line.slice(0, 200)}: ${answer.error.message}`).not.toBe(-32603);
                expect(answer.error.code).toBeTypeOf("number");
              }
            }
            await probe();
            figure.slowestMs = Math.max(figure.slowestMs, performance.now() - started);
            for (const message of server.anonymous.slice(anonymousBefore)) {
              expect([-32700, -32600], `${line.slice(0, 200)}: ${JSON.stringify(message)}`).toContain(
                message.error?.code,
              );
            }
            expect(server.garbage, "stdout lines that are not JSON-RPC").toEqual([]);
            expect(server.child.exitCode).toBeNull();
          } catch (error) {
            figure.failures++;
            throw error;
          }
        }),
        { seed: SEED, numRuns: 200, endOnFailure: true },
      );
    } finally {
      console.log(
        `[figures] stdio lines: ${figure.cases} cases, ${figure.failures} failures (seed ${SEED}, slowest ${Math.round(figure.slowestMs)} ms, ${server.anonymous.length} answered without an id)`,
      );
    }
  });

  it("answers the JSON-RPC errors the spec names, with the id when it is readable", async () => {
    const before = server.anonymous.length;
    await server.write("{not json");
    await server.write('[{"jsonrpc":"2.0","id":"b-1","method":"ping"}]');
    await server.write('{"jsonrpc":"2.0","id":1.5,"method":"ping"}');
    await probe();
    expect(server.anonymous.slice(before).map((m) => m.error?.code)).toEqual([-32700, -32600, -32600]);
    expect(server.answered("b-1")).toBe(false); // a batch runs none of its requests
    // A bad progress token: -32602 naming it (the SDK would drop the line unanswered).
    const token = await server.request("t-1", "tools/call", {
      name: "list_notes",
      arguments: {},
      _meta: { progressToken: 1.5 },
    });
    expect(token?.error?.code).toBe(-32602);
    expect(token?.error?.message).toContain("`_meta.progressToken` must be a string or an integer");
    // Params of the wrong type with a valid id: -32600 with that id.
    const params = await server.request("p-1", "tools/list", 5);
    expect(params?.error?.code).toBe(-32600);
  });

  it("skips a line over 10 MiB, answers it, and serves the next request", async () => {
    const id = "huge-1";
    const line = JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "add_note", arguments: { title: "huge", body: "y".repeat(11 * 1024 * 1024) } },
    });
    await server.write(line);
    const answer = await server.answerTo(id);
    expect(answer?.error?.code).toBe(-32600);
    await probe();
  });

  it("still serves a valid call, and wrote no stack trace to stderr", async () => {
    const call = await server.request("last", "tools/call", {
      name: "add_note",
      arguments: { title: "After the storm", body: "still here" },
    });
    expect(call?.result).toMatchObject({ structuredContent: { id: "after-the-storm" } });
    expect(server.child.exitCode).toBeNull();
    expect(server.stderr).not.toMatch(STACK);
  });
});
