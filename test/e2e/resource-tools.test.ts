import {
  CLOCK,
  Injectable,
  type InterceptedCall,
  type Interceptor,
  ManualClock,
  McpModule,
  McpService,
  Paginated,
  type ProtocolResult,
  Resource,
  resourceNotFound,
  Tool,
  type ToolContext,
  UseInterceptors,
} from "frugal-mcp";
import { createTestClient, type TestClient } from "frugal-mcp/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const LINES = Array.from({ length: 50 }, (_, i) => `line ${i} of the changelog`);
let settings: Record<string, unknown> = { theme: "dark", limits: { perPage: 20, max: 100 } };

@Injectable()
class NoSecrets implements Interceptor {
  intercept(call: InterceptedCall, next: () => Promise<ProtocolResult>) {
    if (call.uri?.includes("secret")) throw new Error("secrets are not readable here");
    return next();
  }
}

@McpService()
class DocsService {
  @Resource("docs://changelog", { mimeType: "text/plain" })
  changelog() {
    return LINES.join("\n");
  }

  @Resource("docs://settings", { mimeType: "application/json" })
  settings() {
    return settings;
  }

  @Resource("docs://releases", { mimeType: "application/json" })
  releases() {
    return Array.from({ length: 30 }, (_, i) => ({ version: `1.${i}.0` }));
  }

  @Resource("files://logo.png", { mimeType: "image/png" })
  logo() {
    return new Uint8Array(Array.from({ length: 1000 }, (_, i) => i % 256));
  }

  @Resource("users://{id}/profile", { mimeType: "application/json" })
  profile({ id }: { id: string }) {
    if (id === "ghost") throw resourceNotFound(`users://${id}/profile`);
    return { id, name: `User ${id}` };
  }

  @UseInterceptors(NoSecrets)
  @Resource("vault://{name}", { mimeType: "text/plain" })
  vault({ name }: { name: string }) {
    return `contents of ${name}`;
  }
}

@McpModule({ services: [DocsService] })
class DocsModule {}

type Slice = {
  uri: string;
  version: number;
  kind: string;
  offset: number;
  count: number;
  total: number;
  nextOffset: number | null;
  hasMore: boolean;
  items?: unknown[];
  lines?: string[];
  bytes?: string;
};

describe("read_resource and search_resource on every resource", () => {
  let t: TestClient;
  beforeAll(async () => {
    t = await createTestClient(DocsModule, { ephemeral: { tools: true } });
  });
  afterAll(() => t.close());

  const read = async (args: Record<string, unknown>) => {
    const result = await t.callTool({ name: "read_resource", arguments: args });
    return result as { isError?: boolean; structuredContent?: Slice; content: Array<{ text?: string }> };
  };

  it("reads a static text resource by line, in slices that say where the next starts", async () => {
    const first = await read({ uri: "docs://changelog", limit: 20 });
    expect(first.isError).toBeFalsy();
    expect(first.structuredContent).toMatchObject({
      kind: "text",
      offset: 0,
      count: 20,
      total: 50,
      nextOffset: 20,
    });
    expect(first.structuredContent?.lines?.[0]).toBe("line 0 of the changelog");
    const last = await read({ uri: "docs://changelog", offset: 40, limit: 20 });
    expect(last.structuredContent).toMatchObject({ count: 10, nextOffset: null, hasMore: false });
    expect(last.structuredContent?.version).toBe(first.structuredContent?.version);
  });

  it("reads a JSON array by item and a JSON object by line of its pretty-printed text", async () => {
    const releases = await read({ uri: "docs://releases", offset: 10, limit: 5 });
    expect(releases.structuredContent).toMatchObject({ kind: "json-array", total: 30, count: 5 });
    expect(releases.structuredContent?.items?.[0]).toEqual({ version: "1.10.0" });
    const config = await read({ uri: "docs://settings" });
    expect(config.structuredContent?.kind).toBe("text");
    expect(config.structuredContent?.lines).toContain('  "theme": "dark",');
  });

  it("reads a binary resource by byte, as base64", async () => {
    const slice = await read({ uri: "files://logo.png", offset: 256, limit: 4 });
    expect(slice.structuredContent).toMatchObject({ kind: "bytes", total: 1000, count: 4, nextOffset: 260 });
    expect([...Buffer.from(slice.structuredContent?.bytes ?? "", "base64")]).toEqual([0, 1, 2, 3]);
  });

  it("reads a template instance with its variables", async () => {
    const slice = await read({ uri: "users://42/profile" });
    expect(slice.structuredContent?.lines?.join("\n")).toContain('"name": "User 42"');
  });

  it("says when the content changed between slices (the version follows the content)", async () => {
    const before = await read({ uri: "docs://settings", limit: 1 });
    settings = { ...settings, theme: "light" };
    const after = await read({ uri: "docs://settings", limit: 1 });
    expect(after.structuredContent?.version).not.toBe(before.structuredContent?.version);
  });

  it("searches a static resource by line", async () => {
    const found = await t.callTool({
      name: "search_resource",
      arguments: { uri: "docs://changelog", pattern: "line 4" },
    });
    const matches = (found.structuredContent as { matches: Array<{ index: number }> }).matches;
    expect(matches.map((m) => m.index)).toEqual([4, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49]);
  });

  it("answers an unknown URI as unknown, without suggesting it belongs to someone", async () => {
    const unknown = await read({ uri: "nothing://here" });
    expect(unknown.isError).toBe(true);
    expect(unknown.content[0]?.text).toMatch(/^Unknown resource: nothing:\/\/here\./);
  });

  it("passes on a resource's own refusal as the tool's error", async () => {
    const ghost = await read({ uri: "users://ghost/profile" });
    expect(ghost.isError).toBe(true);
    expect(ghost.content[0]?.text).toMatch(/^Cannot read users:\/\/ghost\/profile: .*not found/i);
  });

  it("applies the resource's own interceptors, as resources/read does", async () => {
    const refused = await read({ uri: "vault://secret-keys" });
    expect(refused.isError).toBe(true);
    expect(refused.content[0]?.text).toContain("secrets are not readable here");
    await expect(t.readResource({ uri: "vault://secret-keys" })).rejects.toThrow(
      "secrets are not readable here",
    );
    const allowed = await read({ uri: "vault://notes" });
    expect(allowed.structuredContent?.lines).toEqual(["contents of notes"]);
  });
});

