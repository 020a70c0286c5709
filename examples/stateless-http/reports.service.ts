import { Cached, Ephemeral, McpService, Paginated, Tool, type ToolContext } from "frugal-mcp";
import { z } from "zod";

const REGIONS = ["north", "south", "east", "west"];

/** Sales rows of a year: the same for every caller (the data is made up). */
function salesOf(year: number) {
  return Array.from({ length: 120 }, (_, i) => ({
    id: i + 1,
    region: REGIONS[i % REGIONS.length] as string,
    amount: ((i * 7919 + year) % 1000) + 100,
  }));
}

/**
 * Tools that work on any instance behind a load balancer: every request stands alone, and
 * everything that outlives it (cursors, cache entries, stored results, stream events) is
 * in Redis or signed with the shared cursor secret.
 */
@McpService()
export class ReportsService {
  @Tool({ description: "Sales rows of a year, paged", input: { year: z.number().int() } })
  @Paginated("id", { limit: 20 })
  @Cached({ ttl: 60_000, scope: "global" })
  sales({ year }: { year: number }) {
    return salesOf(year);
  }

  @Tool({ description: "Your own dashboard (cached per principal)" })
  @Cached({ ttl: 30_000 })
  dashboard(_input: unknown, ctx: ToolContext) {
    return { principal: ctx.auth?.clientId, regions: REGIONS.length, generatedAt: new Date().toISOString() };
  }

  @Tool({
    description: "A full export of a year, stored for you to read in slices",
    input: { year: z.number().int() },
  })
  @Ephemeral({ when: "always", ttl: 15 * 60_000, name: "sales export" })
  exportSales({ year }: { year: number }) {
    return salesOf(year);
  }

  @Tool({ description: "A slow yearly report: the client polls for it", input: { year: z.number().int() } })
  async yearlyReport({ year }: { year: number }, ctx: ToolContext) {
    await ctx.progress(0, 1, "started");
    // Frees the connection: the client comes back with Last-Event-ID, to whichever
    // instance the balancer picks, which reads the answer from Redis when it is ready.
    ctx.closeSSEStream();
    const rows = salesOf(year);
    await new Promise((resolve) => setTimeout(resolve, 2000, undefined)); // stands for real work
    return { year, total: rows.reduce((sum, row) => sum + row.amount, 0) };
  }
}
