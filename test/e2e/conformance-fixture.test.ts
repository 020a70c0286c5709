import { inflateSync } from "node:zlib";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  type CallToolResult,
  type ClientCapabilities,
  type CreateMessageRequest,
  CreateMessageRequestSchema,
  type ElicitRequest,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  type Progress,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { createTestClient, LOGGER, type Logger, type McpApp, McpFactory, type TestClient } from "frugal-mcp";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ConformanceModule } from "../../examples/conformance-server/app.module.js";
import { WatchedResource } from "../../examples/conformance-server/watched-resource.js";

// The conformance suite's "everything" server (examples/conformance-server), checked through
// a real SDK client: in memory, and over Streamable HTTP. `npm run conformance` runs the
// official suite against the same module.

const TOOLS = [
  "json_schema_2020_12_tool",
  "test_audio_content",
  "test_elicitation",
  "test_elicitation_sep1034_defaults",
  "test_elicitation_sep1330_enums",
  "test_embedded_resource",
  "test_error_handling",
  "test_image_content",
  "test_multiple_content_types",
  "test_reconnection",
  "test_sampling",
  "test_simple_text",
  "test_tool_with_logging",
  "test_tool_with_progress",
];

const ARGUMENTS: Record<string, Record<string, unknown>> = {
  test_sampling: { prompt: "Say hi" },
  test_elicitation: { message: "Who are you?" },
  json_schema_2020_12_tool: { name: "Ada", address: { street: "1 Loop Rd", city: "Cambridge" } },
};

const CAPABILITIES: ClientCapabilities = { sampling: {}, elicitation: {} };

const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

const bytesOf = (base64: string) => Buffer.from(base64, "base64");
const textOf = (result: unknown) => {
  const [first] = (result as CallToolResult).content;
  return first?.type === "text" ? first.text : "";
};

/** A 1×1 PNG: signature, then IHDR 1×1, and an IDAT inflating to one red RGB pixel. */
function expectRedPixelPng(bytes: Buffer): void {
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(bytes.toString("ascii", 12, 16)).toBe("IHDR");
  expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([1, 1]);
  const idat = bytes.indexOf("IDAT");
  const length = bytes.readUInt32BE(idat - 4);
  expect([...inflateSync(bytes.subarray(idat + 4, idat + 4 + length))]).toEqual([0, 255, 0, 0]);
  expect(bytes.toString("ascii", bytes.length - 8, bytes.length - 4)).toBe("IEND");
}

/** Answers the server's sampling and elicitation requests, keeping what it was asked. */
function answerServerRequests(client: Client) {
  const asked = { sampling: [] as CreateMessageRequest[], elicitation: [] as ElicitRequest[] };
  client.setRequestHandler(CreateMessageRequestSchema, (request) => {
    asked.sampling.push(request);
    return {
      role: "assistant",
      content: { type: "text", text: "Hello from the test model" },
      model: "test-model",
      stopReason: "endTurn",
    };
  });
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.elicitation.push(request);
    const content: Record<string, string | number | boolean | string[]> =
      request.params.message === "Please select options from the enum fields"
        ? { untitledSingle: "option2", titledMulti: ["value1", "value3"] }
        : { response: "Grace", age: 41 };
    return { action: "accept", content };
  });
  return asked;
}

