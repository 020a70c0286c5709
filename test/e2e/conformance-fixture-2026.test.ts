import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { LOGGER, type Logger, McpFactory } from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Conformance2026Module } from "../../examples/conformance-server/app-2026.module.js";
import type { McpApp2026 } from "../../src/app/app-2026.js";

// The 2026-07-28 fixtures of examples/conformance-server (`MCP_PROTOCOL=2026-07-28`), checked
// through the SDK v2 client: pinned to 2026-07-28 the questions travel as input-required
// results and the client answers them; in legacy mode as server-to-client requests.

const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
const ALL = { elicitation: { form: {} }, sampling: {}, roots: {} };
type Mode = "legacy" | { pin: "2026-07-28" };
const textOf = (result: unknown) =>
  ((result as { content: unknown }).content as Array<{ text?: string }>)[0]?.text;

describe("examples/conformance-server, 2026-07-28 fixtures", () => {
  let app: McpApp2026;
  beforeAll(async () => {
    app = (await McpFactory.create(Conformance2026Module, {
      name: "conformance-2026",
      version: "1.0.0",
      protocol: "2026-07-28",
      providers: [{ provide: LOGGER, useValue: silentLogger }],
    })) as McpApp2026;
  });
  afterAll(() => app.close());

  async function connect(mode: Mode, capabilities: Record<string, unknown> = ALL) {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await app.connectAnyEra(serverSide);
    const client = new Client(
      { name: "v2-client", version: "1.0.0" },
      { versionNegotiation: { mode }, capabilities },
    );
    const asked: string[] = [];
    // The v2 client refuses a handler for a capability it does not declare.
    if (capabilities.elicitation)
      client.setRequestHandler("elicitation/create", async (request) => {
        const { message } = request.params as { message: string };
        asked.push(message);
        const content: Record<string, string | boolean> = message.includes("color")
          ? { color: "blue" }
          : message.includes("confirm")
            ? { ok: true }
            : message.includes("context")
              ? { context: "tests" }
              : { name: "Alice" };
        return { action: "accept" as const, content };
      });
    if (capabilities.sampling)
      client.setRequestHandler("sampling/createMessage", async () => ({
        role: "assistant" as const,
        content: { type: "text" as const, text: "Paris" },
        model: "test-model",
      }));
    if (capabilities.roots)
      client.setRequestHandler("roots/list", async () => ({
        roots: [{ uri: "file:///test/root", name: "Root" }],
      }));
    await client.connect(clientSide);
    return { client, asked };
  }

  for (const [label, mode] of [
    ["pinned 2026-07-28", { pin: "2026-07-28" }],
    ["legacy", "legacy"],
  ] as Array<[string, Mode]>) {
    it(`answers every input-required fixture once the client has answered (${label})`, async () => {
      const { client, asked } = await connect(mode);
      const call = async (name: string) => textOf(await client.callTool({ name, arguments: {} }));
      expect(await call("test_input_required_result_elicitation")).toBe("Hello, Alice!");
      expect(await call("test_input_required_result_sampling")).toBe("Sampling answer: Paris");
      expect(await call("test_input_required_result_list_roots")).toBe("Client roots: file:///test/root");
      expect(await call("test_input_required_result_request_state")).toBe("state-ok: confirmed=true");
      expect(await call("test_input_required_result_multiple_inputs")).toBe("Paris Alice (1 roots)");
      expect(await call("test_input_required_result_multi_round")).toBe("Alice likes blue");
      expect(await call("test_input_required_result_tampered_state")).toBe("confirmed=true");
      expect(await call("test_input_required_result_capabilities")).toBe("Paris; Alice");
      expect(await call("test_streaming_elicitation")).toBe("Hello, Alice!");
      expect(await call("test_logging_tool")).toBe("Logging tool executed");
      const prompt = await client.getPrompt({ name: "test_input_required_result_prompt" });
      expect(JSON.stringify(prompt.messages)).toContain("Use this context: tests");
      expect(asked).toContain("Step 2: What is your favorite color?");
      await client.close();
    });
  }

  it("test_missing_capability: a 2026 client without sampling gets -32021 naming it", async () => {
    const { client } = await connect({ pin: "2026-07-28" }, { elicitation: { form: {} } });
    await expect(client.callTool({ name: "test_missing_capability", arguments: {} })).rejects.toMatchObject({
      code: -32021,
    });
    await client.close();
  });

  it("test_input_required_result_capabilities asks only what the client declared", async () => {
    const { client, asked } = await connect({ pin: "2026-07-28" }, { sampling: {} });
    const result = await client.callTool({ name: "test_input_required_result_capabilities", arguments: {} });
    expect(textOf(result)).toBe("Paris");
    expect(asked).toEqual([]);
    await client.close();
  });

  for (const [label, mode] of [
    ["pinned 2026-07-28", { pin: "2026-07-28" }],
    ["legacy", "legacy"],
  ] as Array<[string, Mode]>) {
    it(`the list-change hooks switch a tool and a prompt, and the client is told (${label})`, async () => {
      const { client } = await connect(mode);
      const tools = new Promise<void>((resolve) =>
        client.setNotificationHandler("notifications/tools/list_changed", async () => resolve()),
      );
      const prompts = new Promise<void>((resolve) =>
        client.setNotificationHandler("notifications/prompts/list_changed", async () => resolve()),
      );
      // A 2026 client hears list changes on a listen stream; a 2025 session hears them as they come.
      const subscription =
        mode === "legacy"
          ? undefined
          : await client.listen({ toolsListChanged: true, promptsListChanged: true });
      await client.callTool({ name: "test_trigger_tool_change", arguments: {} });
      await tools;
      expect((await client.listTools()).tools.map((t) => t.name)).not.toContain("test_dynamic_tool");
      await client.callTool({ name: "test_trigger_prompt_change", arguments: {} });
      await prompts;
      expect((await client.listPrompts()).prompts.map((p) => p.name)).not.toContain("test_dynamic_prompt");
      // Switched back on for the next test.
      await client.callTool({ name: "test_trigger_tool_change", arguments: {} });
      await client.callTool({ name: "test_trigger_prompt_change", arguments: {} });
      expect((await client.listTools()).tools.map((t) => t.name)).toContain("test_dynamic_tool");
      await subscription?.close();
      await client.close();
    });
  }
});
