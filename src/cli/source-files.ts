/**
 * The TypeScript of a new project: the entry point, the module, a service with a paginated
 * tool over an injected store, and its tests. The files use no template literals of their
 * own, so they read here as they will there.
 *
 * @example
 * ```ts
 * sourceFiles({ name: "demo" })["src/main.ts"]; // 'import "reflect-metadata"; …'
 * ```
 */
export function sourceFiles(spec: { readonly name: string }): Record<string, string> {
  return {
    "src/main.ts": main(spec.name),
    "src/app.module.ts": APP_MODULE,
    "src/tasks/tasks.store.ts": TASKS_STORE,
    "src/tasks/tasks.service.ts": TASKS_SERVICE,
    "test/tasks.test.ts": TASKS_TEST,
  };
}

const main = (name: string) => `import "reflect-metadata";
import { McpFactory } from "frugal-mcp";
import { AppModule } from "./app.module.js";

// Streamable HTTP on http://127.0.0.1:PORT/mcp (PORT defaults to 3000); with --stdio, stdio
// for a desktop client that starts the server itself. Set CURSOR_SECRET (16+ random bytes) in
// production so page cursors survive a restart and work across instances.
const app = await McpFactory.create(AppModule, {
  name: ${JSON.stringify(name)},
  version: "0.1.0",
  cursorSecret: process.env.CURSOR_SECRET,
});
if (process.argv.includes("--stdio")) {
  await app.listen({ transport: "stdio" });
} else {
  await app.listen({ transport: "http", port: Number(process.env.PORT ?? 3000) });
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void app.close().then(() => process.exit(0)));
}
`;

const APP_MODULE = `import { McpModule } from "frugal-mcp";
import { TasksService } from "./tasks/tasks.service.js";
import { TasksStore } from "./tasks/tasks.store.js";

/** The app: its services (tools, resources, prompts) and the providers they are given. */
@McpModule({ services: [TasksService], providers: [TasksStore] })
export class AppModule {}
`;

const TASKS_STORE = `import { Injectable } from "frugal-mcp";

/** A task, as the tools return it. */
export interface Task {
  id: string;
  title: string;
  done: boolean;
}

/**
 * Tasks in memory, in id order. Swap it for your database and keep list()'s contract: the
 * tasks after afterId, in id order, at most limit of them.
 */
@Injectable()
export class TasksStore {
  private readonly tasks: Task[] = [];

  constructor() {
    for (let n = 1; n <= 42; n++) this.add("Task " + n, n % 3 === 0);
  }

  add(title: string, done = false): Task {
    // Ids grow with the list, so the array stays in id order.
    const task = { id: "task-" + String(this.tasks.length + 1).padStart(4, "0"), title, done };
    this.tasks.push(task);
    return task;
  }

  list(query: { afterId: string | null; limit: number; done?: boolean | undefined }): Task[] {
    return this.tasks
      .filter((t) => query.afterId === null || t.id > query.afterId)
      .filter((t) => query.done === undefined || t.done === query.done)
      .slice(0, query.limit);
  }
}
`;

const TASKS_SERVICE = `import { McpService, Paginated, Tool, type ToolContext } from "frugal-mcp";
import { z } from "zod";
import { TasksStore } from "./tasks.store.js";

/** The tasks tools. Each decorated method is a tool; its name is the method's in snake_case. */
@McpService()
export class TasksService {
  // Injected by its type, which the compiler records with emitDecoratorMetadata.
  constructor(private readonly store: TasksStore) {}

  @Tool({
    description: "List tasks in id order, a page at a time",
    input: { done: z.boolean().optional().describe("only done (true) or open (false) tasks") },
    annotations: { readOnlyHint: true },
  })
  // Keyset pages by the stable key "id": the tool gains cursor and limit inputs, and answers
  // { items, nextCursor, hasMore, count } with a signed cursor for the next page.
  @Paginated("id", { limit: 10, maxLimit: 50 })
  listTasks({ done }: { done?: boolean }, ctx: ToolContext) {
    const page = ctx.page;
    if (!page) throw new Error("list_tasks runs under @Paginated, so ctx.page is always set");
    const afterId = typeof page.after?.id === "string" ? page.after.id : null;
    // One row more than the page: the framework cuts it off and knows there is more.
    return this.store.list({ afterId, limit: page.limit + 1, done });
  }

  @Tool({ description: "Add a task", input: { title: z.string().min(1).max(200) } })
  addTask({ title }: { title: string }) {
    return this.store.add(title);
  }
}
`;

const TASKS_TEST = `import "reflect-metadata";
import { createTestClient } from "frugal-mcp/testing";
import "frugal-mcp/testing/vitest";
import { describe, expect, it } from "vitest";
import { AppModule } from "../src/app.module.js";
import { type Task, TasksStore } from "../src/tasks/tasks.store.js";

// A fixed secret for the page cursors (without one the app warns, and signs with a random key).
const options = { cursorSecret: "test-cursor-secret-0123456789" };

interface Page {
  items: Task[];
  nextCursor: string | null;
  hasMore: boolean;
  count: number;
}

describe("list_tasks", () => {
  it("walks every task, ten at a time, following nextCursor", async () => {
    const client = await createTestClient(AppModule, options);
    try {
      const ids: string[] = [];
      let cursor: string | null = null;
      do {
        const args: Record<string, unknown> = cursor === null ? {} : { cursor };
        const result = await client.callTool({ name: "list_tasks", arguments: args });
        const page = result.structuredContent as unknown as Page;
        expect(page.count).toBeLessThanOrEqual(10);
        ids.push(...page.items.map((task) => task.id));
        cursor = page.nextCursor;
      } while (cursor !== null);
      expect(ids).toHaveLength(42);
      expect(new Set(ids).size).toBe(42);
    } finally {
      await client.close();
    }
  });

  it("filters by done", async () => {
    const client = await createTestClient(AppModule, options);
    try {
      const result = await client.callTool({ name: "list_tasks", arguments: { done: true, limit: 50 } });
      const page = result.structuredContent as unknown as Page;
      expect(page.items).toHaveLength(14);
      expect(page.items.every((task) => task.done)).toBe(true);
    } finally {
      await client.close();
    }
  });
});

describe("add_task", () => {
  it("writes to the store the test provides", async () => {
    const store = new TasksStore();
    const client = await createTestClient(AppModule, {
      ...options,
      providers: [{ provide: TasksStore, useValue: store }],
    });
    try {
      const result = await client.callTool({ name: "add_task", arguments: { title: "Ship it" } });
      expect(result.structuredContent).toEqual({ id: "task-0043", title: "Ship it", done: false });
      expect(store.list({ afterId: "task-0042", limit: 10 })).toEqual([
        { id: "task-0043", title: "Ship it", done: false },
      ]);
    } finally {
      await client.close();
    }
  });
});

// A model reads every tool's name, description and input schema before each call: this fails
// when a change makes the list cost more (223 tokens when generated: list_tasks takes aggregate, as every paged
// tool does). Raise it on purpose.
describe("the catalogue", () => {
  it("costs a model at most 240 tokens", async () => {
    const client = await createTestClient(AppModule, options);
    try {
      await expect(client).catalogueToCostAtMost(240);
    } finally {
      await client.close();
    }
  });
});
`;
