import { Client, InMemoryTransport, SdkError } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport as InMemoryV1 } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpFactory } from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { McpApp2026 } from "../../src/app/app-2026.js";
import { Era2026Module } from "../support/protocol-2026-services.js";

type Mode = "legacy" | "auto" | { pin: "2026-07-28" };
const MODES: Array<[string, Mode, "legacy" | "modern"]> = [
  ["legacy", "legacy", "legacy"],
  ["auto", "auto", "modern"],
  ["pinned 2026-07-28", { pin: "2026-07-28" }, "modern"],
];

const textOf = (result: unknown) =>
  (((result as { content: unknown }).content as Array<{ text?: string }>)[0]?.text ?? "") as string;

describe('protocol: "2026-07-28" over an in-memory connection (the v2 registrar)', () => {
  let app: McpApp2026;
  beforeAll(async () => {
    app = (await McpFactory.create(Era2026Module, {
      name: "era",
      version: "1.0.0",
      protocol: "2026-07-28",
    })) as McpApp2026;
  });
  afterAll(() => app.close());

  async function connect(mode: Mode, capabilities = {}) {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await app.connectAnyEra(serverSide);
    const client = new Client(
      { name: "v2-client", version: "1.0.0" },
      { versionNegotiation: { mode }, capabilities },
    );
    await client.connect(clientSide);
    return client;
  }

  for (const [label, mode, era] of MODES) {
    it(`serves a v2 client in ${label} mode: tools, resources, templates, prompts, completion`, async () => {
      const client = await connect(mode);
      expect(client.getProtocolEra()).toBe(era);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(["echo", "typed_sum", "ask_twice", "chatty", "set_theme"]);
      expect(textOf(await client.callTool({ name: "echo", arguments: { text: "hi" } }))).toBe("hi");
      const sum = await client.callTool({ name: "typed_sum", arguments: { a: 2, b: 3 } });
      expect(sum.structuredContent).toEqual({ sum: 5 });
      const bad = await client.callTool({ name: "echo", arguments: { text: 42 } });
      expect(bad.isError).toBe(true);
      const { resources } = await client.listResources();
      expect(resources.map((r) => r.uri)).toEqual(["config://app"]);
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates.map((r) => r.uriTemplate)).toEqual(["sites://{site}"]);
      const site = await client.readResource({ uri: "sites://alpha" });
      expect((site.contents[0] as { text?: string }).text).toBe("site alpha");
      const prompt = await client.getPrompt({ name: "greet", arguments: { name: "Ada" } });
      expect(JSON.stringify(prompt.messages)).toContain("Say hello to Ada.");
      const completion = await client.complete({
        ref: { type: "ref/resource", uri: "sites://{site}" },
        argument: { name: "site", value: "al" },
      });
      expect(completion.completion.values).toEqual(["alpha"]);
      await client.close();
    });

    it(`answers unknown names with -32602 in ${label} mode`, async () => {
      const client = await connect(mode);
      await expect(client.callTool({ name: "nope", arguments: {} })).rejects.toThrow(/Unknown tool "nope"/);
      await expect(client.getPrompt({ name: "nope" })).rejects.toThrow(/Unknown prompt "nope"/);
      await expect(client.readResource({ uri: "missing://x" })).rejects.toThrow(
        /Resource not found: missing:\/\/x/,
      );
      await client.close();
    });
  }

  it("still serves an SDK 1.x client (2025-11-25) through app.connect", async () => {
    const [clientSide, serverSide] = InMemoryV1.createLinkedPair();
    await app.connect(serverSide);
    const client = new ClientV1({ name: "v1-client", version: "1.0.0" });
    await client.connect(clientSide);
    expect(client.getServerVersion()?.name).toBe("era");
    expect(textOf(await client.callTool({ name: "echo", arguments: { text: "v1" } }))).toBe("v1");
    await client.close();
  });

  it("an SDK 1.x client reaches the v2 registrar too (the era is picked by its opening)", async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await app.connectAnyEra(serverSide);
    const client = new ClientV1({ name: "v1-client", version: "1.0.0" });
    await client.connect(clientSide as never);
    expect(textOf(await client.callTool({ name: "echo", arguments: { text: "v1" } }))).toBe("v1");
    await client.close();
  });

  it("a default app refuses a pinned 2026-07-28 client (the registrar is what makes it work)", async () => {
    const plain = await McpFactory.create(Era2026Module, { name: "plain", version: "1.0.0" });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await plain.connect(serverSide as never);
    const client = new Client(
      { name: "v2-client", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" }, probe: { timeoutMs: 2000 } } },
    );
    await expect(client.connect(clientSide)).rejects.toBeInstanceOf(SdkError);
    await plain.close();
  });
});

describe('McpFactory.create with a bad "protocol"', () => {
  it("names the values it takes", async () => {
    await expect(
      McpFactory.create(Era2026Module, { name: "x", version: "1", protocol: "2027-01-01" as never }),
    ).rejects.toThrow(/`protocol` is "2027-01-01".*use protocol: "2026-07-28"/);
  });
});

describe('protocol: "2026-07-28": ctx.elicit replay', () => {
  let app: McpApp2026;
  beforeAll(async () => {
    app = (await McpFactory.create(Era2026Module, {
      name: "era",
      version: "1.0.0",
      protocol: "2026-07-28",
      cursorSecret: "a long enough test secret for request state",
    })) as McpApp2026;
  });
  afterAll(() => app.close());

  async function connect(mode: Mode) {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await app.connectAnyEra(serverSide);
    const client = new Client(
      { name: "v2-client", version: "1.0.0" },
      { versionNegotiation: { mode }, capabilities: { elicitation: { form: {} } } },
    );
    const asked: string[] = [];
    client.setRequestHandler("elicitation/create", async (request) => {
      const message = (request.params as { message: string }).message;
      asked.push(message);
      const content: Record<string, string> = message.includes("name")
        ? { name: "Ada" }
        : { colour: "green" };
      return { action: "accept" as const, content };
    });
    await client.connect(clientSide);
    return { client, asked };
  }

  for (const [label, mode] of MODES) {
    it(`a handler that elicits twice gets both answers, in order (${label} mode)`, async () => {
      const { client, asked } = await connect(mode);
      const result = await client.callTool({ name: "ask_twice", arguments: {} });
      expect(textOf(result)).toBe("Ada likes green");
      expect(asked).toEqual(["Your name?", "Your colour?"]);
      await client.close();
    });
  }
});
