import "reflect-metadata";
import { McpFactory } from "frugal-mcp";
import { FilesModule } from "./app.module.js";
import { REMOTE_FILES } from "./file-catalog.js";

// `node main.js --stdio`, or Streamable HTTP on PORT (default 3005). FILES_DIR picks the files
// to serve; REMOTE_FILES (comma-separated URLs) adds remote ones, read with Range requests or,
// when their server ignores or refuses Range, from one shared download.
const app = await McpFactory.create(FilesModule, {
  name: "binary-files",
  version: "1.0.0",
  providers: [
    { provide: REMOTE_FILES, useValue: (process.env.REMOTE_FILES ?? "").split(",").filter(Boolean) },
  ],
});
if (process.argv.includes("--stdio")) {
  await app.listen({ transport: "stdio" });
} else {
  await app.listen({ transport: "http", port: Number(process.env.PORT ?? 3005) });
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void app.close().then(() => process.exit(0)));
}