/** Calls every fixture tool and checks each answer; shared by both transports. */
async function callEveryTool(client: Client, { sseStreams }: { sseStreams: boolean }) {
  const asked = answerServerRequests(client);
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
  for (const tool of tools) expect(tool.description, tool.name).toBeTruthy();

  const results = new Map<string, CallToolResult>();
  for (const name of TOOLS) {
    const result = (await client.callTool({ name, arguments: ARGUMENTS[name] ?? {} })) as CallToolResult;
    if (name === "test_error_handling") {
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe("This tool intentionally returns an error for testing");
    } else {
      expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
      expect(result.content.length, name).toBeGreaterThan(0);
    }
    results.set(name, result);
  }

  expect(results.get("test_simple_text")?.content).toEqual([
    { type: "text", text: "This is a simple text response for testing." },
  ]);
  const [picture] = results.get("test_image_content")?.content ?? [];
  expect(picture).toMatchObject({ type: "image", mimeType: "image/png" });
  expectRedPixelPng(bytesOf((picture as { data: string }).data));
  const [sound] = results.get("test_audio_content")?.content ?? [];
  expect(sound).toMatchObject({ type: "audio", mimeType: "audio/wav" });
  const wav = bytesOf((sound as { data: string }).data);
  expect([wav.toString("ascii", 0, 4), wav.toString("ascii", 8, 12), wav.readUInt32LE(4)]).toEqual([
    "RIFF",
    "WAVE",
    wav.length - 8,
  ]);
  expect(results.get("test_embedded_resource")?.content).toEqual([
    {
      type: "resource",
      resource: {
        uri: "test://embedded-resource",
        mimeType: "text/plain",
        text: "This is an embedded resource content.",
      },
    },
  ]);
  expect(results.get("test_multiple_content_types")?.content.map((c) => c.type)).toEqual([
    "text",
    "image",
    "resource",
  ]);
  expect(textOf(results.get("json_schema_2020_12_tool"))).toBe(
    `JSON Schema 2020-12 tool called with: ${JSON.stringify(ARGUMENTS.json_schema_2020_12_tool)}`,
  );

  expect(asked.sampling).toHaveLength(1);
  expect(asked.sampling[0]?.params).toMatchObject({
    maxTokens: 100,
    messages: [{ role: "user", content: { type: "text", text: "Say hi" } }],
  });
  expect(textOf(results.get("test_sampling"))).toBe("LLM response: Hello from the test model");

  expect(asked.elicitation.map((r) => r.params.message)).toEqual([
    "Who are you?",
    "Please review and update the form fields with defaults",
    "Please select options from the enum fields",
  ]);
  expect(textOf(results.get("test_elicitation"))).toBe(
    'User response: action=accept, content={"response":"Grace","age":41}',
  );
  expect(textOf(results.get("test_elicitation_sep1330_enums"))).toBe(
    'Elicitation completed: action=accept, content={"untitledSingle":"option2","titledMulti":["value1","value3"]}',
  );
  const reconnected = textOf(results.get("test_reconnection"));
  if (sseStreams) expect(reconnected).toContain("the client properly reconnected");
  else expect(reconnected).toContain("without closing a stream");
  return asked;
}

