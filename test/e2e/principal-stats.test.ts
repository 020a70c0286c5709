/**
 * `app.stats().principals`: calls and tokens out per principal, through real SDK clients
 * over Streamable HTTP with two authenticated principals and an anonymous in-memory session.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Budget, type McpApp, McpFactory, McpModule, McpService, Tool } from "frugal-mcp";
import { tokensOf } from "frugal-mcp/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { authenticate } from "../support/front-door.js";

@McpService()
class WordsService {
  @Tool({ input: { n: z.number().int().min(1).max(200) } })
  @Budget(1_000)
  words({ n }: { n: number }) {
    return Array.from({ length: n }, (_, i) => `word${i}`).join(" ");
  }

  @Tool()
  ping() {
    return "pong";
  }
}

@McpModule({ services: [WordsService] })
class WordsModule {}

describe("app.stats().principals", () => {
  let app: McpApp;
  let url: string;
  const clients: Client[] = [];
  beforeAll(async () => {
    app = await McpFactory.create(WordsModule, { name: "words", version: "1.0.0" });
    url = (await app.listen({ transport: "http", port: 0, authenticate })).url as string;
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await app.close();
  });

  async function connect(token: string) {
    const client = new Client({ name: "t", version: "1.0.0" });
    clients.push(client);
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    return client;
  }

  it("counts each principal's calls and the tokens a budget counted, apart", async () => {
    const [alice, bob] = [await connect("good-alice"), await connect("good-bob")];
    const first = await alice.callTool({ name: "words", arguments: { n: 50 } });
    const second = await alice.callTool({ name: "words", arguments: { n: 10 } });
    await alice.callTool({ name: "ping", arguments: {} });
    const bobs = await bob.callTool({ name: "words", arguments: { n: 100 } });
    await expect.poll(() => app.stats().principals.byPrincipal["principal:alice"]?.calls).toBe(3);
    const { byPrincipal, others } = app.stats().principals;
    // `ping` has no budget: its call counts, its tokens are not counted.
    // Keyed by owner, as `ctx.owner` names it: `principal:<name>`, or `session:<id>` when anonymous.
    expect(byPrincipal["principal:alice"]).toEqual({
      calls: 3,
      tokensOut: tokensOf(first) + tokensOf(second),
    });
    expect(byPrincipal["principal:bob"]).toEqual({ calls: 1, tokensOut: tokensOf(bobs) });
    expect(others).toEqual({ calls: 0, tokensOut: 0, principals: 0 });
  });
});
