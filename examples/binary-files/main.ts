import "reflect-metadata";
import { McpFactory } from "frugal-mcp";
import { FilesModule } from "./app.module.js";

// `node main.js --stdio`, or Streamable HTTP on PORT (default 3005). FILES_DIR picks the files to serve.
const app = await McpFactory.create(FilesModule, { name: "binary-files", version: "1.0.0" });
if (process.argv.includes("--stdio")) {
  await app.listen({ transport: "stdio" });
} else {
  await app.listen({ transport: "http", port: Number(process.env.PORT ?? 3005) });
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void app.close().then(() => process.exit(0)));
}