describe("read_resource tells an expired resource from an unknown one", () => {
  @McpService()
  class NotesService {
    @Tool({ description: "Stores a note for a minute", input: {} })
    async note(_input: unknown, ctx: ToolContext) {
      return (await ctx.resources.create(["a", "b"], { ttl: 60_000 })).uri;
    }
  }
  @McpModule({ services: [NotesService] })
  class NotesModule {}

  it("answers 'Expired resource' for the caller's expired one, 'Unknown resource' for another owner's", async () => {
    const clock = new ManualClock(Date.parse("2026-11-30T12:00:00Z"));
    const t = await createTestClient(NotesModule, {
      ephemeral: { tools: true, sweepIntervalMs: 3_600_000 },
      providers: [{ provide: CLOCK, useValue: clock }],
    });
    try {
      const made = await t.callTool({ name: "note", arguments: {} });
      const uri = (made.content as Array<{ text: string }>)[0]?.text ?? "";
      const fresh = await t.callTool({ name: "read_resource", arguments: { uri } });
      expect(fresh.isError).toBeFalsy();
      clock.advance(61_000);
      const stale = await t.callTool({ name: "read_resource", arguments: { uri } });
      expect(stale.isError).toBe(true);
      expect((stale.content as Array<{ text: string }>)[0]?.text).toBe(
        `Expired resource: ${uri} expired at 2026-11-30T12:01:00.000Z. Run the tool that made it again to get a fresh one.`,
      );
      // Another session never learns that it existed.
      const other = await t.connect();
      const foreign = await other.callTool({ name: "read_resource", arguments: { uri } });
      expect((foreign.content as Array<{ text: string }>)[0]?.text).toMatch(/^Unknown resource: /);
    } finally {
      await t.close();
    }
  });
});

