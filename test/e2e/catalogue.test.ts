/**
 * The catalogue on 2025-11-25 sessions: operations hidden per principal (`visibleTo`) are not
 * listed and are refused as unknown names; `app.catalogue.enable/disable` changes the lists
 * at run time and sends the list-changed notifications (in memory and over Streamable HTTP).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { defineCapability, type McpApp, McpFactory, McpModule, McpService, Tool } from "frugal-mcp";
import { createTestClient, type TestClient } from "frugal-mcp/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  authenticateBearer,
  CatalogueModule,
  listChanged,
  streamsOpen,
  toolNames,
} from "../support/catalogue-services.js";

/** The error a call answers, as `{ code, message }`. */
async function refusal(call: Promise<unknown>) {
  const error = (await call.then(
    () => undefined,
    (e: unknown) => e,
  )) as { code: number; message: string } | undefined;
  if (!error) throw new Error("the call was not refused");
  return { code: error.code, message: error.message };
}

describe("catalogue: visibleTo (in memory, no principal)", () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await createTestClient(CatalogueModule);
  });
  afterAll(() => client.close());

  it("lists only the operations visible to the caller", async () => {
    expect(await toolNames(client)).toEqual(["echo"]);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(["greet"]);
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(["config://site"]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([]);
  });

  it("refuses a hidden tool, prompt or resource exactly as an unknown name", async () => {
    const unknownTool = await refusal(client.callTool({ name: "no_such_tool", arguments: {} }));
    const hiddenTool = await refusal(client.callTool({ name: "purge_cache", arguments: {} }));
    expect(hiddenTool).toEqual({
      ...unknownTool,
      message: unknownTool.message.replace("no_such_tool", "purge_cache"),
    });
    expect(hiddenTool.code).toBe(-32602);

    const unknownPrompt = await refusal(client.getPrompt({ name: "no_such_prompt" }));
    const hiddenPrompt = await refusal(client.getPrompt({ name: "admin_brief" }));
    expect(hiddenPrompt).toEqual({
      ...unknownPrompt,
      message: unknownPrompt.message.replace("no_such_prompt", "admin_brief"),
    });

    const unknownResource = await refusal(client.readResource({ uri: "secret://nothing" }));
    const hiddenResource = await refusal(client.readResource({ uri: "secret://plans" }));
    const hiddenTemplate = await refusal(client.readResource({ uri: "notes://1" }));
    expect(hiddenResource).toEqual({
      ...unknownResource,
      message: unknownResource.message.replace("secret://nothing", "secret://plans"),
    });
    expect(hiddenTemplate.code).toBe(unknownResource.code);
  });

  it("refuses completions of a hidden prompt or template as of an unknown one", async () => {
    const complete = (ref: { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string }) =>
      refusal(client.complete({ ref, argument: { name: "x", value: "" } }));
    const unknown = await complete({ type: "ref/prompt", name: "no_such_prompt" });
    expect(await complete({ type: "ref/prompt", name: "admin_brief" })).toEqual({
      ...unknown,
      message: unknown.message.replace("no_such_prompt", "admin_brief"),
    });
    expect((await complete({ type: "ref/resource", uri: "notes://{id}" })).message).toContain(
      'Unknown resource template "notes://{id}"',
    );
    const visible = await client.complete({
      ref: { type: "ref/prompt", name: "greet" },
      argument: { name: "x", value: "" },
    });
    expect(visible.completion.values).toEqual([]);
  });
});