describe("examples/conformance-server in memory", () => {
  let t: TestClient;

  beforeEach(async () => {
    t = await createTestClient(ConformanceModule, {
      capabilities: CAPABILITIES,
      providers: [{ provide: LOGGER, useValue: silentLogger }],
    });
  });
  afterEach(() => t.close());

  it("answers every tool: content blocks, errors, sampling and elicitation", async () => {
    const asked = await callEveryTool(t.client, { sseStreams: false });
    const [withDefaults, withEnums] = asked.elicitation.slice(1).map((r) => r.params);
    const defaults = (withDefaults as { requestedSchema: { properties: Record<string, any> } })
      .requestedSchema.properties;
    expect(
      Object.fromEntries(Object.entries(defaults).map(([field, schema]) => [field, schema.default])),
    ).toEqual({ name: "John Doe", age: 30, score: 95.5, status: "active", verified: true });
    expect(defaults.age.type).toBe("integer");
    const enums = (withEnums as { requestedSchema: { properties: Record<string, any> } }).requestedSchema
      .properties;
    expect(enums.untitledSingle).toMatchObject({ type: "string", enum: ["option1", "option2", "option3"] });
    expect(enums.titledSingle.oneOf[0]).toEqual({ const: "value1", title: "First Option" });
    expect(enums.legacyEnum.enumNames).toHaveLength(enums.legacyEnum.enum.length);
    expect(enums.untitledMulti).toMatchObject({ type: "array", items: { type: "string" } });
    expect(enums.titledMulti.items.anyOf[2]).toEqual({ const: "value3", title: "Third Choice" });
  });

  it("advertises the raw JSON Schema 2020-12 of json_schema_2020_12_tool, and still validates with zod", async () => {
    const { tools } = await t.client.listTools();
    const schema = tools.find((tool) => tool.name === "json_schema_2020_12_tool")?.inputSchema;
    expect(schema).toMatchObject({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      $defs: { address: { type: "object" } },
      properties: { address: { $ref: "#/$defs/address" } },
      additionalProperties: false,
    });
    const refused = await t.client.callTool({
      name: "json_schema_2020_12_tool",
      arguments: { name: "Ada", nickname: "A" },
    });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain("nickname");
    const wrongType = await t.client.callTool({
      name: "json_schema_2020_12_tool",
      arguments: { address: { city: 7 } },
    });
    expect(wrongType.isError).toBe(true);
  });

  it("sends three MCP log messages and three increasing progress notifications", async () => {
    const logs: unknown[] = [];
    t.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      logs.push(n.params);
    });
    await t.client.setLoggingLevel("debug");
    await t.client.callTool({ name: "test_tool_with_logging", arguments: {} });
    expect(logs).toEqual(
      ["Tool execution started", "Tool processing data", "Tool execution completed"].map((data) => ({
        level: "info",
        logger: "test_tool_with_logging",
        data,
      })),
    );
    // Above the session's level, nothing is sent.
    await t.client.setLoggingLevel("error");
    await t.client.callTool({ name: "test_tool_with_logging", arguments: {} });
    expect(logs).toHaveLength(3);

    const progress: Progress[] = [];
    const result = await t.client.callTool({ name: "test_tool_with_progress", arguments: {} }, undefined, {
      onprogress: (p) => progress.push(p),
    });
    expect(progress.map((p) => [p.progress, p.total, p.message])).toEqual([
      [0, 100, "Completed step 0 of 100"],
      [50, 100, "Completed step 50 of 100"],
      [100, 100, "Completed step 100 of 100"],
    ]);
    // It answers with the progress token the client sent (the SDK uses the request id).
    expect(textOf(result)).toMatch(/^\d+$/);
  });

  it("answers isError to sampling and elicitation when the client lacks the capability", async () => {
    const bare = await t.connect({});
    for (const [name, args] of [
      ["test_sampling", { prompt: "hi" }],
      ["test_elicitation", { message: "hi" }],
      ["test_elicitation_sep1034_defaults", {}],
    ] as const) {
      const result = await bare.callTool({ name, arguments: args });
      expect(result.isError, name).toBe(true);
    }
  });

  it("serves the static, binary and template resources", async () => {
    const { resources } = await t.client.listResources();
    expect(resources.map(({ uri, name, mimeType }) => ({ uri, name, mimeType }))).toEqual([
      { uri: "test://static-text", name: "static-text", mimeType: "text/plain" },
      { uri: "test://static-binary", name: "static-binary", mimeType: "image/png" },
      { uri: "test://watched-resource", name: "watched-resource", mimeType: "text/plain" },
    ]);
    for (const resource of resources) expect(resource.description, resource.uri).toBeTruthy();
    const { resourceTemplates } = await t.client.listResourceTemplates();
    expect(resourceTemplates).toEqual([
      expect.objectContaining({
        uriTemplate: "test://template/{id}/data",
        name: "template",
        mimeType: "application/json",
      }),
    ]);

    expect((await t.client.readResource({ uri: "test://static-text" })).contents).toEqual([
      {
        uri: "test://static-text",
        mimeType: "text/plain",
        text: "This is the content of the static text resource.",
      },
    ]);
    const [binary] = (await t.client.readResource({ uri: "test://static-binary" })).contents;
    expect(binary).toMatchObject({ uri: "test://static-binary", mimeType: "image/png" });
    expectRedPixelPng(bytesOf((binary as { blob: string }).blob));
    const [data] = (await t.client.readResource({ uri: "test://template/123/data" })).contents;
    expect(data).toMatchObject({ uri: "test://template/123/data", mimeType: "application/json" });
    expect(JSON.parse((data as { text: string }).text)).toEqual({
      id: "123",
      templateTest: true,
      data: "Data for ID: 123",
    });
  });

  it("notifies a subscriber when the watched resource changes, and stops after unsubscribe", async () => {
    const updated: string[] = [];
    t.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updated.push(n.params.uri);
    });
    const other = await t.connect(CAPABILITIES);
    const otherUpdated: string[] = [];
    other.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      otherUpdated.push(n.params.uri);
    });
    const read = async () => {
      const [content] = (await t.client.readResource({ uri: "test://watched-resource" })).contents;
      return (content as { text: string }).text;
    };
    expect(await read()).toBe("Watched resource content");

    await t.client.subscribeResource({ uri: "test://watched-resource" });
    const watched = t.app.get(WatchedResource);
    await watched.update("Changed by the test");
    await expect.poll(() => updated).toEqual(["test://watched-resource"]);
    // The change also dropped the cached copy.
    expect(await read()).toBe("Changed by the test");
    await watched.update();
    await expect.poll(() => updated).toHaveLength(2);
    expect(await read()).toBe("Watched resource content (revision 2)");

    await t.client.unsubscribeResource({ uri: "test://watched-resource" });
    await watched.update("Nobody is told");
    // update() resolves once the invalidation has sent its notifications, and a session's
    // messages arrive in order: after a ping round trip on each client, a stray one would be in.
    await Promise.all([t.client.ping(), other.ping()]);
    expect(updated).toHaveLength(2);
    expect(otherUpdated).toEqual([]);
    expect(await read()).toBe("Nobody is told");
  });

  it("serves the four prompts, and completes arg1", async () => {
    const { prompts } = await t.client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual([
      "test_prompt_with_arguments",
      "test_prompt_with_embedded_resource",
      "test_prompt_with_image",
      "test_simple_prompt",
    ]);
    for (const prompt of prompts) expect(prompt.description, prompt.name).toBeTruthy();
    expect(prompts.find((p) => p.name === "test_prompt_with_arguments")?.arguments).toEqual([
      { name: "arg1", description: "First test argument", required: true },
      { name: "arg2", description: "Second test argument", required: true },
    ]);

    expect((await t.client.getPrompt({ name: "test_simple_prompt" })).messages).toEqual([
      { role: "user", content: { type: "text", text: "This is a simple prompt for testing." } },
    ]);
    const withArgs = await t.client.getPrompt({
      name: "test_prompt_with_arguments",
      arguments: { arg1: "alpha", arg2: "beta" },
    });
    expect(withArgs.messages).toEqual([
      { role: "user", content: { type: "text", text: "Prompt with arguments: arg1='alpha', arg2='beta'" } },
    ]);
    const embedded = await t.client.getPrompt({
      name: "test_prompt_with_embedded_resource",
      arguments: { resourceUri: "test://static-text" },
    });
    expect(embedded.messages).toEqual([
      {
        role: "user",
        content: {
          type: "resource",
          resource: {
            uri: "test://static-text",
            mimeType: "text/plain",
            text: "Embedded resource content for testing.",
          },
        },
      },
      { role: "user", content: { type: "text", text: "Please process the embedded resource above." } },
    ]);
    const withImage = await t.client.getPrompt({ name: "test_prompt_with_image" });
    expect(withImage.messages.map((m) => m.content.type)).toEqual(["image", "text"]);
    const [picture] = withImage.messages;
    expect(picture?.content).toMatchObject({ type: "image", mimeType: "image/png" });
    expectRedPixelPng(bytesOf((picture?.content as { data?: string } | undefined)?.data ?? ""));

    const completion = await t.client.complete({
      ref: { type: "ref/prompt", name: "test_prompt_with_arguments" },
      argument: { name: "arg1", value: "par" },
    });
    expect(completion.completion).toEqual({ values: ["paris", "park", "party"], total: 3, hasMore: false });
    const none = await t.client.complete({
      ref: { type: "ref/prompt", name: "test_prompt_with_arguments" },
      argument: { name: "arg2", value: "x" },
    });
    expect(none.completion.values).toEqual([]);
  });
});

