/**
 * Authentication on the Streamable HTTP transport: an `authenticate` function (401 with
 * `WWW-Authenticate` when it finds nobody), and the SDK's `requireBearerAuth` middleware in
 * front of a mounted handler. `ctx.auth` and the owner follow the principal.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { type McpApp, McpFactory, McpModule, McpService, Tool, type ToolContext } from "frugal-mcp";
import { afterEach, describe, expect, it } from "vitest";
import type { Authenticate } from "../../src/transports/authenticate.js";

@McpService()
class WhoService {
  @Tool({ description: "Who am I" })
  whoami(_input: unknown, ctx: ToolContext) {
    return { owner: ctx.owner, clientId: ctx.auth?.clientId ?? null, scopes: ctx.auth?.scopes ?? null };
  }
}

@McpModule({ services: [WhoService] })
class WhoModule {}

/** Tokens a verifier knows: two named principals, and one token that names no client. */
const KNOWN: Record<string, AuthInfo> = {
  "alice-token": {
    token: "alice-token",
    clientId: "alice",
    scopes: ["read"],
    expiresAt: Date.now() / 1000 + 3600,
  },
  "bob-token": { token: "bob-token", clientId: "bob", scopes: ["read"], expiresAt: Date.now() / 1000 + 3600 },
  "nameless-token": {
    token: "nameless-token",
    clientId: "",
    scopes: [],
    expiresAt: Date.now() / 1000 + 3600,
  },
};
const bearer = (req: IncomingMessage) => req.headers.authorization?.replace(/^Bearer /, "") ?? "";

const apps: McpApp[] = [];
const clients: Client[] = [];
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(apps.splice(0).map((a) => a.close()));
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function appListening(options: Parameters<McpApp["listen"]>[0]) {
  const app = await McpFactory.create(WhoModule, { name: "who", version: "1.0.0" });
  apps.push(app);
  const { url } = await app.listen(options);
  return url as string;
}

async function whoami(url: string, token?: string) {
  const client = new Client({ name: "c", version: "1.0.0" });
  clients.push(client);
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : {},
    }),
  );
  const result = await client.callTool({ name: "whoami", arguments: {} });
  return result.structuredContent as { owner: string; clientId: string | null; scopes: string[] | null };
}

const initialize = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    }),
  });

describe("authenticate", () => {
  const authenticate: Authenticate = (req) => {
    const token = bearer(req);
    if (token === "explode") throw new Error("signature mismatch");
    return KNOWN[token];
  };

  it("answers 401 with WWW-Authenticate when it finds nobody, and serves each principal as its own owner", async () => {
    const url = await appListening({ transport: "http", port: 0, authenticate });
    const none = await initialize(url);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toBe('Bearer realm="mcp"');
    expect(((await none.json()) as { error: { message: string } }).error.message).toContain(
      "requires authentication",
    );
    for (const token of ["wrong", "explode"]) {
      const refused = await initialize(url, { authorization: `Bearer ${token}` });
      expect(refused.status).toBe(401);
      expect(refused.headers.get("www-authenticate")).toBe('Bearer realm="mcp", error="invalid_token"');
    }

    expect(await whoami(url, "alice-token")).toEqual({
      owner: "principal:alice",
      clientId: "alice",
      scopes: ["read"],
    });
    expect(await whoami(url, "bob-token")).toEqual({
      owner: "principal:bob",
      clientId: "bob",
      scopes: ["read"],
    });
    // No client id: owned by a digest of the token, never the token itself.
    const nameless = await whoami(url, "nameless-token");
    expect(nameless.owner).toMatch(/^principal:token:[0-9a-f]{64}$/);
  });

  it("keeps a session to the principal that opened it, even on the same connection details", async () => {
    const url = await appListening({ transport: "http", port: 0, authenticate });
    const opened = await initialize(url, { authorization: "Bearer alice-token" });
    const sessionId = opened.headers.get("mcp-session-id") as string;
    await opened.body?.cancel();
    const asBob = await fetch(url, {
      method: "POST",
      headers: {
        authorization: "Bearer bob-token",
        "mcp-session-id": sessionId,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    expect(asBob.status).toBe(404);
  });

  it("accepts a principal's name, a custom challenge, and anonymous callers when allowed", async () => {
    const url = await appListening({
      transport: "http",
      port: 0,
      authenticate: async (req) => (bearer(req) === "carol-token" ? "carol" : undefined),
      allowAnonymous: true,
      wwwAuthenticate: 'Bearer resource_metadata="https://example.com/.well-known/oauth-protected-resource"',
    });
    expect(await whoami(url, "carol-token")).toMatchObject({ owner: "principal:carol", clientId: "carol" });
    const anonymous = await whoami(url);
    expect(anonymous.owner).toMatch(/^session:/);
    expect(anonymous.clientId).toBeNull();

    const strict = await appListening({
      transport: "http",
      port: 0,
      authenticate: () => undefined,
      wwwAuthenticate: 'Bearer resource_metadata="https://example.com/.well-known/oauth-protected-resource"',
    });
    const refused = await initialize(strict);
    expect(refused.headers.get("www-authenticate")).toBe(
      'Bearer resource_metadata="https://example.com/.well-known/oauth-protected-resource"',
    );
  });
});

describe("the SDK's requireBearerAuth middleware in front of a mounted handler", () => {
  const verifier = {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      const info = KNOWN[token];
      if (!info) throw new InvalidTokenError("unknown token");
      return info;
    },
  };

  /** Serves `handler` behind the middleware on plain node:http (the middleware speaks Express's `res`). */
  async function behindMiddleware(stateless: boolean) {
    const app = await McpFactory.create(WhoModule, { name: "who", version: "1.0.0" });
    apps.push(app);
    const handler = app.httpHandler(stateless ? { stateless: true, authenticate: (req) => req.auth } : {});
    const middleware = requireBearerAuth({ verifier });
    const server = createServer((req, res) => {
      const express = Object.assign(res, {
        set: (name: string, value: string) => res.setHeader(name, value),
        status: (code: number) => {
          res.statusCode = code;
          return express;
        },
        json: (body: unknown) => res.end(JSON.stringify(body)),
      });
      void middleware(req as never, express as never, () => void handler(req, res as ServerResponse));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  }

  it.each([false, true])(
    "gives ctx.auth and the owner of the verified token (stateless: %s)",
    async (stateless) => {
      const url = await behindMiddleware(stateless);
      expect(await whoami(url, "alice-token")).toEqual({
        owner: "principal:alice",
        clientId: "alice",
        scopes: ["read"],
      });
      expect(await whoami(url, "bob-token")).toEqual({
        owner: "principal:bob",
        clientId: "bob",
        scopes: ["read"],
      });
      const refused = await initialize(url);
      expect(refused.status).toBe(401);
      expect(refused.headers.get("www-authenticate")).toContain('error="invalid_token"');
    },
  );
});
