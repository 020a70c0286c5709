import { ResourceListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import {
  Cached,
  CLOCK,
  createTestClient,
  Ephemeral,
  FrugalConfigError,
  ManualClock,
  McpModule,
  McpService,
  MemoryStorage,
  type ResourceStorage,
  STORAGE,
  type TestClient,
  Tool,
  type ToolContext,
} from "frugal-mcp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";

const LOG_LINES = Array.from(
  { length: 5000 },
  (_, i) =>
    `2026-11-29T10:${String(i % 60).padStart(2, "0")} ${i % 97 === 0 ? "ERROR" : "INFO"} request ${i}`,
);

@McpService()
class LogsService {
  @Tool({ input: { query: z.string() } })
  @Ephemeral({ ttl: 60_000, description: "matching log records" })
  searchLogs({ query }: { query: string }) {
    return LOG_LINES.filter((line) => line.includes(query)).map((line, i) => ({ i, line }));
  }

  @Tool()
  @Ephemeral({ ttl: 60_000 })
  rawLog() {
    return LOG_LINES.join("\n");
  }

  @Tool()
  @Ephemeral({ when: "always", scope: "global", name: "tiny report" })
  tinyReport() {
    return [{ ok: true }];
  }

  @Tool({ output: { rows: z.array(z.number()) } })
  @Ephemeral()
  typed() {
    return { rows: Array.from({ length: 5000 }, (_, i) => i) };
  }

  @Tool()
  @Ephemeral()
  binary() {
    return new Uint8Array(Array.from({ length: 100_000 }, (_, i) => i % 256));
  }

  @Tool({ input: { rows: z.number().int() } })
  async byHand({ rows }: { rows: number }, ctx: ToolContext) {
    const created = await ctx.resources.create(
      Array.from({ length: rows }, (_, i) => ({ i })),
      { name: "by hand" },
    );
    const updated = await ctx.resources.update(
      created.uri,
      Array.from({ length: rows + 1 }, (_, i) => ({ i })),
    );
    const slice = await ctx.resources.read(created.uri, { offset: rows - 1, limit: 5 });
    return { uri: created.uri, versions: [created.version, updated.version], last: slice.items };
  }

  @Tool({ input: { uri: z.string() } })
  async remove({ uri }: { uri: string }, ctx: ToolContext) {
    return { deleted: await ctx.resources.delete(uri) };
  }
}

@McpModule({ services: [LogsService] })
class LogsModule {}

type Link = { type: string; uri: string; name: string; mimeType?: string };

describe("@Ephemeral and the resource tools", () => {
  let t: TestClient;
  let clock: ManualClock;
  const call = (name: string, args: Record<string, unknown> = {}, client = t.client) =>
    client.callTool({ name, arguments: args });
  const spill = async (name: string, args: Record<string, unknown> = {}) => {
    const result = await call(name, args);
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const [link, summary] = result.content as [Link, { text: string }];
    expect(link.type).toBe("resource_link");
    return {
      link,
      summary: summary.text,
      structured: result.structuredContent as { spilled: { uri: string; expiresAt: string } },
    };
  };

  beforeEach(async () => {
    clock = new ManualClock(Date.UTC(2026, 10, 29, 12));
    t = await createTestClient(LogsModule, {
      providers: [{ provide: CLOCK, useValue: clock }],
      ephemeral: { maxBytesPerOwner: 2_000_000 },
    });
  });
  afterEach(() => t.close());

  it("returns a small result inline and spills a large one as a link and a summary", async () => {
    const small = await call("search_logs", { query: "request 4999" });
    expect(small.structuredContent).toBeUndefined();
    expect((small.content as Array<{ text: string }>)[0]?.text).toContain("request 4999");

    const { link, summary, structured } = await spill("search_logs", { query: "INFO" });
    expect(link.uri).toMatch(/^ephemeral:\/\/search_logs\/[A-Za-z0-9_-]{22}$/);
    expect(link.name).toBe("search_logs");
    expect(summary).toContain("a JSON array of 4948 items");
    // How long it is kept (a duration needs no clock to read); the instant is in structuredContent.
    expect(summary).toMatch(/^Stored for 1 min: /);
    expect(summary).not.toContain(link.uri);
    expect(structured.spilled.expiresAt).toBe("2026-11-29T12:01:00.000Z");
    expect(summary).toContain("read_resource");
    expect(summary).toMatch(/Preview \((first|start of the first)/);
    expect(structured.spilled.uri).toBe(link.uri);
  });

  it("lists the resource for its owner, reads it whole, and hides it from another session", async () => {
    const { link } = await spill("search_logs", { query: "INFO" });
    const { resources } = await t.client.listResources();
    expect(resources.map((r) => r.uri)).toContain(link.uri);
    const whole = await t.client.readResource({ uri: link.uri });
    expect(JSON.parse((whole.contents[0] as { text: string }).text)).toHaveLength(4948);

    const other = await t.connect();
    expect((await other.listResources()).resources.map((r) => r.uri)).not.toContain(link.uri);
    await expect(other.readResource({ uri: link.uri })).rejects.toMatchObject({
      code: -32002,
      data: { uri: link.uri },
    });
    const stolen = await call("read_resource", { uri: link.uri }, other);
    expect(stolen.isError).toBe(true);
    expect(JSON.stringify(stolen.content)).not.toContain("request");
  });

  it("reads slices held to the budget, each saying where the next starts and which version it read", async () => {
    const { link } = await spill("search_logs", { query: "INFO" });
    const first = (await call("read_resource", { uri: link.uri })).structuredContent as {
      items: Array<{ i: number }>;
      count: number;
      nextOffset: number;
      total: number;
      version: number;
    };
    expect(first.total).toBe(4948);
    expect(first.version).toBe(1);
    expect(first.count).toBeGreaterThan(10);
    expect(first.count).toBeLessThan(200);
    expect(first.nextOffset).toBe(first.count);
    const exact = (await call("read_resource", { uri: link.uri, offset: 4940, limit: 5 }))
      .structuredContent as {
      items: Array<{ i: number }>;
      nextOffset: number | null;
      hasMore: boolean;
    };
    expect(exact.items.map((x) => x.i)).toEqual([4940, 4941, 4942, 4943, 4944]);
    const last = (await call("read_resource", { uri: link.uri, offset: 4945, limit: 50 }))
      .structuredContent as {
      count: number;
      nextOffset: number | null;
      hasMore: boolean;
    };
    expect(last).toMatchObject({ count: 3, nextOffset: null, hasMore: false });
    const past = await call("read_resource", { uri: link.uri, offset: 99_999 });
    expect(JSON.stringify(past.content)).toContain("past the end");
  });

  it("reads text by line and binary content by byte", async () => {
    const text = await spill("raw_log");
    expect(text.summary).toContain("5000 lines of text");
    const lines = (await call("read_resource", { uri: text.link.uri, offset: 10, limit: 2 }))
      .structuredContent as {
      lines: string[];
    };
    expect(lines.lines).toEqual([LOG_LINES[10], LOG_LINES[11]]);
    const bytes = await spill("binary");
    expect(bytes.summary).toContain("100000 bytes");
    const chunk = (await call("read_resource", { uri: bytes.link.uri, offset: 256, limit: 4 }))
      .structuredContent as {
      bytes: string;
    };
    expect([...Buffer.from(chunk.bytes, "base64")]).toEqual([0, 1, 2, 3]);
  });

  it("searches literally by default, with RE2 regexes on demand, in linear time", async () => {
    const { link } = await spill("raw_log");
    const literal = (await call("search_resource", { uri: link.uri, pattern: "ERROR", limit: 3 }))
      .structuredContent as {
      matches: Array<{ index: number; offset: number; text: string }>;
      nextOffset: number;
      hasMore: boolean;
      total: number;
    };
    expect(literal.matches.map((m) => m.index)).toEqual([0, 97, 194]);
    expect(literal.matches.every((m) => m.text.slice(m.offset).startsWith("ERROR"))).toBe(true);
    expect(literal).toMatchObject({ nextOffset: 291, hasMore: true, total: 5000 });
    const dotIsLiteral = (await call("search_resource", { uri: link.uri, pattern: "request 4.9" }))
      .structuredContent as {
      count: number;
    };
    expect(dotIsLiteral.count).toBe(0);
    const regex = (
      await call("search_resource", { uri: link.uri, pattern: "request 49[0-9]9$", regex: true })
    ).structuredContent as { matches: Array<{ text: string }> };
    expect(regex.matches.map((m) => m.text.split(" ").pop())).toEqual(
      Array.from({ length: 10 }, (_, i) => `49${i}9`),
    );
    const started = performance.now();
    const hostile = await call("search_resource", { uri: link.uri, pattern: "(a+)+$", regex: true });
    expect(hostile.isError).toBeFalsy();
    expect(performance.now() - started).toBeLessThan(2000);
    const broken = await call("search_resource", { uri: link.uri, pattern: "(?=x)", regex: true });
    expect(broken.isError).toBe(true);
    expect(JSON.stringify(broken.content)).toContain("RE2");
  });

  it("stores every result with when: always, and a global resource is visible to everyone", async () => {
    const { link, summary } = await spill("tiny_report");
    expect(summary).not.toContain("larger than");
    expect(link.name).toBe("tiny report");
    const other = await t.connect();
    const read = await other.readResource({ uri: link.uri });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toEqual([{ ok: true }]);
  });

  it("widens a declared outputSchema to the spilled shape (the SDK client validates it)", async () => {
    const { tools } = await t.client.listTools();
    const schema = tools.find((tool) => tool.name === "typed")?.outputSchema as {
      type: string;
      anyOf: unknown[];
    };
    expect(schema.type).toBe("object");
    expect(schema.anyOf).toHaveLength(2);
    const { structured } = await spill("typed");
    expect(structured.spilled.uri).toMatch(/^ephemeral:\/\/typed\//);
  });

  it("creates, updates (bumping the version), reads and deletes by hand, notifying list changes", async () => {
    let changes = 0;
    t.client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      changes++;
    });
    const made = (await call("by_hand", { rows: 10 })).structuredContent as {
      uri: string;
      versions: number[];
      last: unknown[];
    };
    expect(made.versions).toEqual([1, 2]);
    expect(made.last).toEqual([{ i: 9 }, { i: 10 }]);
    const other = await t.connect();
    expect((await call("remove", { uri: made.uri }, other)).structuredContent).toEqual({ deleted: false });
    expect((await call("remove", { uri: made.uri })).structuredContent).toEqual({ deleted: true });
    await expect(t.client.readResource({ uri: made.uri })).rejects.toMatchObject({ code: -32002 });
    await expect.poll(() => changes).toBe(2);
  });

  it("expires resources by the app's clock", async () => {
    const { link } = await spill("search_logs", { query: "INFO" });
    clock.advance(60_001);
    await expect(t.client.readResource({ uri: link.uri })).rejects.toMatchObject({ code: -32002 });
    expect((await call("read_resource", { uri: link.uri })).isError).toBe(true);
    expect((await t.client.listResources()).resources.map((r) => r.uri)).not.toContain(link.uri);
  });

  it("refuses a write past the owner's quota with a clear error and no link", async () => {
    const { link } = await spill("search_logs", { query: "INFO" });
    const size = Number(
      (await t.client.listResources()).resources.find((r) => r.uri === link.uri)?._meta?.size,
    );
    expect(size).toBeGreaterThan(200_000);
    const quota = await createTestClient(LogsModule, { ephemeral: { maxBytesPerOwner: size * 2 + 10 } });
    const run = () => quota.client.callTool({ name: "search_logs", arguments: { query: "INFO" } });
    expect((await run()).isError).toBeFalsy();
    expect((await run()).isError).toBeFalsy();
    const refused = await run();
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain("quota");
    expect(JSON.stringify(refused.content)).not.toContain("ephemeral://");
    // Another owner has a quota of its own.
    const other = await quota.connect();
    expect((await other.callTool({ name: "search_logs", arguments: { query: "INFO" } })).isError).toBeFalsy();
    await quota.close();
  });

  it("fails the call, with the reason and no link, when storage fails", async () => {
    const broken: ResourceStorage = Object.assign(new MemoryStorage(), {
      put: async () => {
        throw new Error("disk on fire");
      },
    });
    const failing = await createTestClient(LogsModule, {
      providers: [{ provide: STORAGE, useValue: broken }],
    });
    const result = await failing.client.callTool({ name: "search_logs", arguments: { query: "INFO" } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("could not store the result");
    expect(JSON.stringify(result.content)).not.toContain("ephemeral://");
    await failing.close();
  });

  it("deletes a session's resources when it ends, if configured", async () => {
    const storage = new MemoryStorage();
    const cleaning = await createTestClient(LogsModule, {
      providers: [{ provide: STORAGE, useValue: storage }],
      ephemeral: { deleteOnSessionEnd: true },
    });
    const session = await cleaning.connect();
    await session.callTool({ name: "search_logs", arguments: { query: "INFO" } });
    const count = async () => {
      let n = 0;
      for await (const _ of storage.list()) n++;
      return n;
    };
    expect(await count()).toBe(1);
    await session.close();
    await expect.poll(count).toBe(0);
    await cleaning.close();
  });
});

describe("ephemeral resources under concurrency", () => {
  it("serializes concurrent updates and keeps concurrent creates within the quota", async () => {
    const clock = new ManualClock(0);
    const { EphemeralResources } = await import("../../src/ephemeral/ephemeral-resources.js");
    const logger = { debug() {}, info() {}, warn() {}, error() {} };
    const resources = new EphemeralResources(new MemoryStorage(), clock, logger, { maxBytesPerOwner: 1000 });
    const made = await resources.create(["a"], { tool: "t" }, "session:x");
    const versions = await Promise.all(
      Array.from({ length: 5 }, (_, i) => resources.update(made.uri, [`v${i}`], "session:x")),
    );
    expect(versions.map((v) => v.version)).toEqual([2, 3, 4, 5, 6]);
    const big = "x".repeat(300);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 5 }, () => resources.create(big, { tool: "t" }, "session:y")),
    );
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(3);
    expect(
      outcomes.filter((o) => o.status === "rejected").map((o) => String((o as PromiseRejectedResult).reason)),
    ).toEqual([expect.stringContaining("quota"), expect.stringContaining("quota")]);
  });
});

