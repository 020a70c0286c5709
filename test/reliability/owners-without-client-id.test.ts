/**
 * Issue 13, finding 9: auth info without a client id. Each principal is owned by a
 * SHA-256 digest of its token (never the token itself), so two principals never share
 * ephemeral resources or cache entries, over Streamable HTTP with `req.auth` set by the
 * server that mounts `app.httpHandler()`.
 *
 *   npx vitest run test/reliability/owners-without-client-id.test.ts
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { Cached, type McpApp, McpFactory, McpModule, McpService, Tool, type ToolContext } from "frugal-mcp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

@McpService()
class NotesService {
  runs = 0;

  @Tool()
  whoami(_input: unknown, ctx: ToolContext) {
    return { owner: ctx.owner };
  }

  @Tool()
  async save(_input: unknown, ctx: ToolContext) {
    const info = await ctx.resources.create(`private notes of ${ctx.owner}`, { name: "notes" });
    return { uri: info.uri };
  }

  @Tool()
  async saveAt(_input: unknown, ctx: ToolContext) {
    const info = await ctx.resources.create(`notes at a chosen URI, of ${ctx.owner}`, {
      uri: "notes://mine",
    });
    return { uri: info.uri };
  }

  /** Owner-scoped (the default for tools): each owner has its own entry. */
  @Tool()
  @Cached({ ttl: 60_000 })
  profile(_input: unknown, ctx: ToolContext) {
    this.runs++;
    return { run: this.runs, owner: ctx.owner };
  }
}

@McpModule({ services: [NotesService] })
class NotesModule {}

/** Tokens the mounting server accepts: auth info with a token and scopes, but no client id. */
const TOKENS = new Set(["alice-token-5f1c", "bob-token-9a7e"]);

async function httpClient(url: string, token: string): Promise<Client> {
  const client = new Client({ name: "owners-test", version: "0.0.0" });
  const headers = { authorization: `Bearer ${token}` };
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

const structured = <T>(result: unknown) => (result as { structuredContent?: unknown }).structuredContent as T;

describe("principals without a client id", () => {
  let app: McpApp;
  let server: Server;
  let url: string;
  const clients: Client[] = [];

  beforeEach(async () => {
    app = await McpFactory.create(NotesModule, {
      name: "notes",
      version: "1.0.0",
      ephemeral: { tools: true },
    });
    const handler = app.httpHandler();
    server = createServer((req: IncomingMessage & { auth?: AuthInfo }, res) => {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      if (token && TOKENS.has(token)) {
        // What a token verifier that knows no client ids hands over.
        req.auth = { token, clientId: undefined as unknown as string, scopes: ["notes"] };
      }
      void handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });

  afterEach(async () => {
    await Promise.allSettled(clients.splice(0).map((c) => c.close()));
    await app.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const connect = async (token: string) => {
    const client = await httpClient(url, token);
    clients.push(client);
    return client;
  };

  it("gives each token its own owner: a digest, never the token, the same across sessions", async () => {
    const alice = await connect("alice-token-5f1c");
    const bob = await connect("bob-token-9a7e");
    const aliceAgain = await connect("alice-token-5f1c");
    const owner = async (c: Client) =>
      structured<{ owner: string }>(await c.callTool({ name: "whoami", arguments: {} })).owner;
    const [a, b, a2] = [await owner(alice), await owner(bob), await owner(aliceAgain)];
    const digest = createHash("sha256").update("alice-token-5f1c").digest("hex");
    expect(a).toBe(`principal:token:${digest}`);
    expect(b).toMatch(/^principal:token:[0-9a-f]{64}$/);
    expect(b).not.toBe(a);
    expect(a2).toBe(a); // a principal, not a session: the same owner in every session
    for (const seen of [a, b]) expect(seen).not.toMatch(/token-5f1c|token-9a7e|undefined/);
  });

  it("neither sees the other's ephemeral resources", async () => {
    const alice = await connect("alice-token-5f1c");
    const bob = await connect("bob-token-9a7e");
    const { uri } = structured<{ uri: string }>(await alice.callTool({ name: "save", arguments: {} }));

    // Listing: Alice sees hers (in another session too); Bob sees nothing of hers.
    const aliceAgain = await connect("alice-token-5f1c");
    expect((await aliceAgain.listResources()).resources.map((r) => r.uri)).toContain(uri);
    expect((await bob.listResources()).resources.map((r) => r.uri)).not.toContain(uri);

    // Reading: not found for Bob, by resources/read and by the resource tools.
    await expect(bob.readResource({ uri })).rejects.toMatchObject({ code: -32002 });
    const sliced = await bob.callTool({ name: "read_resource", arguments: { uri } });
    expect(sliced.isError).toBe(true);
    const searched = await bob.callTool({ name: "search_resource", arguments: { uri, pattern: "notes" } });
    expect(searched.isError).toBe(true);
    const mine = await alice.readResource({ uri });
    expect((mine.contents[0] as { text: string }).text).toMatch(/^private notes of principal:token:/);

    // The same chosen URI is two resources: each reads its own.
    await alice.callTool({ name: "save_at", arguments: {} });
    await bob.callTool({ name: "save_at", arguments: {} });
    const read = async (c: Client) =>
      ((await c.readResource({ uri: "notes://mine" })).contents[0] as { text: string }).text;
    const aliceOwner = structured<{ owner: string }>(
      await alice.callTool({ name: "whoami", arguments: {} }),
    ).owner;
    const bobOwner = structured<{ owner: string }>(
      await bob.callTool({ name: "whoami", arguments: {} }),
    ).owner;
    expect(await read(alice)).toBe(`notes at a chosen URI, of ${aliceOwner}`);
    expect(await read(bob)).toBe(`notes at a chosen URI, of ${bobOwner}`);
  });

  it("neither is served the other's cache entries", async () => {
    const alice = await connect("alice-token-5f1c");
    const bob = await connect("bob-token-9a7e");
    const profile = async (c: Client) =>
      structured<{ run: number; owner: string }>(await c.callTool({ name: "profile", arguments: {} }));
    const first = await profile(alice);
    const bobs = await profile(bob);
    expect(bobs.run).toBe(first.run + 1); // a miss of its own, not Alice's entry
    expect(bobs.owner).not.toBe(first.owner);
    expect(await profile(alice)).toEqual(first); // Alice's entry still serves Alice
    expect(await profile(bob)).toEqual(bobs);
    expect(app.get(NotesService).runs).toBe(2);
  });
});