describe("examples/conformance-server over Streamable HTTP", () => {
  let app: McpApp;
  let url: string;

  beforeAll(async () => {
    app = await McpFactory.create(ConformanceModule, {
      name: "conformance",
      version: "1.0.0",
      providers: [{ provide: LOGGER, useValue: silentLogger }],
    });
    // main.ts uses 5 s, as the suite's reference server does; a short retry keeps the test quick.
    ({ url } = (await app.listen({ transport: "http", port: 0, retryIntervalMs: 50 })) as { url: string });
  });
  afterAll(() => app?.close());

  it("answers every tool; test_reconnection's result arrives after the client reconnects", async () => {
    const transport = new StreamableHTTPClientTransport(new URL(url));
    const client = new Client({ name: "conformance-http", version: "1" }, { capabilities: CAPABILITIES });
    await client.connect(transport);
    try {
      await callEveryTool(client, { sseStreams: true });
    } finally {
      await client.close();
    }
  });

  it("answers 404 to a terminated session id", async () => {
    const transport = new StreamableHTTPClientTransport(new URL(url));
    const client = new Client({ name: "conformance-http", version: "1" });
    await client.connect(transport);
    const sessionId = transport.sessionId as string;
    await transport.terminateSession();
    await client.close();
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": sessionId,
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    expect(response.status).toBe(404);
    const body = (await response.json()) as { error: { code: number } };
    expect(body.error.code).toBe(-32001);
  });
});
