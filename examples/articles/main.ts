import "reflect-metadata";
import { McpFactory } from "frugal-mcp";
import { ArticlesModule } from "./app.module.js";

// `node main.js --stdio` for desktop clients; otherwise Streamable HTTP on PORT (default 3001).
// The store: PGlite in memory unless DATABASE_URL or ARTICLES_DB=postgres (see app.module.ts).
// Set CURSOR_SECRET (16+ bytes) so cursors survive restarts and work across instances.
const app = await McpFactory.create(ArticlesModule, {
  name: "articles",
  version: "1.0.0",
  cursorSecret: process.env.CURSOR_SECRET,
  // Seeding Postgres on first start can take longer than the default 500 ms; calls wait for it anyway.
  readyTimeoutMs: 5_000,
});
if (process.argv.includes("--stdio")) {
  await app.listen({ transport: "stdio" });
} else {
  await app.listen({ transport: "http", port: Number(process.env.PORT ?? 3001) });
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void app.close().then(() => process.exit(0)));
}
