// The tarball test's check of the subpath entries `frugal-mcp/testing` and `frugal-mcp/s3`
// (imported in ESM, required in CommonJS): an in-memory client with a provider overridden, and
// what its tool list costs (`tokensOf`, `catalogueOf`), with no test runner installed.
import "reflect-metadata";
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { S3Storage } from "frugal-mcp/s3";
import { catalogueOf, createTestClient, tokensOf } from "frugal-mcp/testing";
import { AppModule, NotesStore } from "./notes.js";

class FakeStore extends NotesStore {
  override count(): number {
    return 42;
  }
}

async function main(): Promise<void> {
  strictEqual(typeof S3Storage, "function");
  const { client, close } = await createTestClient(AppModule, {
    providers: [{ provide: NotesStore, useClass: FakeStore }],
    cursorSecret: process.env.NOTES_CURSOR_SECRET,
  });
  try {
    const added = await client.callTool({ name: "add_note", arguments: { title: "Fake", body: "x" } });
    deepStrictEqual(added.structuredContent, { id: "fake", uri: "notes://fake", count: 42 });
    const tools = await catalogueOf(client);
    strictEqual(tools.length, 5);
    const cost = await tokensOf({ tools });
    ok(cost > 100 && cost < 2_000, `the notes' tool list costs ${cost} tokens`);
    ok((await tokensOf(added)) > 0);
  } finally {
    await close();
  }
  console.log(`✓ frugal-mcp/testing and frugal-mcp/s3 on Node ${process.version}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