describe("catalogue: visibleTo per principal over Streamable HTTP", () => {
  let app: McpApp;
  let url: URL;
  const clients: Client[] = [];
  beforeAll(async () => {
    app = await McpFactory.create(CatalogueModule, { name: "catalogue", version: "1.0.0" });
    url = new URL((await app.listen({ transport: "http", port: 0, authenticate: authenticateBearer })).url);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await app.close();
  });

  async function connectAs(token: string): Promise<Client> {
    const client = new Client({ name: token, version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(url, {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    clients.push(client);
    return client;
  }

  it("shows each principal its own lists, and neither can call the other's hidden tool", async () => {
    const alice = await connectAs("alice-token");
    const bob = await connectAs("bob-token");
    expect(await toolNames(alice)).toEqual(["echo", "purge_cache", "read_diary"]);
    expect(await toolNames(bob)).toEqual(["echo"]);
    expect((await alice.listPrompts()).prompts.map((p) => p.name)).toEqual(["greet", "admin_brief"]);
    expect((await bob.listPrompts()).prompts.map((p) => p.name)).toEqual(["greet"]);
    expect((await alice.listResources()).resources.map((r) => r.uri).sort()).toEqual([
      "config://site",
      "notes://1",
      "secret://plans",
    ]);
    expect((await bob.listResources()).resources.map((r) => r.uri)).toEqual(["config://site"]);
    expect((await alice.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      "notes://{id}",
    ]);

    expect((await alice.callTool({ name: "read_diary", arguments: {} })).structuredContent).toEqual({
      entries: 3,
    });
    const refused = await refusal(bob.callTool({ name: "read_diary", arguments: {} }));
    expect(refused).toEqual({ code: -32602, message: expect.stringContaining('Unknown tool "read_diary"') });
    expect(JSON.stringify((await alice.readResource({ uri: "notes://7" })).contents)).toContain("note 7");
    expect((await refusal(bob.readResource({ uri: "notes://7" }))).code).toBe(-32002);
  });

  it("tells every session when the app disables and enables a tool", async () => {
    const alice = await connectAs("alice-token");
    const bob = await connectAs("bob-token");
    await streamsOpen([alice, bob], () => app.catalogue.enable("echo"));
    const told = Promise.all([listChanged(alice, "tools"), listChanged(bob, "tools")]);
    await app.catalogue.disable("echo");
    await told;
    expect(app.catalogue.isEnabled("echo")).toBe(false);
    expect(await toolNames(alice)).toEqual(["purge_cache", "read_diary"]);
    expect(await toolNames(bob)).toEqual([]);
    expect((await refusal(bob.callTool({ name: "echo", arguments: { text: "hi" } }))).message).toContain(
      'Unknown tool "echo"',
    );

    const toldAgain = listChanged(bob, "tools");
    await app.catalogue.enable("echo");
    await toldAgain;
    expect(await toolNames(bob)).toEqual(["echo"]);
  });
});

describe("catalogue: app.catalogue.enable/disable (in memory)", () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await createTestClient(CatalogueModule);
  });
  afterAll(() => client.close());

  it("sends prompts and resources list changes for those kinds, and refuses a disabled one as unknown", async () => {
    const prompts = listChanged(client, "prompts");
    await client.app.catalogue.disable("greet");
    await prompts;
    expect((await client.listPrompts()).prompts).toEqual([]);
    expect((await refusal(client.getPrompt({ name: "greet" }))).message).toContain('Unknown prompt "greet"');

    const resources = listChanged(client, "resources");
    await client.app.catalogue.disable("config://site");
    await resources;
    expect((await client.listResources()).resources).toEqual([]);
    expect((await refusal(client.readResource({ uri: "config://site" }))).code).toBe(-32002);

    await client.app.catalogue.enable("greet");
    await client.app.catalogue.enable("config://site");
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(["greet"]);
    expect((await client.readResource({ uri: "config://site" })).contents).toHaveLength(1);
  });

  it("sends the notification even when nothing changes (enabling an enabled tool)", async () => {
    const tools = listChanged(client, "tools");
    await client.app.catalogue.enable("echo");
    await tools;
    expect(await toolNames(client)).toEqual(["echo"]);
  });

  it("refuses an unknown name, naming the close ones", async () => {
    await expect(client.app.catalogue.disable("ecko")).rejects.toThrow(
      'app.catalogue.disable("ecko"): no tool, prompt or resource is named "ecko"; did you mean "echo"?',
    );
    await expect(client.app.catalogue.enable("zzzzzzzzzz")).rejects.toThrow(/the names are "echo", /);
    expect(client.app.catalogue.isEnabled("ecko")).toBe(false);
  });
});

/** A user's own visibility decorator, through the capability API: the tool exists only for callers with a scope. */
const RequireScope = defineCapability({
  name: "requireScope",
  decorator: "@RequireScope",
  options: (scope: string) => ({ scope }),
  visible: (spec, caller) => caller.auth?.scopes.includes(spec.scope) ?? false,
});

@McpService()
class ScopedService {
  @Tool({ description: "Rotate the signing keys" })
  @RequireScope("admin")
  rotateKeys() {
    return { rotated: true };
  }

  @Tool({ description: "Say hi" })
  hello() {
    return "hi";
  }
}

@McpModule({ services: [ScopedService] })
class ScopedModule {}

describe("catalogue: a capability's visible hook", () => {
  it("hides the operation from callers it answers false for, in lists and on call", async () => {
    const client = await createTestClient(ScopedModule);
    try {
      expect(await toolNames(client)).toEqual(["hello"]);
      expect((await refusal(client.callTool({ name: "rotate_keys", arguments: {} }))).message).toContain(
        'Unknown tool "rotate_keys"',
      );
    } finally {
      await client.close();
    }
  });
});
