import "reflect-metadata";
import { McpFactory } from "frugal-mcp";
import { NotesModule } from "./app.module.js";

// A user's own behaviour decorator, @RateLimit, in this folder only: see rate-limit.capability.ts.
async function main() {
  const app = await McpFactory.create(NotesModule, { name: "notes", version: "1.0.0" });
  const { url } = await app.listen({ transport: "http", port: Number(process.env.PORT ?? 3006) });
  process.stderr.write(
    `try (the 6th call within a minute is refused): npx @modelcontextprotocol/inspector@2 --cli ${url} --transport http --method tools/call --tool-name search --tool-arg query=timeout\n`,
  );
  const stop = () => void app.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

await main();
