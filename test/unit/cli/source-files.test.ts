import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createTestClient } from "frugal-mcp";
import { afterAll, describe, expect, it } from "vitest";
import { sourceFiles } from "../../../src/cli/source-files.js";

// Written inside the repository's test folder, so they compile with its decorator settings
// and resolve "frugal-mcp" to these sources, as a generated project resolves its dependency.
const dir = mkdtempSync(join(import.meta.dirname, ".generated-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("sourceFiles", () => {
  const files = sourceFiles({ name: "demo-server" });

  it("gives the entry point, the module, the store, the service and a test", () => {
    expect(Object.keys(files).sort()).toEqual([
      "src/app.module.ts",
      "src/main.ts",
      "src/tasks/tasks.service.ts",
      "src/tasks/tasks.store.ts",
      "test/tasks.test.ts",
    ]);
    expect(files["src/main.ts"]).toContain('name: "demo-server"');
    expect(sourceFiles({ name: 'quote"name' })["src/main.ts"]).toContain('name: "quote\\"name"');
  });

  it("generates an app that serves its paginated tool and injects its store by type", async () => {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const { AppModule } = (await import(join(dir, "src", "app.module.ts"))) as { AppModule: Function };
    const client = await createTestClient(AppModule, { cursorSecret: "test-cursor-secret-0123456789" });
    try {
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name).sort()).toEqual(["add_task", "list_tasks"]);
      const first = await client.callTool({ name: "list_tasks", arguments: {} });
      const page = first.structuredContent as {
        items: Array<{ id: string }>;
        hasMore: boolean;
        nextCursor: string;
      };
      expect(page.items.map((t) => t.id)).toEqual(
        Array.from({ length: 10 }, (_, i) => `task-${String(i + 1).padStart(4, "0")}`),
      );
      expect(page.hasMore).toBe(true);
      const next = await client.callTool({ name: "list_tasks", arguments: { cursor: page.nextCursor } });
      expect((next.structuredContent as { items: Array<{ id: string }> }).items[0]?.id).toBe("task-0011");
      const added = await client.callTool({ name: "add_task", arguments: { title: "Write the tests" } });
      expect(added.structuredContent).toEqual({ id: "task-0043", title: "Write the tests", done: false });
    } finally {
      await client.close();
    }
  });
});
