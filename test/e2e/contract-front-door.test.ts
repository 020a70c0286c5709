/**
 * The contract's "One front door" (DESIGN.md, "The app"; README "Protocol versions"), written
 * from its text alone: every HTTP request of either era passes the host/origin check, the
 * connection cap, the header and request timeouts, the body limit and `authenticate`, with
 * `protocol: "2026-07-28"` and the default, stateful and `stateless`, on `app.listen` and on
 * `app.httpHandler` mounted in a plain node:http server; the principal reaches `ctx.auth` and
 * `ctx.owner` on both eras.
 */

import { createServer, request, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  type Authenticate,
  type McpApp,
  McpFactory,
  McpModule,
  McpService,
  Tool,
  type ToolContext,
} from "frugal-mcp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openSocket as openSocketAt } from "../support/front-door.js";

const PRINCIPALS: Record<string, string> = { "Bearer t-alice": "alice", "Bearer t-bob": "bob" };
/** Carol's principal comes as AuthInfo (scopes, extra), the others by name. */
const CAROL = { token: "t-carol", clientId: "carol", scopes: ["orders:read"], extra: { tenant: "t1" } };
const authenticate: Authenticate = async (req) =>
  req.headers.authorization === "Bearer t-carol" ? CAROL : PRINCIPALS[req.headers.authorization ?? ""];

@McpService()
class DoorService {
  @Tool({ description: "Who is calling" })
  whoami(_input: unknown, ctx: ToolContext) {
    return JSON.stringify({ owner: ctx.owner, auth: ctx.auth ?? null });
  }
}

@McpModule({ services: [DoorService] })
class DoorModule {}

const ERAS = [
  ["default", false],
  ["2026-07-28", true],
] as const;
const MOUNTS = ["listen", "listen stateless", "httpHandler", "httpHandler stateless"] as const;
type Mount = (typeof MOUNTS)[number];

const MAX_BODY = 8 * 1024;
const HEADERS_TIMEOUT_MS = 500;
const REQUEST_TIMEOUT_MS = 1_000;

const apps: McpApp[] = [];
const servers: Server[] = [];
const sockets: Socket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
});
afterAll(async () => {
  await Promise.allSettled(apps.map((app) => app.close()));
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(modern: boolean, mount: Mount, options: Record<string, unknown>): Promise<string> {
  const app = await McpFactory.create(DoorModule, {
    name: "door",
    version: "1.0.0",
    cursorSecret: "a long enough secret for the front door probes",
    ...(modern ? { protocol: "2026-07-28" as const } : {}),
  });
  apps.push(app);
  const stateless = mount.endsWith("stateless") ? { stateless: true } : {};
  if (mount.startsWith("listen")) {
    return (await app.listen({ transport: "http", port: 0, ...options, ...stateless })).url as string;
  }
  const handler = app.httpHandler({ ...options, ...stateless });
  const server = createServer((req, res) => void handler(req, res));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

const JSON_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});
const HEADERS_2026 = {
  ...JSON_HEADERS,
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": "tools/call",
  "mcp-name": "whoami",
};
const call2026 = (padding = "") =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: {
      name: "whoami",
      arguments: {},
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1.0.0" },
        "io.modelcontextprotocol/clientCapabilities": {},
        ...(padding ? { padding } : {}),
      },
    },
  });

/** The requests of each era a registrar serves: a 2025 initialize, and a 2026 call on the 2026 registrar. */
const requestsOf = (modern: boolean) => [
  { era: "2025-11-25", headers: JSON_HEADERS, body: INITIALIZE },
  ...(modern ? [{ era: "2026-07-28", headers: HEADERS_2026, body: call2026() }] : []),
];

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** One raw POST through node:http (so a Host header can be set), read to its end. */
function post(url: string, headers: Record<string, string>, body: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", headers, agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        text += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

const openSocket = (url: string) => openSocketAt(url, sockets);

/** What the server writes on `socket` until it closes it, or `boundMs` passed. */
function hear(socket: Socket, boundMs: number): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    const done = () => {
      clearTimeout(timer);
      resolve(text);
    };
    const timer = setTimeout(done, boundMs);
    socket.on("data", (chunk) => {
      text += chunk.toString("utf8");
    });
    socket.once("close", done);
  });
}

/** Resolves once the response headers came back on `socket`. */
function headersOn(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    socket.on("data", (chunk) => {
      text += chunk.toString("utf8");
      if (text.includes("\r\n\r\n")) resolve(text);
    });
  });
}

