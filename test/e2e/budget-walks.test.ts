import {
  Budget,
  createTestClient,
  MAX_TOKENS_META,
  McpModule,
  McpService,
  Paginated,
  type TestClient,
  Tool,
} from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Items of about 14 tokens, keyed by a 16-character slug (a cursor of ~20 tokens), with one
// item far over any budget here: a walk must deliver every other item exactly once.
const slug = (i: number) => `item-${String(i).padStart(4, "0")}-abcdefg`;
const ITEMS = Array.from({ length: 30 }, (_, i) => ({
  id: slug(i),
  note: i === 17 ? "huge ".repeat(600) : `n${i} ${"ab ".repeat(i % 5)}`,
}));
const GIANT = slug(17);
const START = Date.UTC(2026, 10, 1, 12, 0, 0);
const EVENTS = ITEMS.map((item, i) => ({ at: new Date(START + i * 1000).toISOString(), ...item }));

@McpService()
class WalkService {
  @Tool()
  @Paginated("id", { limit: 10, maxLimit: 50 })
  @Budget(150)
  plain150() {
    return ITEMS;
  }

  @Tool()
  @Paginated("id", { limit: 10, maxLimit: 50 })
  @Budget(300)
  plain300() {
    return ITEMS;
  }

  @Tool()
  @Paginated(["at", "id"], { limit: 10, maxLimit: 50, stream: { window: 60 * 60_000 } })
  @Budget(300)
  stream300() {
    return EVENTS;
  }

  @Tool()
  @Paginated(["at", "id"], { limit: 10, maxLimit: 50, stream: { window: 60 * 60_000 } })
  @Budget(150)
  stream150() {
    return EVENTS;
  }
}

@McpModule({ services: [WalkService] })
class WalkModule {}

interface Page {
  items: Array<{ id: string }>;
  nextCursor: string | null;
  skipped?: Array<{ position: number; reason: string }>;
}

describe("budget walks never skip an item that fits", () => {
  let t: TestClient;
  beforeAll(async () => {
    t = await createTestClient(WalkModule);
  });
  afterAll(() => t.close());

  /** Walks every page of `name` (at most 200 calls) and returns the ids delivered and how many items were skipped. */
  const walk = async (name: string, args: Record<string, unknown>, maxTokens?: number) => {
    const delivered: string[] = [];
    let skipped = 0;
    let cursor: string | null = null;
    for (let calls = 0; calls < 200; calls++) {
      const result = await t.client.callTool({
        name,
        arguments: cursor ? { ...args, cursor } : args,
        ...(maxTokens ? { _meta: { [MAX_TOKENS_META]: maxTokens } } : {}),
      });
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      const page = result.structuredContent as Page;
      delivered.push(...page.items.map((item) => item.id));
      skipped += page.skipped?.length ?? 0;
      cursor = page.nextCursor;
      if (!cursor) break;
    }
    return { delivered, skipped };
  };
  const everyFittingItem = ITEMS.map((item) => item.id).filter((id) => id !== GIANT);
  const since = new Date(START - 1).toISOString();

  it.each([
    ["plain150", {}],
    ["plain300", {}],
    ["stream150", { since }],
    ["stream300", { since }],
  ])("%s delivers every item that fits alone exactly once, and skips only the giant", async (name, args) => {
    const { delivered, skipped } = await walk(name, args);
    expect(delivered).toEqual(everyFittingItem);
    expect(skipped).toBe(1);
  });

  it("holds under every small per-call limit, on plain and stream pages", async () => {
    for (let budget = 40; budget <= 300; budget += 20) {
      for (const [name, args] of [
        ["plain300", {}],
        ["stream300", { since }],
      ] as const) {
        const { delivered } = await walk(name, args, budget);
        expect(delivered, `${name} under ${budget} tokens`).toEqual(everyFittingItem);
      }
    }
  });
});
