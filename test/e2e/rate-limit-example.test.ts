/** examples/rate-limit: a user's own @RateLimit, written with the capability API, over a real Redis. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import {
  CLOCK,
  createTestClient,
  defineCapability,
  FrugalConfigError,
  ManualClock,
  McpFactory,
  McpModule,
  McpService,
  Prompt,
  type TestClient,
  Tool,
} from "frugal-mcp";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { NotesModule } from "../../examples/rate-limit/app.module.js";
import { NotesService } from "../../examples/rate-limit/notes.service.js";
import { RateLimit } from "../../examples/rate-limit/rate-limit.capability.js";
import { deletePrefix, randomPrefix, redisAvailable } from "../support/services.js";

const available = await redisAvailable();
const prefix = randomPrefix("rate-limit-example");
const textOf = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;

describe.runIf(available)("examples/rate-limit", () => {
  const clients: TestClient[] = [];
  // One clock for every app of a test: two instances agree on the window, as real ones do.
  let clock: ManualClock;

  async function instance(testPrefix: string) {
    process.env.RATE_LIMIT_PREFIX = testPrefix;
    const client = await createTestClient(NotesModule, { providers: [{ provide: CLOCK, useValue: clock }] });
    clients.push(client);
    return client;
  }
  const search = (client: TestClient, query = "timeout") =>
    client.callTool({ name: "search", arguments: { query } });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  afterAll(async () => {
    delete process.env.RATE_LIMIT_PREFIX;
    await deletePrefix(prefix);
  });

  it("serves 5 calls a minute per caller, refuses the 6th before the cache and the handler, and counts cache hits", async () => {
    clock = new ManualClock(Date.UTC(2026, 11, 2, 10, 0, 0));
    const client = await instance(`${prefix}a:`);
    const notes = client.app.get(NotesService);
    for (let i = 1; i <= 5; i++) expect((await search(client)).isError, `call ${i}`).toBeFalsy();
    // The first call ran the handler; the next four were cache hits, each counted.
    expect(notes.searches).toBe(1);
    const refused = await search(client);
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe("Rate limit: search takes 5 calls per minute per caller; retry in 60 s");
    expect(notes.searches).toBe(1);
  });

  it("opens a new window when the clock moves on", async () => {
    clock = new ManualClock(Date.UTC(2026, 11, 2, 11, 0, 0));
    const client = await instance(`${prefix}b:`);
    for (let i = 0; i < 5; i++) await search(client);
    clock.advance(30_000);
    expect(textOf(await search(client))).toContain("retry in 30 s");
    clock.advance(30_000);
    expect((await search(client)).isError).toBeFalsy();
  });

  it("shares the count of one caller between two instances over the same Redis", async () => {
    clock = new ManualClock(Date.UTC(2026, 11, 2, 12, 0, 0));
    process.env.RATE_LIMIT_PREFIX = `${prefix}c:`;
    // Alice is one principal (one owner) on both instances; Bob is another.
    const authenticate = (req: { headers: { authorization?: string } }) =>
      req.headers.authorization?.replace(/^Bearer /, "") || undefined;
    const apps = await Promise.all(
      [0, 1].map(() =>
        McpFactory.create(NotesModule, {
          name: "notes",
          version: "1.0.0",
          providers: [{ provide: CLOCK, useValue: clock }],
        }),
      ),
    );
    try {
      const urls = await Promise.all(
        apps.map(async (app) => (await app.listen({ transport: "http", port: 0, authenticate })).url),
      );
      const connect = async (url: string, who: string) => {
        const client = new Client({ name: who, version: "1.0.0" });
        await client.connect(
          new StreamableHTTPClientTransport(new URL(url), {
            requestInit: { headers: { authorization: `Bearer ${who}` } },
          }),
        );
        return client;
      };
      const [aliceOnA, aliceOnB, bobOnB] = await Promise.all([
        connect(urls[0] as string, "alice"),
        connect(urls[1] as string, "alice"),
        connect(urls[1] as string, "bob"),
      ]);
      const call = (client: Client) => client.callTool({ name: "search", arguments: { query: "timeout" } });
      for (let i = 0; i < 3; i++) expect((await call(aliceOnA)).isError).toBeFalsy();
      for (let i = 0; i < 2; i++) expect((await call(aliceOnB)).isError).toBeFalsy();
      expect((await call(aliceOnB)).isError).toBe(true);
      expect((await call(aliceOnA)).isError).toBe(true);
      expect((await call(bobOnB)).isError).toBeFalsy();
      await Promise.all([aliceOnA, aliceOnB, bobOnB].map((client) => client.close()));
    } finally {
      await Promise.all(apps.map((app) => app.close()));
    }
  });

  it("limits a resource read with a JSON-RPC error", async () => {
    clock = new ManualClock(Date.UTC(2026, 11, 2, 13, 0, 0));
    const client = await instance(`${prefix}d:`);
    await client.readResource({ uri: "notes://all" });
    await client.readResource({ uri: "notes://all" });
    await expect(client.readResource({ uri: "notes://all" })).rejects.toThrow(
      "Rate limit: notes://all takes 2 calls per second per caller; retry in 1 s",
    );
  });

  it("fails start-up naming the method for a bad limit or window, or a prompt it does not take", async () => {
    @McpService()
    class BadLimitService {
      @Tool()
      @RateLimit(0)
      run() {
        return 1;
      }
    }
    @McpModule({ services: [BadLimitService] })
    class BadLimitModule {}
    const badLimit = createTestClient(BadLimitModule);
    await expect(badLimit).rejects.toBeInstanceOf(FrugalConfigError);
    await expect(badLimit).rejects.toThrow(
      "BadLimitService.run: @RateLimit takes a whole number of calls of at least 1, not 0. Fix: e.g. @RateLimit(5).",
    );

    @McpService()
    class BadWindowService {
      @Tool()
      @RateLimit(3, { per: "day" as never })
      run() {
        return 1;
      }
    }
    @McpModule({ services: [BadWindowService] })
    class BadWindowModule {}
    await expect(createTestClient(BadWindowModule)).rejects.toThrow(
      'BadWindowService.run: @RateLimit takes `per` as one of second, minute, hour, not "day"',
    );

    const ToolsOnly = defineCapability({
      name: "toolsOnly",
      decorator: "@ToolsOnly",
      on: ["tool"],
      options: () => ({}),
    });
    @McpService()
    class PromptService {
      @Prompt()
      @ToolsOnly()
      greet() {
        return "hi";
      }
    }
    @McpModule({ services: [PromptService] })
    class PromptModule {}
    await expect(createTestClient(PromptModule)).rejects.toThrow(
      "PromptService.greet: @ToolsOnly applies to tools only. Fix: remove @ToolsOnly, or make this method a @Tool.",
    );
  });

  it("refuses @RateLimit on a method that is no tool, resource or prompt", async () => {
    @McpService()
    class OrphanService {
      @RateLimit(5)
      helper() {
        return 1;
      }
    }
    @McpModule({ services: [OrphanService] })
    class OrphanModule {}
    await expect(createTestClient(OrphanModule)).rejects.toThrow(
      "OrphanService.helper: has @RateLimit but is not a @Tool, @Resource or @Prompt",
    );
  });
});
