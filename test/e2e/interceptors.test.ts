import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { CallToolResult, GetPromptResult, ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import {
  type BusEvent,
  Cached,
  createTestClient,
  Ephemeral,
  EVENT_BUS,
  FrugalConfigError,
  Inject,
  Injectable,
  type InterceptedCall,
  type Interceptor,
  Invalidates,
  invalidParams,
  LOGGER,
  type McpApp,
  McpFactory,
  McpModule,
  McpService,
  Prompt,
  type ProtocolResult,
  Resource,
  type TestClient,
  Tool,
  UseInterceptors,
} from "frugal-mcp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";

type Next = () => Promise<ProtocolResult>;
type Text = { type: string; text: string };
const texts = (result: unknown) => ((result as CallToolResult).content as Text[]).map((c) => c.text);

// ---------------------------------------------------------------------------------------------
// Order: app-wide, then class, then method, each in the order given
// ---------------------------------------------------------------------------------------------

/** What the order interceptors and handlers did, in the order they did it. */
const trail: string[] = [];

/** An interceptor class that records entering and leaving under `label`. */
function tracing(label: string) {
  return class implements Interceptor {
    async intercept(_call: InterceptedCall, next: Next) {
      trail.push(`${label} enter`);
      try {
        return await next();
      } finally {
        trail.push(`${label} exit`);
      }
    }
  };
}
const AppWide = tracing("A");
const ClassFirst = tracing("B");
const ClassSecond = tracing("C");
const MethodOwn = tracing("D");
const MethodOther = tracing("E");

@UseInterceptors(ClassFirst, ClassSecond)
@McpService()
class OrderedService {
  @Tool()
  @UseInterceptors(MethodOwn)
  ordered() {
    trail.push("handler");
    return { ok: true };
  }

  // Above @Tool this time: stacking order must not matter.
  @UseInterceptors(MethodOwn)
  @Tool()
  reordered() {
    trail.push("handler");
    return { ok: true };
  }

  @Tool()
  classOnly() {
    trail.push("handler");
    return { ok: true };
  }

  // Two @UseInterceptors on one method add up, in reading order (top first).
  @UseInterceptors(MethodOwn)
  @UseInterceptors(MethodOther)
  @Tool()
  stacked() {
    trail.push("handler");
    return { ok: true };
  }
}

@McpModule({ services: [OrderedService] })
class OrderedModule {}

/** Inherits the class interceptors and `ordered`'s; re-decorating `stacked` replaces its own. */
@McpService()
class DerivedService extends OrderedService {
  @Tool()
  @UseInterceptors(MethodOther)
  override stacked() {
    trail.push("derived handler");
    return { ok: true };
  }
}

@McpModule({ services: [DerivedService] })
class DerivedModule {}

describe("interceptors: order", () => {
  let t: TestClient;
  beforeEach(async () => {
    trail.length = 0;
    t = await createTestClient(OrderedModule, { interceptors: [AppWide] });
  });
  afterEach(() => t.close());

  const run = async (name: string) => {
    trail.length = 0;
    const result = await t.client.callTool({ name, arguments: {} });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    return [...trail];
  };

  it("runs app-wide, then class (in the order given), then method interceptors, and unwinds in reverse", async () => {
    const nested = [
      "A enter",
      "B enter",
      "C enter",
      "D enter",
      "handler",
      "D exit",
      "C exit",
      "B exit",
      "A exit",
    ];
    expect(await run("ordered")).toEqual(nested);
    expect(await run("reordered")).toEqual(nested);
    expect(await run("class_only")).toEqual([
      "A enter",
      "B enter",
      "C enter",
      "handler",
      "C exit",
      "B exit",
      "A exit",
    ]);
  });

  it("adds up two @UseInterceptors on one method instead of dropping one", async () => {
    expect(await run("stacked")).toEqual([
      "A enter",
      "B enter",
      "C enter",
      "D enter",
      "E enter",
      "handler",
      "E exit",
      "D exit",
      "C exit",
      "B exit",
      "A exit",
    ]);
  });

  it("keeps a parent's interceptors in a subclass, and replaces a method's when it is re-decorated", async () => {
    await t.close();
    t = await createTestClient(DerivedModule, { interceptors: [AppWide] });
    expect(await run("ordered")).toEqual([
      "A enter",
      "B enter",
      "C enter",
      "D enter",
      "handler",
      "D exit",
      "C exit",
      "B exit",
      "A exit",
    ]);
    expect(await run("stacked")).toEqual([
      "A enter",
      "B enter",
      "C enter",
      "E enter",
      "derived handler",
      "E exit",
      "C exit",
      "B exit",
      "A exit",
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// DI: constructor injection, one instance per app
// ---------------------------------------------------------------------------------------------

const PREFIX = Symbol("PREFIX");

@Injectable()
class AuditLog {
  readonly lines: string[] = [];
}

/** Injected by class (a module provider) and by token: both come from the app's container. */
@Injectable()
class Audited implements Interceptor {
  static built = 0;
  readonly seen = new Set<Audited>();
  constructor(
    readonly log: AuditLog,
    @Inject(PREFIX) private readonly prefix: string,
  ) {
    Audited.built++;
  }
  async intercept(call: InterceptedCall, next: Next) {
    this.seen.add(this);
    this.log.lines.push(`${this.prefix}${call.name}`);
    return next();
  }
}

@McpService()
class AuditedService {
  constructor(private readonly log: AuditLog) {}

  @Tool()
  @UseInterceptors(Audited)
  first() {
    return { lines: this.log.lines.length };
  }

  @Tool()
  @UseInterceptors(Audited)
  second() {
    return { lines: this.log.lines.length };
  }
}

@McpModule({ services: [AuditedService], providers: [AuditLog, { provide: PREFIX, useValue: "audit:" }] })
class AuditedModule {}

const MISSING = Symbol("MISSING");
@Injectable()
class NeedsMissing implements Interceptor {
  constructor(@Inject(MISSING) readonly missing: unknown) {}
  intercept(_call: InterceptedCall, next: Next) {
    return next();
  }
}

describe("interceptors: dependency injection", () => {
  const apps: TestClient[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((t) => t.close()));
  });

  it("builds an interceptor with the app's container, once per app, shared by every method and call", async () => {
    Audited.built = 0;
    const t = await createTestClient(AuditedModule);
    apps.push(t);
    expect(Audited.built).toBe(1);
    await t.client.callTool({ name: "first", arguments: {} });
    await t.client.callTool({ name: "second", arguments: {} });
    const third = await t.client.callTool({ name: "first", arguments: {} });
    // The module's AuditLog singleton is what the interceptor wrote to and the service read.
    expect(third.structuredContent).toEqual({ lines: 3 });
    expect(t.app.get(AuditLog).lines).toEqual(["audit:first", "audit:second", "audit:first"]);
    expect(Audited.built).toBe(1);

    // Another app builds its own.
    const other = await createTestClient(AuditedModule, {
      providers: [{ provide: PREFIX, useValue: "other:" }],
    });
    apps.push(other);
    expect(Audited.built).toBe(2);
    await other.client.callTool({ name: "first", arguments: {} });
    expect(other.app.get(AuditLog).lines).toEqual(["other:first"]);
    expect(t.app.get(AuditLog).lines).toHaveLength(3);
  });

  it("fails at start-up when an interceptor's dependency is missing", async () => {
    @McpService()
    class Svc {
      @Tool()
      @UseInterceptors(NeedsMissing)
      run() {
        return 1;
      }
    }
    @McpModule({ services: [Svc] })
    class Mod {}
    const failure = createTestClient(Mod);
    await expect(failure).rejects.toBeInstanceOf(FrugalConfigError);
    await expect(failure).rejects.toThrow(
      'NeedsMissing: constructor parameter #0 "missing" needs Symbol(MISSING) (its @Inject token), which no module provides. Fix: add { provide: Symbol(MISSING), useValue | useClass | useFactory } to the `providers` of a module.',
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Refusal, wrapping and replacing, call fields, validation, cache hits, @Invalidates
// ---------------------------------------------------------------------------------------------

const runs: Record<string, number> = {};
const ran = (name: string) => {
  runs[name] = (runs[name] ?? 0) + 1;
};
/** Every call any interceptor of this section saw, by interceptor. */
const seen: Record<string, InterceptedCall[]> = {};
const saw = (who: string, call: InterceptedCall) => {
  seen[who] = [...(seen[who] ?? []), call];
};
/** What `next()` resolved to, for the interceptors that look. */
const nextResults: ProtocolResult[] = [];
/** Whether `Gate` lets calls through. */
let gateOpen = true;

class Spy implements Interceptor {
  intercept(call: InterceptedCall, next: Next) {
    saw("spy", call);
    return next();
  }
}

class Refuse implements Interceptor {
  intercept(call: InterceptedCall): never {
    saw("refuse", call);
    throw new Error(`refused: ${call.name} is closed`);
  }
}

class RefuseWithProtocolError implements Interceptor {
  intercept(): never {
    throw invalidParams("the interceptor chose the error code");
  }
}

class Gate implements Interceptor {
  intercept(call: InterceptedCall, next: Next) {
    saw("gate", call);
    if (!gateOpen) throw new Error("gate closed");
    return next();
  }
}

class Peek implements Interceptor {
  async intercept(_call: InterceptedCall, next: Next) {
    const result = await next();
    nextResults.push(result);
    return result;
  }
}

/** Wraps: returns a new result with one more text block. */
class AppendNote implements Interceptor {
  async intercept(_call: InterceptedCall, next: Next) {
    const result = (await next()) as CallToolResult;
    return {
      ...result,
      content: [...result.content, { type: "text" as const, text: "checked by AppendNote" }],
    };
  }
}

/** Wraps carelessly: changes the result it was handed in place. */
class MutateInPlace implements Interceptor {
  async intercept(_call: InterceptedCall, next: Next) {
    const result = (await next()) as CallToolResult;
    result.content.push({ type: "text", text: "mutated" });
    return result;
  }
}

/** Replaces: answers without calling next(). */
class Replace implements Interceptor {
  intercept(): CallToolResult {
    return { content: [{ type: "text", text: "replaced" }], structuredContent: { replaced: true } };
  }
}

@McpService()
class ProbeService {
  @Tool({ input: { q: z.string(), limit: z.number().int().default(10) } })
  @UseInterceptors(Spy)
  search(input: { q: string; limit: number }) {
    ran("search");
    return { ...input };
  }

  @Resource("notes://{id}", { mimeType: "application/json" })
  @UseInterceptors(Spy)
  note({ id }: { id: string }) {
    ran("note");
    return { id };
  }

  @Resource("config://app", { mimeType: "application/json" })
  @UseInterceptors(Spy)
  config() {
    return { mode: "test" };
  }

  @Prompt({ input: { topic: z.string() } })
  @UseInterceptors(Spy)
  brief({ topic }: { topic: string }) {
    return `Write about ${topic}`;
  }

  @Tool()
  @UseInterceptors(Refuse)
  closedTool() {
    ran("closedTool");
    return { ok: true };
  }

  @Tool()
  @UseInterceptors(RefuseWithProtocolError)
  protocolRefusal() {
    ran("protocolRefusal");
    return { ok: true };
  }

  @Resource("closed://{id}")
  @UseInterceptors(Refuse)
  closedResource({ id }: { id: string }) {
    ran("closedResource");
    return id;
  }

  @Prompt()
  @UseInterceptors(Refuse)
  closedPrompt() {
    ran("closedPrompt");
    return "never";
  }

  @Tool({ input: { a: z.number(), b: z.number() } })
  @UseInterceptors(Peek)
  sum({ a, b }: { a: number; b: number }) {
    return { sum: a + b };
  }

  @Resource("peek://{id}", { mimeType: "application/json" })
  @UseInterceptors(Peek)
  peekResource({ id }: { id: string }) {
    return { id };
  }

  @Prompt()
  @UseInterceptors(Peek)
  peekPrompt() {
    return "hello";
  }

  @Tool({ input: { a: z.number(), b: z.number() } })
  @UseInterceptors(AppendNote)
  annotatedSum({ a, b }: { a: number; b: number }) {
    return { sum: a + b };
  }

  @Tool()
  @UseInterceptors(Replace)
  replaced() {
    ran("replaced");
    return { replaced: false };
  }

  @Tool({ input: { n: z.number().int() } })
  @UseInterceptors(Spy)
  countUp({ n }: { n: number }) {
    ran("countUp");
    return { n: n + 1 };
  }

  @Tool()
  @Cached({ ttl: 60_000 })
  @UseInterceptors(Gate)
  cachedValue() {
    ran("cachedValue");
    return { value: runs.cachedValue };
  }

  @Tool()
  @Cached({ ttl: 60_000 })
  @UseInterceptors(MutateInPlace)
  cachedMutated() {
    ran("cachedMutated");
    return "original";
  }

  @Tool({ input: { id: z.string() } })
  @Invalidates("x.changed")
  @UseInterceptors(Gate)
  change({ id }: { id: string }) {
    ran("change");
    return { changed: id };
  }

  @Tool()
  @Ephemeral({ when: "always" })
  bigReport() {
    return [{ row: 1 }, { row: 2 }, { row: 3 }];
  }
}

@McpModule({ services: [ProbeService] })
class ProbeModule {}

describe("interceptors: what they see and do", () => {
  let t: TestClient;
  beforeEach(async () => {
    for (const key of Object.keys(runs)) delete runs[key];
    for (const key of Object.keys(seen)) delete seen[key];
    nextResults.length = 0;
    gateOpen = true;
    t = await createTestClient(ProbeModule);
  });
  afterEach(() => t.close());

  it("refuses a tool call with isError and the thrown message only; the handler never runs", async () => {
    const result = await t.client.callTool({ name: "closed_tool", arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: "text", text: "refused: closed_tool is closed" }]);
    expect(seen.refuse).toHaveLength(1);
    expect(runs.closedTool).toBeUndefined();
  });

  it("lets an interceptor pick a protocol error for a tool (a JSON-RPC error, not isError)", async () => {
    await expect(t.client.callTool({ name: "protocol_refusal", arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("the interceptor chose the error code"),
    });
    expect(runs.protocolRefusal).toBeUndefined();
  });

  it("refuses a resource read and a prompt with a JSON-RPC error; their handlers never run", async () => {
    await expect(t.client.readResource({ uri: "closed://7" })).rejects.toMatchObject({
      code: -32603,
      message: expect.stringContaining("refused: closed_resource is closed"),
    });
    await expect(t.client.getPrompt({ name: "closed_prompt" })).rejects.toMatchObject({
      code: -32603,
      message: expect.stringContaining("refused: closed_prompt is closed"),
    });
    expect(seen.refuse?.map((c) => c.kind)).toEqual(["resource", "prompt"]);
    expect(runs.closedResource).toBeUndefined();
    expect(runs.closedPrompt).toBeUndefined();
  });

  it("resolves next() to the shaped protocol result of each kind", async () => {
    const tool = await t.client.callTool({ name: "sum", arguments: { a: 1, b: 2 } });
    await t.client.readResource({ uri: "peek://9" });
    await t.client.getPrompt({ name: "peek_prompt" });
    const [toolResult, resourceResult, promptResult] = nextResults as [
      CallToolResult,
      ReadResourceResult,
      GetPromptResult,
    ];
    expect(toolResult.structuredContent).toEqual({ sum: 3 });
    expect(toolResult.content).toEqual([{ type: "text", text: JSON.stringify({ sum: 3 }) }]);
    expect(tool).toMatchObject(toolResult);
    expect(resourceResult.contents).toEqual([
      { uri: "peek://9", mimeType: "application/json", text: JSON.stringify({ id: "9" }) },
    ]);
    expect(promptResult.messages).toEqual([{ role: "user", content: { type: "text", text: "hello" } }]);
  });

  it("sends what an interceptor returns: a wrapped result, or a replacement without running the handler", async () => {
    const wrapped = await t.client.callTool({ name: "annotated_sum", arguments: { a: 2, b: 3 } });
    expect(texts(wrapped)).toEqual([JSON.stringify({ sum: 5 }), "checked by AppendNote"]);
    expect(wrapped.structuredContent).toEqual({ sum: 5 });

    const replaced = await t.client.callTool({ name: "replaced", arguments: {} });
    expect(replaced.content).toEqual([{ type: "text", text: "replaced" }]);
    expect(replaced.structuredContent).toEqual({ replaced: true });
    expect(runs.replaced).toBeUndefined();
  });

  it("describes the call: kind, name, uri, validated input with defaults, service, method, ctx", async () => {
    await t.client.callTool({ name: "search", arguments: { q: "cats" } });
    await t.client.readResource({ uri: "notes://42" });
    await t.client.readResource({ uri: "config://app" });
    await t.client.getPrompt({ name: "brief", arguments: { topic: "dogs" } });
    const [tool, template, fixed, prompt] = seen.spy as [
      InterceptedCall,
      InterceptedCall,
      InterceptedCall,
      InterceptedCall,
    ];

    expect(tool).toMatchObject({
      kind: "tool",
      name: "search",
      input: { q: "cats", limit: 10 },
      service: ProbeService,
      method: "search",
    });
    expect("uri" in tool).toBe(false);
    expect(tool.ctx.owner).toBe(`session:${tool.ctx.sessionId}`);
    expect(tool.ctx.auth).toBeUndefined();
    expect(Object.isFrozen(tool)).toBe(true);

    expect(template).toMatchObject({
      kind: "resource",
      name: "note",
      uri: "notes://42",
      input: { id: "42" },
      service: ProbeService,
      method: "note",
    });
    expect(fixed).toMatchObject({ kind: "resource", name: "config", uri: "config://app", method: "config" });
    expect(prompt).toMatchObject({
      kind: "prompt",
      name: "brief",
      input: { topic: "dogs" },
      service: ProbeService,
      method: "brief",
    });
    expect(prompt.ctx.owner).toBe(tool.ctx.owner);
  });

  it("is never reached by invalid arguments", async () => {
    const invalid = await t.client.callTool({ name: "count_up", arguments: { n: "x" } });
    expect(invalid.isError).toBe(true);
    expect(texts(invalid)[0]).toMatch(/^Invalid arguments for tool "count_up": n: expected number/);
    expect(seen.spy).toBeUndefined();
    expect(runs.countUp).toBeUndefined();

    const valid = await t.client.callTool({ name: "count_up", arguments: { n: 1 } });
    expect(valid.structuredContent).toEqual({ n: 2 });
    expect(seen.spy?.map((c) => c.input)).toEqual([{ n: 1 }]);
  });

  it("runs on cache hits: the handler runs once, the interceptor on every call", async () => {
    const first = await t.client.callTool({ name: "cached_value", arguments: {} });
    const second = await t.client.callTool({ name: "cached_value", arguments: {} });
    expect(second).toEqual(first);
    expect(runs.cachedValue).toBe(1);
    expect(seen.gate).toHaveLength(2);
    expect(t.app.stats().cache.hits).toBe(1);
  });

  it("refuses a cached value: an authorization check also guards cache hits", async () => {
    const allowed = await t.client.callTool({ name: "cached_value", arguments: {} });
    expect(allowed.structuredContent).toEqual({ value: 1 });

    gateOpen = false;
    const refused = await t.client.callTool({ name: "cached_value", arguments: {} });
    expect(refused).toMatchObject({ isError: true, content: [{ type: "text", text: "gate closed" }] });

    // It was cached all along: opening the gate again serves the same entry.
    gateOpen = true;
    const again = await t.client.callTool({ name: "cached_value", arguments: {} });
    expect(again.structuredContent).toEqual({ value: 1 });
    expect(runs.cachedValue).toBe(1);
  });

  it("hands each interceptor a result of its own: mutating it does not change the cached entry", async () => {
    const first = await t.client.callTool({ name: "cached_mutated", arguments: {} });
    const second = await t.client.callTool({ name: "cached_mutated", arguments: {} });
    expect(texts(first)).toEqual(["original", "mutated"]);
    expect(texts(second)).toEqual(["original", "mutated"]);
    expect(runs.cachedMutated).toBe(1);
  });

  it("emits nothing for @Invalidates when an interceptor refuses the call", async () => {
    const events: BusEvent[] = [];
    const unsubscribe = t.app.get(EVENT_BUS).subscribe((event) => {
      events.push(event);
    });
    gateOpen = false;
    const refused = await t.client.callTool({ name: "change", arguments: { id: "a" } });
    expect(refused.isError).toBe(true);
    expect(runs.change).toBeUndefined();
    expect(events).toEqual([]);

    gateOpen = true;
    const done = await t.client.callTool({ name: "change", arguments: { id: "b" } });
    expect(done.isError).toBeFalsy();
    expect(events).toEqual([{ name: "x.changed", payload: { id: "b" } }]);
    unsubscribe();
  });
});

describe("interceptors: app-wide ones wrap the built-in resource tools", () => {
  it("runs around read_resource", async () => {
    for (const key of Object.keys(seen)) delete seen[key];
    const t = await createTestClient(ProbeModule, { interceptors: [Spy] });
    try {
      const spilled = await t.client.callTool({ name: "big_report", arguments: {} });
      const [link] = spilled.content as Array<{ type: string; uri: string }>;
      expect(link?.type).toBe("resource_link");
      const slice = await t.client.callTool({ name: "read_resource", arguments: { uri: link?.uri } });
      expect(slice.isError, JSON.stringify(slice.content)).toBeFalsy();
      const read = seen.spy?.find((c) => c.name === "read_resource");
      expect(read).toMatchObject({ kind: "tool", input: { uri: link?.uri }, method: "readResource" });
      expect(seen.spy?.map((c) => c.name)).toEqual(["big_report", "read_resource"]);
    } finally {
      await t.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Over Streamable HTTP, with auth info
// ---------------------------------------------------------------------------------------------

/** Refuses callers without the `notes:write` scope. */
class RequireWrite implements Interceptor {
  intercept(call: InterceptedCall, next: Next) {
    saw("requireWrite", call);
    if (!call.ctx.auth?.scopes.includes("notes:write")) throw new Error("forbidden: needs scope notes:write");
    return next();
  }
}

@McpService()
class NotesService {
  readonly written: string[] = [];

  @Tool({ input: { text: z.string() } })
  @UseInterceptors(RequireWrite)
  writeNote({ text }: { text: string }) {
    this.written.push(text);
    return { written: text };
  }

  @Tool()
  readNotes() {
    return { notes: this.written };
  }
}

@McpModule({ services: [NotesService] })
class NotesModule {}

/** Demo tokens: the test server maps a bearer token to the auth info the SDK expects on `req.auth`. */
const TOKENS: Record<string, Omit<AuthInfo, "token">> = {
  "reader-token": { clientId: "reader", scopes: ["notes:read"] },
  "writer-token": { clientId: "writer", scopes: ["notes:read", "notes:write"] },
};

async function httpClient(url: string, token?: string): Promise<Client> {
  const client = new Client({ name: "interceptors-test", version: "0.0.0" });
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

describe("interceptors over Streamable HTTP", () => {
  let app: McpApp;
  const clients: Client[] = [];
  let server: Server | undefined;
  beforeEach(async () => {
    for (const key of Object.keys(seen)) delete seen[key];
    trail.length = 0;
    app = await McpFactory.create(NotesModule, { name: "notes", version: "1.0.0", interceptors: [AppWide] });
  });
  afterEach(async () => {
    await Promise.allSettled(clients.splice(0).map((c) => c.close()));
    await app.close();
    if (server) await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  });

  it("runs interceptors for calls served by app.listen, and refuses a caller with no auth", async () => {
    const { url } = await app.listen({ transport: "http", port: 0 });
    const client = await httpClient(url);
    clients.push(client);
    const refused = await client.callTool({ name: "write_note", arguments: { text: "hi" } });
    expect(refused).toMatchObject({
      isError: true,
      content: [{ type: "text", text: "forbidden: needs scope notes:write" }],
    });
    expect(trail).toEqual(["A enter", "A exit"]);
    expect(seen.requireWrite?.[0]?.ctx.sessionId).toBeTypeOf("string");
    expect(app.get(NotesService).written).toEqual([]);
  });

  it("authorizes by ctx.auth scopes: the writer writes, the reader is refused", async () => {
    const handler = app.httpHandler();
    server = createServer((req: IncomingMessage & { auth?: AuthInfo }, res) => {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      const known = token === undefined ? undefined : TOKENS[token];
      if (token && known) req.auth = { token, ...known };
      void handler(req, res);
    });
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    const writer = await httpClient(url, "writer-token");
    const reader = await httpClient(url, "reader-token");
    clients.push(writer, reader);

    const written = await writer.callTool({ name: "write_note", arguments: { text: "from writer" } });
    expect(written.isError, JSON.stringify(written.content)).toBeFalsy();
    expect(written.structuredContent).toEqual({ written: "from writer" });

    const refused = await reader.callTool({ name: "write_note", arguments: { text: "from reader" } });
    expect(refused).toMatchObject({
      isError: true,
      content: [{ type: "text", text: "forbidden: needs scope notes:write" }],
    });
    // The reader may still call what no interceptor guards.
    const notes = await reader.callTool({ name: "read_notes", arguments: {} });
    expect(notes.structuredContent).toEqual({ notes: ["from writer"] });

    const [writerCall, readerCall] = seen.requireWrite as [InterceptedCall, InterceptedCall];
    expect(writerCall.ctx.auth).toMatchObject({ token: "writer-token", clientId: "writer" });
    expect(writerCall.ctx.owner).toBe("principal:writer");
    expect(readerCall.ctx.auth?.scopes).toEqual(["notes:read"]);
    expect(readerCall.ctx.owner).toBe("principal:reader");
  });
});

// ---------------------------------------------------------------------------------------------
// Bad declarations fail at start-up
// ---------------------------------------------------------------------------------------------

describe("interceptors: bad declarations", () => {
  const FIX = "Fix: pass a class (built by the container) or an object with an intercept(call, next) method.";

  it("refuses a function that is not a class, on a method", async () => {
    const notAClass = () => ({ intercept: () => undefined });
    @McpService()
    class ArrowService {
      @Tool()
      @UseInterceptors(notAClass)
      run() {
        return 1;
      }
    }
    @McpModule({ services: [ArrowService] })
    class ArrowModule {}
    const failure = createTestClient(ArrowModule);
    await expect(failure).rejects.toBeInstanceOf(FrugalConfigError);
    await expect(failure).rejects.toThrow(
      `ArrowService.run: @UseInterceptors takes interceptor classes or instances with an \`intercept(call, next)\` method, not a function (notAClass). ${FIX}`,
    );
  });

  it("refuses a class without intercept, on a class", async () => {
    class ClassWithoutIntercept {
      handle() {}
    }
    @UseInterceptors(ClassWithoutIntercept)
    @McpService()
    class NoInterceptService {
      @Tool()
      run() {
        return 1;
      }
    }
    @McpModule({ services: [NoInterceptService] })
    class NoInterceptModule {}
    const failure = createTestClient(NoInterceptModule);
    await expect(failure).rejects.toBeInstanceOf(FrugalConfigError);
    await expect(failure).rejects.toThrow(
      `NoInterceptService: @UseInterceptors takes interceptor classes or instances with an \`intercept(call, next)\` method, not a function (ClassWithoutIntercept). ${FIX}`,
    );
  });

  it("refuses an object in the app's interceptors option", async () => {
    const failure = createTestClient(OrderedModule, { interceptors: [{} as never] });
    await expect(failure).rejects.toBeInstanceOf(FrugalConfigError);
    await expect(failure).rejects.toThrow(
      `McpFactory.create options: \`interceptors\` takes interceptor classes or instances with an \`intercept(call, next)\` method, not an object. ${FIX}`,
    );
  });
});

describe("interceptors: instances, and next() called twice", () => {
  /** An interceptor built by the user, with its own settings: refuses callers without `scope`. */
  class RequireScope implements Interceptor {
    constructor(private readonly scope: string) {}
    async intercept(call: InterceptedCall, next: Next) {
      if (!call.ctx.auth?.scopes.includes(this.scope)) throw new Error(`needs scope ${this.scope}`);
      return next();
    }
  }
  /** A buggy interceptor: it retries by calling next() again. */
  class RetryTwice implements Interceptor {
    async intercept(_call: InterceptedCall, next: Next) {
      await next();
      return next();
    }
  }
  let runs = 0;
  @McpService()
  class InstanceService {
    @Tool()
    @UseInterceptors(new RequireScope("admin"))
    guarded() {
      return "admin only";
    }

    @Tool()
    @UseInterceptors(RetryTwice)
    charge() {
      runs++;
      return `charged ${runs} time(s)`;
    }
  }
  @McpModule({ services: [InstanceService] })
  class InstanceModule {}

  it("takes an interceptor instance on a method and in the app's interceptors option", async () => {
    const seen: string[] = [];
    const appWide: Interceptor = {
      async intercept(call, next) {
        seen.push(call.name);
        return next();
      },
    };
    const client = await createTestClient(InstanceModule, { interceptors: [appWide] });
    try {
      const refused = await client.callTool({ name: "guarded", arguments: {} });
      expect(refused.isError).toBe(true);
      expect(texts(refused)).toEqual(["needs scope admin"]);
      expect(seen).toEqual(["guarded"]);
    } finally {
      await client.close();
    }
  });

  it("refuses a second next() naming the interceptor, and runs the handler once", async () => {
    const logged: string[] = [];
    const logger = {
      debug() {},
      info() {},
      warn() {},
      error: (message: string) => logged.push(message),
    };
    const client = await createTestClient(InstanceModule, {
      providers: [{ provide: LOGGER, useValue: logger }],
    });
    try {
      runs = 0;
      const result = await client.callTool({ name: "charge", arguments: {} });
      expect(result.isError).toBe(true);
      expect(texts(result)[0]).toContain(
        'Interceptor RetryTwice called next() twice in one call of tool "charge"',
      );
      expect(runs).toBe(1);
      expect(logged.some((line) => line.includes("RetryTwice called next() twice"))).toBe(true);
    } finally {
      await client.close();
    }
  });
});
