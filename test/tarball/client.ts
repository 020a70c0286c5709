// The tarball test's client: spawns a compiled or bundled server with this Node over stdio
// with the SDK's client, calls its tools, reads its resource, checks the answers.
//
//   node dist/client.js [server file] [notes | quickstart]
//
// `notes` (the default) is dist/server.js (notes.ts) or a bundle of it; `quickstart` is the
// README's quick start, copied from README.md by scripts/tarball-test.sh as it is written.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [serverFile = "dist/server.js", scenario = "notes"] = process.argv.slice(2);

async function checkNotes(client: Client): Promise<string> {
  strictEqual(client.getServerVersion()?.name, "tarball-notes");
  const { tools } = await client.listTools();
  deepStrictEqual(tools.map((tool) => tool.name).sort(), [
    "add_note",
    "export_notes",
    "query_resource",
    "read_resource",
    "search_resource",
  ]);

  const added = await client.callTool({
    name: "add_note",
    arguments: { title: "Hello World", body: "Hi" },
  });
  ok(!added.isError, `add_note failed: ${JSON.stringify(added.content)}`);
  deepStrictEqual(added.structuredContent, { id: "hello-world", uri: "notes://hello-world", count: 2 });

  const rejected = await client.callTool({ name: "add_note", arguments: { title: "" } });
  strictEqual(rejected.isError, true, "zod validation of the user's schema must refuse an empty title");

  const read = await client.readResource({ uri: "notes://hello-world" });
  const [content] = read.contents;
  strictEqual(content?.mimeType, "application/json");
  deepStrictEqual(JSON.parse(String((content as { text?: unknown }).text)), {
    id: "hello-world",
    title: "Hello World",
    body: "Hi",
  });

  // An ephemeral resource, searched with a regular expression (RE2, loaded from its package).
  const exported = await client.callTool({ name: "export_notes", arguments: {} });
  const link = (exported.content as Array<{ type: string; uri?: string }>).find(
    (c) => c.type === "resource_link",
  );
  ok(link?.uri, `export_notes returned no resource link: ${JSON.stringify(exported.content)}`);
  const found = await client.callTool({
    name: "search_resource",
    arguments: { uri: link.uri, pattern: "Hel+o W", regex: true },
  });
  ok(!found.isError, `search_resource failed: ${JSON.stringify(found.content)}`);
  ok(
    JSON.stringify(found.structuredContent ?? found.content).includes("Hello World"),
    "the regex search found nothing",
  );
  return "called add_note, read notes://hello-world, searched an ephemeral resource with RE2";
}

async function checkQuickstart(client: Client): Promise<string> {
  strictEqual(client.getServerVersion()?.name, "notes");
  const { tools } = await client.listTools();
  deepStrictEqual(tools.map((tool) => tool.name).sort(), ["list_notes", "read_note"]);

  const listed = await client.callTool({ name: "list_notes", arguments: { tag: "intro" } });
  ok(!listed.isError, `list_notes failed: ${JSON.stringify(listed.content)}`);
  ok(JSON.stringify(listed.content).includes("Welcome"), `list_notes: ${JSON.stringify(listed.content)}`);

  const missing = await client.callTool({ name: "read_note", arguments: { id: "nope" } });
  strictEqual(missing.isError, true, "read_note of an unknown id must answer isError");

  const read = await client.readResource({ uri: "notes://welcome" });
  ok(String((read.contents[0] as { text?: unknown }).text).includes("Hello"));
  return "called list_notes and read_note, read notes://welcome";
}

async function main(): Promise<void> {
  const moduleSystem = typeof require === "function" ? "CommonJS" : "ESM";
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [resolve(serverFile)],
    env: {
      ...getDefaultEnvironment(),
      NOTES_CURSOR_SECRET: "tarball-test-cursor-secret-0123456789",
      FRUGAL_LOG_LEVEL: "warn",
    },
    stderr: "inherit",
  });
  const client = new Client({ name: "tarball-test", version: "1.0.0" });
  await client.connect(transport);
  let done: string;
  try {
    done = scenario === "quickstart" ? await checkQuickstart(client) : await checkNotes(client);
  } finally {
    await client.close();
  }
  console.log(`✓ ${moduleSystem} client on Node ${process.version}, ${serverFile}: ${done}`);
}

main().catch((error: unknown) => {
  console.error(`✗ ${serverFile}:`, error);
  process.exit(1);
});
