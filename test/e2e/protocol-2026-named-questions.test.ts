import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport as InMemoryV1 } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpFactory } from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { McpApp2026 } from "../../src/app/app-2026.js";
import { NamedQuestionsModule } from "../support/named-questions-services.js";
import { post2026, textOf } from "../support/raw-2026.js";

type Mode = "legacy" | "auto" | { pin: "2026-07-28" };
const MODES: Array<[string, Mode]> = [
  ["legacy", "legacy"],
  ["auto", "auto"],
  ["pinned 2026-07-28", { pin: "2026-07-28" }],
];
const ROOTS = { roots: [{ uri: "file:///work", name: "work" }] };
const ALL = { elicitation: { form: {} }, sampling: {}, roots: {} };
describe('protocol: "2026-07-28": named questions (ctx.elicit/ctx.sample/ctx.listRoots with { key })', () => {
  let app: McpApp2026;
  let url: string;
  beforeAll(async () => {
    app = (await McpFactory.create(NamedQuestionsModule, {
      name: "questions",
      version: "1.0.0",
      protocol: "2026-07-28",
      cursorSecret: "a long enough test secret for request state",
    })) as McpApp2026;
    ({ url } = await app.listen({ transport: "http", port: 0 }));
  });
  afterAll(() => app.close());

  /** One raw 2026-07-28 `tools/call`: no session, the envelope in `_meta`. */
  const call = (name: string, capabilities: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    post2026(url, "tools/call", { name, arguments: {}, ...extra }, capabilities);

  async function connect(mode: Mode) {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await app.connectAnyEra(serverSide);
    const client = new Client(
      { name: "v2-client", version: "1.0.0" },
      { versionNegotiation: { mode }, capabilities: ALL },
    );
    const asked: string[] = [];
    client.setRequestHandler("elicitation/create", async () => {
      asked.push("elicitation/create");
      return { action: "accept" as const, content: { name: "Ada" } };
    });
    client.setRequestHandler("sampling/createMessage", async () => {
      asked.push("sampling/createMessage");
      return { role: "assistant" as const, content: { type: "text" as const, text: "Hello" }, model: "m" };
    });
    client.setRequestHandler("roots/list", async () => {
      asked.push("roots/list");
      return ROOTS;
    });
    await client.connect(clientSide);
    return { client, asked };
  }

  for (const [label, mode] of MODES) {
    it(`questions asked together are all answered, elicit + sample + listRoots (${label} mode)`, async () => {
      const { client, asked } = await connect(mode);
      const result = await client.callTool({ name: "gather", arguments: {} });
      expect(textOf(result)).toBe("Hello Ada; roots: file:///work");
      expect(asked.sort()).toEqual(["elicitation/create", "roots/list", "sampling/createMessage"]);
      await client.close();
    });
  }

  it("lists questions asked together in one input-required result, under the keys the handler named", async () => {
    const first = await call("gather", ALL);
    expect(first.status).toBe(200);
    const result = first.body.result;
    expect(result.resultType).toBe("input_required");
    expect(Object.keys(result.inputRequests).sort()).toEqual([
      "capital_question",
      "client_roots",
      "user_name",
    ]);
    expect(result.inputRequests.client_roots).toEqual({ method: "roots/list" });
    expect(result.inputRequests.user_name.method).toBe("elicitation/create");
    expect(typeof result.requestState).toBe("string");

    const second = await call("gather", ALL, {
      requestState: result.requestState,
      inputResponses: {
        user_name: { action: "accept", content: { name: "Grace" } },
        capital_question: { role: "assistant", content: { type: "text", text: "Hi" }, model: "m" },
        client_roots: ROOTS,
      },
    });
    expect(textOf(second.body.result)).toBe("Hi Grace; roots: file:///work");
  });

  it("asks again a question whose answer is not a result (the SDK drops it), keeping the others", async () => {
    const { body } = await call("gather", ALL, {
      inputResponses: { user_name: 12345, client_roots: ROOTS },
    });
    expect(body.result.resultType).toBe("input_required");
    expect(Object.keys(body.result.inputRequests).sort()).toEqual(["capital_question", "user_name"]);
  });

  it("refuses two questions under one key, naming the key and the fix", async () => {
    const { body } = await call("same_key_twice", ALL);
    expect(body.error.message).toMatch(
      /Two questions of this call are named "same": give each .* its own key/,
    );
  });

  it("leaves a missing capability to the protocol: -32021 naming it, before anything is asked", async () => {
    const { status, body } = await call("roots", { elicitation: {} });
    expect(status).toBe(400);
    expect(body.error.code).toBe(-32021);
    expect(body.error.data.requiredCapabilities).toEqual({ roots: {} });
  });

  it("ctx.clientCapabilities is the request envelope's on 2026 and the handshake's on 2025", async () => {
    const modern = await call("capabilities", { sampling: {} });
    expect(JSON.parse(textOf(modern.body.result) ?? "")).toEqual({ sampling: {} });

    const [clientSide, serverSide] = InMemoryV1.createLinkedPair();
    await app.connect(serverSide);
    const legacy = new ClientV1({ name: "v1-client", version: "1.0.0" }, { capabilities: { roots: {} } });
    await legacy.connect(clientSide);
    const declared = await legacy.callTool({ name: "capabilities", arguments: {} });
    expect(JSON.parse(textOf(declared) ?? "")).toEqual({ roots: {} });
    // A 2025 client without the roots capability: the tool fails and says why.
    const [otherSide, otherServer] = InMemoryV1.createLinkedPair();
    await app.connect(otherServer);
    const bare = new ClientV1({ name: "bare", version: "1.0.0" });
    await bare.connect(otherSide);
    const refused = await bare.callTool({ name: "roots", arguments: {} });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(
      /does not support roots\/list \(it did not declare the "roots" capability\)/,
    );
    await Promise.all([legacy.close(), bare.close()]);
  });
});
