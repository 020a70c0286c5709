/**
 * `@Paginated` holds two places of the order ("decodeCursor", "paginate") through the
 * capability API, as a kernel stage held its place: a user's stage placed `at` one of them
 * runs inside it whatever its name, and a capability that declares one of them again is
 * refused when the app is built.
 */
import {
  type CapabilityCall,
  createTestClient,
  defineCapability,
  McpModule,
  McpService,
  Paginated,
  type TestClient,
  Tool,
  type ToolContext,
} from "frugal-mcp";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";

const seen: unknown[] = [];
// "aa…" sorts before "pagination": where a stage runs follows its place, never its name.
const AaAtDecoder = defineCapability({
  name: "aaAtDecoder",
  decorator: "@AaAtDecoder",
  options: () => ({}),
  stage: {
    at: "decodeCursor",
    create: () => async (call: CapabilityCall, next: () => Promise<unknown>) => {
      seen.push(call.input);
      return next();
    },
  },
});
const Thief = defineCapability({
  name: "thief",
  decorator: "@Thief",
  options: () => ({}),
  stage: { place: "paginate", after: "interceptors", create: () => async (_call, next) => next() },
});

const ROWS = Array.from({ length: 5 }, (_, i) => ({ id: i + 1 }));

@McpService()
class Rows {
  @Tool({ input: { site: z.string() } })
  @Paginated("id", { limit: 2 })
  @AaAtDecoder()
  list(_input: { site: string }, ctx: ToolContext) {
    const after = Number(ctx.page?.after?.id ?? 0);
    return ROWS.filter((row) => row.id > after).slice(0, (ctx.page?.limit ?? 2) + 1);
  }
}

@McpService()
class Stolen {
  @Tool() @Paginated("id") @Thief() list() {
    return ROWS;
  }
}

@McpModule({ services: [Rows] })
class RowsModule {}

@McpModule({ services: [Stolen] })
class StolenModule {}

describe("@Paginated's places", () => {
  let client: TestClient | undefined;
  afterEach(async () => {
    await client?.close();
    client = undefined;
    seen.length = 0;
  });

  it('runs a stage placed at "decodeCursor" inside the decoder: it sees the input without cursor and limit', async () => {
    client = await createTestClient(RowsModule);
    const first = await client.client.callTool({ name: "list", arguments: { site: "a", limit: 2 } });
    const page = first.structuredContent as { items: unknown[]; nextCursor: string | null };
    expect(page.items).toEqual([{ id: 1 }, { id: 2 }]);
    await client.client.callTool({ name: "list", arguments: { site: "a", cursor: page.nextCursor } });
    expect(seen).toEqual([{ site: "a" }, { site: "a" }]);
  });

  it("refuses a capability that declares one of its places again, naming both", async () => {
    await expect(createTestClient(StolenModule)).rejects.toThrow(
      '@Thief: its place "paginate" is already declared by @Paginated.',
    );
  });
});
