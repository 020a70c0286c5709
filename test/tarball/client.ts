// The tarball test's client: spawns the compiled server (dist/server.js) with this Node
// over stdio with the SDK's client, calls the tool, reads the resource, checks the answers.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

async function main(): Promise<void> {
  const moduleSystem = typeof require === "function" ? "CommonJS" : "ESM";
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(process.cwd(), "dist", "server.js")],
    env: {
      ...getDefaultEnvironment(),
      NOTES_CURSOR_SECRET: "tarball-test-cursor-secret-0123456789",
      FRUGAL_LOG_LEVEL: "warn",
    },
    stderr: "inherit",
  });
  const client = new Client({ name: "tarball-test", version: "1.0.0" });
  await client.connect(transport);
  try {
    strictEqual(client.getServerVersion()?.name, "tarball-notes");
    const { tools } = await client.listTools();
    deepStrictEqual(
      tools.map((tool) => tool.name),
      ["add_note"],
    );

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
  } finally {
    await client.close();
  }
  console.log(
    `✓ ${moduleSystem} client on Node ${process.version}: called add_note, read notes://hello-world`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