describe("read_resource and search_resource walk a paginated resource's pages", () => {
  /** 120 events, 25 a page: the needle is on page 4 (position 97). */
  const EVENTS = Array.from({ length: 120 }, (_, i) => ({
    id: i,
    text: i === 97 ? "the needle is here" : `event ${i}`,
  }));
  const clock = new ManualClock(Date.parse("2026-11-30T12:00:00Z"));
  /** Pages read of `slow://events`; each one takes a (manual) second. */
  let slowPages = 0;

  @McpService()
  class EventsService {
    @Resource("events://log", { mimeType: "application/json" })
    @Paginated("id", { limit: 25, maxLimit: 50 })
    events() {
      return EVENTS;
    }

    @Resource("slow://events", { mimeType: "application/json" })
    @Paginated("id", { limit: 25 })
    slow() {
      slowPages++;
      clock.advance(1_000);
      return EVENTS;
    }

    @Resource("broken://events", { mimeType: "application/json" })
    @Paginated("id", { limit: 25 })
    broken(_input: unknown, ctx: ToolContext) {
      if (ctx.page?.after !== null) throw new Error("the events database went away");
      return EVENTS;
    }
  }
  @McpModule({ services: [EventsService] })
  class EventsModule {}

  let t: TestClient;
  beforeAll(async () => {
    t = await createTestClient(EventsModule, {
      ephemeral: { tools: true },
      providers: [{ provide: CLOCK, useValue: clock }],
    });
  });
  afterAll(() => t.close());

  type Found = {
    matches: Array<{ index: number; item: { id: number } }>;
    total: number;
    hasMore: boolean;
    partial?: boolean;
    continueUri?: string;
    hint?: string;
  };
  const search = async (uri: string, pattern: string, client = t.client) => {
    const args = { uri, pattern, whole: true };
    const result = await client.callTool({ name: "search_resource", arguments: args });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    return result.structuredContent as Found;
  };

  it("finds text on page 4 and reads items past the first page", async () => {
    const found = await search("events://log", "needle");
    expect(found.matches.map((m) => [m.index, m.item.id])).toEqual([[97, 97]]);
    expect(found).toMatchObject({ total: 120, hasMore: false });
    expect(found.partial).toBeUndefined();
    const slice = await t.client.callTool({
      name: "read_resource",
      arguments: { uri: "events://log", offset: 95, limit: 5 },
    });
    const content = slice.structuredContent as Omit<Slice, "items"> & { items: Array<{ id: number }> };
    expect(content.items.map((item) => item.id)).toEqual([95, 96, 97, 98, 99]);
    expect(content).toMatchObject({ kind: "json-array", total: 120, nextOffset: 100, hasMore: true });
    // A page size in the URI is the walk's page size; the items are the same.
    const bigPages = await search("events://log?limit=50", "needle");
    expect(bigPages.matches.map((m) => m.index)).toEqual([97]);
  });

  it("stops a long walk at its bound and says plainly how to go on", async () => {
    slowPages = 0;
    const first = await search("slow://events", "needle");
    // 2 s of walking by the app's clock: two pages of 25.
    expect(slowPages).toBe(2);
    expect(first).toMatchObject({ matches: [], total: 50, partial: true });
    expect(first.hint).toMatch(/only the first 2 pages \(50 items\)/i);
    expect(first.hint).toContain(first.continueUri);
    expect(first.continueUri).toMatch(/^slow:\/\/events\?cursor=[A-Za-z0-9_.~-]+$/);
    const second = await search(first.continueUri as string, "needle");
    expect(second.matches.map((m) => m.item.id)).toEqual([97]);
    expect(second.matches[0]?.index).toBe(47);
    expect(second.partial).toBe(true);
    const last = await search(second.continueUri as string, "event");
    expect(last.matches.map((m) => m.item.id)).toEqual(Array.from({ length: 20 }, (_, i) => 100 + i));
    expect(last.partial).toBeUndefined();
    expect(last.continueUri).toBeUndefined();
    // read_resource says the same of its slices.
    const read = await t.client.callTool({
      name: "read_resource",
      arguments: { uri: "slow://events", limit: 3 },
    });
    expect(read.structuredContent).toMatchObject({ total: 50, partial: true, count: 3, nextOffset: 3 });
  });

  it("bounds the walk by items with ephemeral.maxWalkItems", async () => {
    const small = await createTestClient(EventsModule, { ephemeral: { tools: true, maxWalkItems: 60 } });
    try {
      const found = await search("events://log", "needle", small.client);
      // Whole pages: the walk stops after the page that reaches 60 items.
      expect(found).toMatchObject({ matches: [], total: 75, partial: true });
      const rest = await search(found.continueUri as string, "needle", small.client);
      expect(rest.matches.map((m) => m.item.id)).toEqual([97]);
    } finally {
      await small.close();
    }
  });

  it("fails with the page's own error when a later page fails, and refuses a bad cursor", async () => {
    const broken = await t.client.callTool({
      name: "search_resource",
      arguments: { uri: "broken://events", pattern: "needle" },
    });
    expect(broken.isError).toBe(true);
    expect((broken.content as Array<{ text: string }>)[0]?.text).toMatch(
      /^Cannot read page 2 of broken:\/\/events: .*the events database went away/,
    );
    const forged = await t.client.callTool({
      name: "read_resource",
      arguments: { uri: "events://log?cursor=not-a-cursor" },
    });
    expect(forged.isError).toBe(true);
    expect((forged.content as Array<{ text: string }>)[0]?.text).toMatch(
      /^Cannot read events:\/\/log\?cursor=not-a-cursor: /,
    );
  });
});
