/** examples/front-door/mounted.ts: the front door mounted in a server of its own, with its limits, as a process. */
import { type ChildProcess, spawn } from "node:child_process";
import { connect } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const SCRIPT = new URL("../../.build/examples/front-door/mounted.js", import.meta.url).pathname;

describe("examples/front-door/mounted.ts", () => {
  let child: ChildProcess;
  let url: URL;

  beforeAll(async () => {
    child = spawn(process.execPath, [SCRIPT], {
      env: {
        ...process.env,
        PORT: "0",
        REQUEST_TIMEOUT_MS: "500",
        CURSOR_SECRET: "mounted-example-secret-of-enough-length",
      },
      stdio: ["ignore", "ignore", "pipe"],
    });
    url = await new Promise<URL>((resolve, reject) => {
      let err = "";
      child.stderr?.on("data", (chunk) => {
        err += chunk;
        const found = /mounted front door on (\S+)/.exec(err);
        if (found?.[1]) resolve(new URL(found[1]));
      });
      child.once("exit", (code) => reject(new Error(`the example exited (${code}) before serving: ${err}`)));
    });
  });
  afterAll(() => {
    child.kill("SIGTERM");
  });

  it("refuses a request without a token (401) and serves a session with one", async () => {
    const refused = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: "{}",
    });
    expect(refused.status).toBe(401);
    const client = new Client({ name: "alice", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(url, {
        requestInit: { headers: { authorization: "Bearer demo-alice" } },
      }),
    );
    const result = await client.callTool({ name: "whoami", arguments: {} });
    expect(result.structuredContent).toEqual({ owner: "principal:alice", clientId: "alice" });
    await client.close();
  });

  it("holds the request timeout of the mounted handler: a body that never ends gets 408", async () => {
    const socket = connect(Number(url.port), url.hostname);
    const heard = new Promise<string>((resolve) => {
      let text = "";
      socket.on("data", (chunk) => (text += chunk));
      socket.on("error", () => {});
      socket.once("close", () => resolve(text));
    });
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: ${url.host}\r\nauthorization: Bearer demo-alice\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{`,
    );
    // REQUEST_TIMEOUT_MS=500 here (the example's default is 20 s); the test waits for the answer, not a fixed time.
    expect(await heard).toMatch(/^HTTP\/1\.1 408 /);
  });
});