const head = (url: string, headers: Record<string, string>, length: number) => {
  const { pathname, host } = new URL(url);
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `POST ${pathname} HTTP/1.1\r\nHost: ${host}\r\n${lines.join("")}Content-Length: ${length}\r\n\r\n`;
};

const parseWho = (text: string | undefined) =>
  JSON.parse(text ?? "{}") as { owner: unknown; auth: { clientId?: string } | null };

describe.each(ERAS)("the front door of the %s registrar", (_label, modern) => {
  describe.each(MOUNTS)("on %s", (mount) => {
    let url: string;
    beforeAll(async () => {
      url = await serve(modern, mount, {
        authenticate,
        maxBodyBytes: MAX_BODY,
        headersTimeoutMs: HEADERS_TIMEOUT_MS,
        requestTimeoutMs: REQUEST_TIMEOUT_MS,
      });
    });

    it("refuses a foreign Host and a foreign Origin (403), for each era", async () => {
      for (const { era, headers, body } of requestsOf(modern)) {
        const auth = { ...headers, authorization: "Bearer t-alice" };
        const host = await post(url, { ...auth, host: "evil.example:80" }, body);
        expect(host.status, `${era} Host: ${host.text}`).toBe(403);
        const origin = await post(url, { ...auth, origin: "http://evil.example" }, body);
        expect(origin.status, `${era} Origin: ${origin.text}`).toBe(403);
      }
    });

    it("answers 401 with WWW-Authenticate without a principal, for each era", async () => {
      for (const { era, headers, body } of requestsOf(modern)) {
        const none = await post(url, headers, body);
        expect(none.status, `${era}: ${none.text}`).toBe(401);
        expect(none.headers["www-authenticate"], era).toBeTruthy();
        const forged = await post(url, { ...headers, authorization: "Bearer forged" }, body);
        expect(forged.status, `${era} forged: ${forged.text}`).toBe(401);
        expect(forged.headers["www-authenticate"], era).toBeTruthy();
      }
    });

    it("answers 401 before reading the body (1 MB announced, none sent), for each era", async () => {
      for (const { era, headers } of requestsOf(modern)) {
        const socket = await openSocket(url);
        const heard = headersOn(socket);
        socket.write(head(url, headers, 1024 * 1024));
        expect(await heard, era).toMatch(/^HTTP\/1\.1 401 /);
      }
    });

    it("answers 413 to a chunked body that grows past maxBodyBytes, for each era", async () => {
      for (const { era, headers } of requestsOf(modern)) {
        const socket = await openSocket(url);
        const heard = headersOn(socket);
        const { pathname, host } = new URL(url);
        const lines = Object.entries({ ...headers, authorization: "Bearer t-alice" })
          .map(([name, value]) => `${name}: ${value}\r\n`)
          .join("");
        socket.write(
          `POST ${pathname} HTTP/1.1\r\nHost: ${host}\r\n${lines}Transfer-Encoding: chunked\r\n\r\n`,
        );
        const chunk = "x".repeat(4096);
        for (let i = 0; i < 4; i++) socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
        expect(await heard, era).toMatch(/^HTTP\/1\.1 413 /);
      }
    });

    it("answers 413 to a body over maxBodyBytes, for each era", async () => {
      const pad = "x".repeat(MAX_BODY * 2);
      const bodies = [
        { era: "2025-11-25", headers: JSON_HEADERS, body: INITIALIZE.replace('"raw"', `"${pad}"`) },
        ...(modern ? [{ era: "2026-07-28", headers: HEADERS_2026, body: call2026(pad) }] : []),
      ];
      for (const { era, headers, body } of bodies) {
        const answer = await post(url, { ...headers, authorization: "Bearer t-alice" }, body);
        expect(answer.status, `${era}: ${answer.text.slice(0, 200)}`).toBe(413);
      }
    });

    it("answers 408 to a client that does not finish its headers within headersTimeoutMs", async () => {
      const socket = await openSocket(url);
      const { host } = new URL(url);
      socket.write(
        `POST ${new URL(url).pathname} HTTP/1.1\r\nHost: ${host}\r\ncontent-type: application/json\r\n`,
      );
      const heard = await hear(socket, HEADERS_TIMEOUT_MS * 6);
      expect(heard).toMatch(/^HTTP\/1\.1 408 /);
    });

    it("answers 408 to a client that does not finish its body within requestTimeoutMs, for each era", async () => {
      for (const { era, headers } of requestsOf(modern)) {
        const socket = await openSocket(url);
        socket.write(head(url, { ...headers, authorization: "Bearer t-alice" }, 1_000));
        socket.write('{"jsonrpc":');
        const heard = await hear(socket, REQUEST_TIMEOUT_MS * 6);
        expect(heard, era).toMatch(/^HTTP\/1\.1 408 /);
      }
    });

    it("brings the principal to ctx.auth and ctx.owner on a 2025-11-25 client", async () => {
      const owners: unknown[] = [];
      for (const token of ["t-alice", "t-bob"]) {
        const client = new Client({ name: "v1", version: "1.0.0" });
        await client.connect(
          new StreamableHTTPClientTransport(new URL(url), {
            requestInit: { headers: { authorization: `Bearer ${token}` } },
          }),
        );
        const result = await client.callTool({ name: "whoami", arguments: {} });
        const who = parseWho((result.content as Array<{ text?: string }>)[0]?.text);
        expect(who.auth?.clientId).toBe(PRINCIPALS[`Bearer ${token}`]);
        expect(String(who.owner)).toContain(PRINCIPALS[`Bearer ${token}`]);
        owners.push(who.owner);
        await client.close();
      }
      expect(owners[0]).not.toEqual(owners[1]);
    });

    it("brings AuthInfo from authenticate to ctx.auth whole, on each era", async () => {
      const v1 = new Client({ name: "v1", version: "1.0.0" });
      await v1.connect(
        new StreamableHTTPClientTransport(new URL(url), {
          requestInit: { headers: { authorization: "Bearer t-carol" } },
        }),
      );
      const clients: Array<{ callTool: Client["callTool"]; close(): Promise<void> }> = [v1];
      if (modern) {
        const v2 = new ClientV2(
          { name: "v2", version: "1.0.0" },
          { versionNegotiation: { mode: { pin: "2026-07-28" } } },
        );
        await v2.connect(
          new HttpV2(new URL(url), { requestInit: { headers: { authorization: "Bearer t-carol" } } }),
        );
        clients.push(v2 as never);
      }
      for (const client of clients) {
        const result = await client.callTool({ name: "whoami", arguments: {} });
        const who = parseWho((result.content as Array<{ text?: string }>)[0]?.text);
        expect(who.auth).toMatchObject({
          clientId: "carol",
          scopes: ["orders:read"],
          extra: { tenant: "t1" },
        });
        expect(String(who.owner)).toContain("carol");
        await client.close();
      }
    });

    it.runIf(modern)("brings the principal to ctx.auth and ctx.owner on a 2026-07-28 client", async () => {
      const owners: unknown[] = [];
      for (const token of ["t-alice", "t-bob"]) {
        const client = new ClientV2(
          { name: "v2", version: "1.0.0" },
          { versionNegotiation: { mode: { pin: "2026-07-28" } } },
        );
        await client.connect(
          new HttpV2(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
        );
        expect(client.getProtocolEra()).toBe("modern");
        const result = await client.callTool({ name: "whoami", arguments: {} });
        const who = parseWho((result.content as Array<{ text?: string }>)[0]?.text);
        expect(who.auth?.clientId).toBe(PRINCIPALS[`Bearer ${token}`]);
        expect(String(who.owner)).toContain(PRINCIPALS[`Bearer ${token}`]);
        owners.push(who.owner);
        await client.close();
      }
      expect(owners[0]).not.toEqual(owners[1]);
    });
  });

  describe.each(MOUNTS)("on %s with maxConnections: 1", (mount) => {
    let url: string;
    beforeAll(async () => {
      url = await serve(modern, mount, { authenticate, maxConnections: 1 });
    });

    it("answers a connection beyond the cap 503, or closes it at once, for each era", async () => {
      const held = await openSocket(url);
      // The first connection is served (its answer came back on it), so it is open and counted.
      const served = headersOn(held);
      held.write(
        `${head(url, { ...JSON_HEADERS, authorization: "Bearer t-alice" }, INITIALIZE.length)}${INITIALIZE}`,
      );
      expect(await served).toMatch(/^HTTP\/1\.1 200 /);
      for (const { era, headers, body } of requestsOf(modern)) {
        const beyond = await post(url, { ...headers, authorization: "Bearer t-alice" }, body).then(
          (answer) => answer.status,
          () => "closed",
        );
        expect([503, "closed"], `${era}: ${beyond}`).toContain(beyond);
      }
    });
  });
});
