import "reflect-metadata";
import { McpFactory } from "frugal-mcp";
import { AppModule } from "./app.module.js";

// `node main.js --stdio` for desktop clients; otherwise Streamable HTTP on PORT (default 3000).
// An async main, not top-level await, as in the README: the file compiles as ESM and as CommonJS.
async function main() {
  const app = await McpFactory.create(AppModule, { name: "notes", version: "1.0.0" });
  if (process.argv.includes("--stdio")) {
    await app.listen({ transport: "stdio" });
  } else {
    await app.listen({ transport: "http", port: Number(process.env.PORT ?? 3000) });
  }
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => void app.close().then(() => process.exit(0)));
  }
}
main(); // a start-up error ends the process with its message
