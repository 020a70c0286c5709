// Cold-start contender (c): frugal-mcp with a `@Budget` tool and an `@Ephemeral` tool (which
// brings the built-in read_resource and search_resource tools), over stdio.
import "./rss-probe.js";
import "reflect-metadata";
import { Budget, Ephemeral, McpFactory, McpModule, McpService, Tool } from "frugal-mcp";
import { z } from "zod";

const ROWS = Array.from({ length: 40 }, (_, i) => ({ id: i, title: `Report row ${i}`, total: i * 37 }));

@McpService()
class ReportsService {
  @Tool({ description: "Rows of the report", input: { limit: z.number().int().min(1).max(40).optional() } })
  @Budget(2000)
  rows({ limit }: { limit?: number }) {
    return ROWS.slice(0, limit ?? ROWS.length);
  }

  @Tool({ description: "The whole report as text; a large one comes back as a link to read in slices" })
  @Ephemeral({ ttl: 600_000, mimeType: "text/plain" })
  exportReport() {
    return ROWS.map((row) => `${row.id}\t${row.title}\t${row.total}`).join("\n");
  }
}

@McpModule({ services: [ReportsService] })
class AppModule {}

const app = await McpFactory.create(AppModule, { name: "reports", version: "1.0.0" });
await app.listen({ transport: "stdio" });
