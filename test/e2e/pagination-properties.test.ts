import fc from "fast-check";
import { createTestClient, McpModule, McpService, Paginated, type TestClient, Tool } from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Property tests of keyset paging through the real client. The seed is fixed so a failure
// reproduces; change SEED (or set FC_SEED) to explore other cases.
const SEED = Number(process.env.FC_SEED ?? 20261129);

interface Row {
  group: number;
  id: number;
}

const store = { rows: [] as Row[] };

@McpService()
class RowsService {
  @Tool()
  @Paginated(["group", "id"], { limit: 5, maxLimit: 50 })
  rowsArray() {
    return [...store.rows];
  }

  @Tool()
  @Paginated(["group", "id"], { limit: 5, maxLimit: 50, order: "desc" })
  async *rowsIterable() {
    const sorted = [...store.rows].sort((a, b) => b.group - a.group || b.id - a.id);
    for (const row of sorted) yield row;
  }
}

@McpModule({ services: [RowsService] })
class RowsModule {}

const key = (row: Row) => `${row.group}:${row.id}`;

describe("keyset paging properties", () => {
  let t: TestClient;
  beforeAll(async () => {
    t = await createTestClient(RowsModule, { cursorSecret: "property-test-secret-123" });
  });
  afterAll(() => t.close());

  const mutation = fc.record({
    insert: fc.array(
      fc.record({ group: fc.integer({ min: 0, max: 20 }), id: fc.integer({ min: 0, max: 10_000 }) }),
      {
        maxLength: 4,
      },
    ),
    deleteAt: fc.array(fc.nat(), { maxLength: 3 }),
  });

  for (const tool of ["rows_array", "rows_iterable"] as const) {
    it(`${tool}: no item twice, none skipped that lived through the walk, key order kept`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.uniqueArray(
            fc.record({ group: fc.integer({ min: 0, max: 20 }), id: fc.integer({ min: 0, max: 10_000 }) }),
            {
              selector: key,
              maxLength: 60,
            },
          ),
          fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 30 }),
          fc.array(mutation, { maxLength: 30 }),
          async (initial, pageSizes, mutations) => {
            store.rows = [...initial];
            const survivors = new Set(initial.map(key));
            const returned: Row[] = [];
            let cursor: string | null = null;
            let step = 0;
            do {
              const limit = pageSizes[step % pageSizes.length] as number;
              const result = await t.client.callTool({
                name: tool,
                arguments: cursor ? { cursor, limit } : { limit },
              });
              expect(result.isError).toBeFalsy();
              const page = result.structuredContent as { items: Row[]; nextCursor: string | null };
              expect(page.items.length).toBeLessThanOrEqual(limit);
              returned.push(...page.items);
              cursor = page.nextCursor;
              const change = mutations[step];
              if (change) {
                for (const index of change.deleteAt) {
                  if (store.rows.length === 0) break;
                  const [removed] = store.rows.splice(index % store.rows.length, 1);
                  if (removed) survivors.delete(key(removed));
                }
                for (const row of change.insert) {
                  if (!store.rows.some((r) => key(r) === key(row))) store.rows.push(row);
                }
              }
              step++;
            } while (cursor);
            const keys = returned.map(key);
            expect(new Set(keys).size).toBe(keys.length);
            for (const survivor of survivors) expect(keys).toContain(survivor);
            const direction = tool === "rows_array" ? 1 : -1;
            for (let i = 1; i < returned.length; i++) {
              const a = returned[i - 1] as Row;
              const b = returned[i] as Row;
              expect(Math.sign(b.group - a.group || b.id - a.id)).toBe(direction);
            }
          },
        ),
        { seed: SEED, numRuns: 60 },
      );
    });
  }
});