describe("quota accounting when storage expires resources on its own", () => {
  it("recounts before refusing, so resources gone from storage no longer count", async () => {
    const { EphemeralResources } = await import("../../src/ephemeral/ephemeral-resources.js");
    const storage = new MemoryStorage();
    const logger = { debug() {}, info() {}, warn() {}, error() {} };
    const resources = new EphemeralResources(storage, new ManualClock(0), logger, { maxBytesPerOwner: 700 });
    const first = await resources.create("x".repeat(300), { tool: "t" }, "principal:ann");
    await resources.create("x".repeat(300), { tool: "t" }, "principal:ann");
    await expect(resources.create("x".repeat(300), { tool: "t" }, "principal:ann")).rejects.toThrow(/quota/);
    // As Redis does at a TTL, or another instance's sweep: the resource vanishes behind our back.
    await storage.delete(first.id);
    const third = await resources.create("x".repeat(300), { tool: "t" }, "principal:ann");
    expect(third.uri).toMatch(/^ephemeral:\/\//);
  });
});

describe("resources/read of a large ephemeral resource", () => {
  it("refuses a resource over maxReadBytes and points to read_resource", async () => {
    const t = await createTestClient(LogsModule, { ephemeral: { maxReadBytes: 10_000 } });
    const result = await t.callTool({ name: "search_logs", arguments: { query: "INFO" } });
    const link = (result.content as Array<{ uri: string }>)[0] as { uri: string };
    await expect(t.readResource({ uri: link.uri })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("read_resource"),
    });
    expect(
      (await t.callTool({ name: "read_resource", arguments: { uri: link.uri, limit: 2 } })).isError,
    ).toBeFalsy();
    await t.close();
  });
});

