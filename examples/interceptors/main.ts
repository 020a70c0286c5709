import "reflect-metadata";
import { createServer } from "node:http";
import { McpFactory } from "frugal-mcp";
import { appOptions, NotesModule } from "./app.module.js";
import { withBearerAuth } from "./auth.js";

// Streamable HTTP on 127.0.0.1:PORT (default 3006)/mcp, behind a bearer-token check with
// DEMO-ONLY tokens (see auth.ts): demo-reader, demo-writer, demo-ops.
const app = await McpFactory.create(NotesModule, appOptions);
const port = Number(process.env.PORT ?? 3006);
const server = createServer(withBearerAuth(app.httpHandler()));
server.listen(port, "127.0.0.1", () => {
  process.stderr.write(`secured-notes listening on http://127.0.0.1:${port}/mcp (demo tokens only)\n`);
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    server.close();
    void app.close().then(() => process.exit(0));
  });
}
