import { existsSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The compiled quickstart example; `npm test` builds it first.
const EXAMPLE = ".build/examples/quickstart/main.js";

describe("stdio transport (spawning the quickstart example)", () => {
  let client: Client;
  let stderr = "";

  beforeAll(async () => {
    if (!existsSync(EXAMPLE))
      throw new Error(`${EXAMPLE} is missing: run \`npm run build\` (npm test does it)`);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [EXAMPLE, "--stdio"],
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk) => {
      stderr += String(chunk);
    });
    client = new Client({ name: "stdio-test", version: "1.0.0" });
    await client.connect(transport);
  });
  afterAll(() => client?.close());

  it("lists and calls tools", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["list_notes", "add_note", "read_note"]);
    const added = await client.callTool({ name: "add_note", arguments: { title: "From stdio", body: "hi" } });
    expect(added.structuredContent).toEqual({ id: "from-stdio", uri: "notes://from-stdio" });
    const listed = await client.callTool({ name: "list_notes", arguments: {} });
    expect(JSON.stringify(listed.structuredContent)).toContain("from-stdio");
  });

  it("reads a template resource, completes it, and renders a prompt", async () => {
    const note = await client.readResource({ uri: "notes://welcome" });
    expect(JSON.parse(String((note.contents[0] as { text?: string }).text))).toMatchObject({ id: "welcome" });
    const completion = await client.complete({
      ref: { type: "ref/resource", uri: "notes://{id}" },
      argument: { name: "id", value: "pag" },
    });
    expect(completion.completion.values).toEqual(["pagination"]);
    const prompt = await client.getPrompt({ name: "summarize", arguments: { id: "welcome" } });
    expect(JSON.stringify(prompt.messages)).toContain("Welcome");
  });

  it("answers bad input with isError and keeps stdout clean (diagnostics go to stderr)", async () => {
    const bad = await client.callTool({ name: "add_note", arguments: { title: "" } });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toContain("title");
    expect(stderr).not.toContain("listening");
  });
});