describe("@Cached with @Ephemeral", () => {
  it("is refused at start-up, naming the method and the fix, in either order", async () => {
    @McpService()
    class SearchService {
      @Tool({ input: { query: z.string() } })
      @Ephemeral()
      @Cached({ ttl: 60_000 })
      search({ query }: { query: string }) {
        return LOG_LINES.filter((line) => line.includes(query));
      }
    }
    @McpModule({ services: [SearchService] })
    class SearchModule {}
    const refusal = createTestClient(SearchModule);
    await expect(refusal).rejects.toBeInstanceOf(FrugalConfigError);
    await expect(refusal).rejects.toThrow(
      /SearchService\.search: @Cached cannot be combined with @Ephemeral: .*never cached.*Fix: remove @Cached .*or remove @Ephemeral/,
    );

    @McpService()
    class AlwaysService {
      @Cached({ ttl: 60_000, scope: "global" })
      @Tool()
      @Ephemeral({ when: "always" })
      export() {
        return [1, 2, 3];
      }
    }
    @McpModule({ services: [AlwaysService] })
    class AlwaysModule {}
    await expect(createTestClient(AlwaysModule)).rejects.toThrow(
      /AlwaysService\.export: @Cached cannot be combined with @Ephemeral/,
    );
  });

  it("still lets a subclass drop @Cached by re-decorating the method with @Ephemeral alone", async () => {
    let runs = 0;
    @McpService()
    class Parent {
      @Tool()
      @Cached({ ttl: 60_000 })
      report() {
        runs++;
        return ["small"];
      }
    }
    @McpService()
    class Child extends Parent {
      @Tool()
      @Ephemeral({ when: "always" })
      override report() {
        runs++;
        return ["small"];
      }
    }
    @McpModule({ services: [Child] })
    class ChildModule {}
    const t = await createTestClient(ChildModule);
    try {
      for (let i = 0; i < 2; i++) {
        const result = await t.client.callTool({ name: "report", arguments: {} });
        expect((result.content as Link[])[0]?.type).toBe("resource_link");
      }
      expect(runs).toBe(2);
    } finally {
      await t.close();
    }
  });
});
