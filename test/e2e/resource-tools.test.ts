import {
  CLOCK,
  Injectable,
  type InterceptedCall,
  type Interceptor,
  ManualClock,
  McpModule,
  McpService,
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
    const matches = (found.structuredContent as { matches: Array<{ position: number }> }).matches;
    expect(matches.map((m) => m.position)).toEqual([4, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49]);
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
