import "reflect-metadata";
import { McpFactory } from "frugal-mcp";
import { AppModule } from "./app.module.js";

// `node main.js --stdio` for desktop clients; otherwise Streamable HTTP on PORT (default 3000).
const app = await McpFactory.create(AppModule, { name: "notes", version: "1.0.0" });
if (process.argv.includes("--stdio")) {
  await app.listen({ transport: "stdio" });
} else {
  await app.listen({ transport: "http", port: Number(process.env.PORT ?? 3000) });
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void app.close().then(() => process.exit(0)));
}
