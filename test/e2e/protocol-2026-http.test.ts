import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpFactory } from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { McpApp2026 } from "../../src/app/app-2026.js";
import { Era2026Module } from "../support/protocol-2026-services.js";
import { envelope2026, post2026, textOf } from "../support/raw-2026.js";

type Mode = "legacy" | "auto" | { pin: "2026-07-28" };
const MODES: Array<[string, Mode, "legacy" | "modern"]> = [
  ["legacy", "legacy", "legacy"],
  ["auto", "auto", "modern"],
  ["pinned 2026-07-28", { pin: "2026-07-28" }, "modern"],
];
const CAPABILITIES = { elicitation: { form: {} } };
const ENVELOPE = envelope2026(CAPABILITIES);

describe('protocol: "2026-07-28" over Streamable HTTP (the era router)', () => {
  let app: McpApp2026;
  let url: string;
  beforeAll(async () => {
    app = (await McpFactory.create(Era2026Module, {
      name: "era",
      version: "1.0.0",
      protocol: "2026-07-28",
      cursorSecret: "a long enough test secret for request state",
    })) as McpApp2026;
    ({ url } = await app.listen({ transport: "http", port: 0 }));
  });
  afterAll(() => app.close());

  /** One raw 2026-07-28 request: no session, the envelope in `_meta`. */
  const post = (method: string, params: Record<string, unknown> = {}) =>
    post2026(url, method, params, CAPABILITIES);

  for (const [label, mode, era] of MODES) {
    it(`serves a v2 client in ${label} mode`, async () => {
      const client = new Client({ name: "v2-client", version: "1.0.0" }, { versionNegotiation: { mode } });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      expect(client.getProtocolEra()).toBe(era);
      expect(textOf(await client.callTool({ name: "echo", arguments: { text: label } }))).toBe(label);
      const { resources } = await client.listResources();
      expect(resources.map((r) => r.uri)).toEqual(["config://app"]);
      await client.close();
    });
  }

  it("keeps per-session transports for an SDK 1.x client (2025-11-25)", async () => {
    const transport = new HttpV1(new URL(url));
    const client = new ClientV1({ name: "v1-client", version: "1.0.0" });
    await client.connect(transport);
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(textOf(await client.callTool({ name: "echo", arguments: { text: "v1" } }))).toBe("v1");
    await transport.terminateSession();
    await client.close();
  });

  it("delivers invalidations on subscriptions/listen, as resources/updated reaches 2025 sessions", async () => {
    const client = new Client(
      { name: "listener", version: "1.0.0" },
      { versionNegotiation: { mode: "auto" } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const updated = new Promise<string>((resolve) => {
      client.setNotificationHandler("notifications/resources/updated", async (notification) => {
        resolve(notification.params.uri);
      });
    });
    const subscription = await client.listen({ resourceSubscriptions: ["config://app"] });
    expect(subscription.honoredFilter.resourceSubscriptions).toEqual(["config://app"]);
    expect(JSON.stringify((await client.readResource({ uri: "config://app" })).contents)).toContain("dark");
    await client.callTool({ name: "set_theme", arguments: { theme: "light" } });
    expect(await updated).toBe("config://app");
    expect(JSON.stringify((await client.readResource({ uri: "config://app" })).contents)).toContain("light");
    await subscription.close();
    await client.close();
  });

  it("sends no log messages to a 2026 request that names no log level", async () => {
    const quiet = await post("tools/call", { name: "chatty", arguments: {} });
    expect(textOf(quiet.body.result)).toBe("done");
    expect(quiet.logs).toEqual([]);
    const withLevel = await post("tools/call", {
      name: "chatty",
      arguments: {},
      _meta: { ...ENVELOPE, "io.modelcontextprotocol/logLevel": "info" },
    });
    expect(withLevel.body.result.content[0].text).toBe("done");
    expect(withLevel.logs).toEqual([expect.objectContaining({ level: "info", logger: "chatty" })]);
  });

  it("answers server/discover and 2026 requests without a session", async () => {
    const discover = await post("server/discover");
    expect(discover.status).toBe(200);
    expect(discover.session).toBeNull();
    expect(discover.body.result.supportedVersions).toContain("2026-07-28");
    expect(discover.body.result.capabilities.tools).toBeDefined();
    const call = await post("tools/call", { name: "echo", arguments: { text: "alone" } });
    expect(call.body.result.content[0].text).toBe("alone");
  });

  it("ends an eliciting call with input_required and signed state, and refuses altered state", async () => {
    const first = await post("tools/call", { name: "ask_twice", arguments: {} });
    expect(first.body.result.resultType).toBe("input_required");
    expect(Object.keys(first.body.result.inputRequests)).toEqual(["frugal.0"]);
    expect(first.body.result.inputRequests["frugal.0"].params.message).toBe("Your name?");
    const state = first.body.result.requestState as string;
    const answers = { "frugal.0": { action: "accept", content: { name: "Ada" } } };
    const second = await post("tools/call", {
      name: "ask_twice",
      arguments: {},
      requestState: state,
      inputResponses: answers,
    });
    expect(second.body.result.inputRequests["frugal.1"].params.message).toBe("Your colour?");
    const third = await post("tools/call", {
      name: "ask_twice",
      arguments: {},
      requestState: second.body.result.requestState,
      inputResponses: { "frugal.1": { action: "accept", content: { colour: "blue" } } },
    });
    expect(third.body.result.content[0].text).toBe("Ada likes blue");

    // A client that did not declare elicitation gets the protocol's -32021, naming it.
    const undeclared = await post("tools/call", {
      name: "ask_twice",
      arguments: {},
      _meta: { ...ENVELOPE, "io.modelcontextprotocol/clientCapabilities": {} },
    });
    expect(undeclared.status).toBe(400);
    expect(undeclared.body.error.code).toBe(-32021);
    expect(undeclared.body.error.data.requiredCapabilities.elicitation).toBeDefined();

    const altered = `${state.slice(0, -2)}${state.endsWith("A") ? "B" : "A"}A`;
    const tampered = await post("tools/call", { name: "ask_twice", arguments: {}, requestState: altered });
    expect(tampered.body.error.code).toBe(-32602);
    expect(tampered.body.error.message).toMatch(/Invalid requestState/);
    // Bound like a cursor: the state of one tool is refused by another.
    const moved = await post("tools/call", { name: "chatty", arguments: {}, requestState: state });
    expect(moved.body.error.code).toBe(-32602);
    expect(moved.body.error.message).toMatch(
      /request state was altered, or belongs to another tool, other arguments or another user/,
    );
    const otherInput = await post("tools/call", {
      name: "ask_twice",
      arguments: { x: 1 },
      requestState: state,
    });
    expect(otherInput.body.error?.code ?? otherInput.body.result?.isError).toBeTruthy();
  });
});
