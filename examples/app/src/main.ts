import "reflect-metadata";
import { fileURLToPath } from "node:url";
import { McpFactory } from "frugal-mcp";
import { AppModule } from "./app.module.js";
import { appOptions } from "./app-options.js";
import { banner, servedOperations } from "./banner.js";
import { describeBackends, readAppConfig } from "./config/app-config.js";
import { startServer } from "./server.js";

// `node main.js` serves Streamable HTTP on 127.0.0.1:PORT (default 3000) and prints what to do
// next; `node main.js --stdio` serves one desktop client over stdio. The environment is read
// here and nowhere else: DATABASE_URL, REDIS_URL, … (see config/app-config.ts).
const config = readAppConfig(process.env);

if (process.argv.includes("--stdio")) {
  const app = await McpFactory.create(AppModule, appOptions(config));
  await app.listen({ transport: "stdio" });
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => void app.close().then(() => process.exit(0)));
  }
} else {
  const server = await startServer(config, { port: Number(process.env.PORT ?? 3000) });
  const served = await servedOperations(server.app);
  process.stdout.write(
    banner({
      url: server.url,
      backends: describeBackends(config),
      ...served,
      mainPath: fileURLToPath(import.meta.url),
      nodePath: process.execPath,
    }),
  );
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => void server.close().then(() => process.exit(0)));
  }
}
