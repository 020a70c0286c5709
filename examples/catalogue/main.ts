import "reflect-metadata";
import { McpFactory } from "frugal-mcp";
import { authenticate, CATALOGUE_OPTIONS, SupportDeskModule } from "./app.module.js";

// A large catalogue behind search, admin tools hidden per principal, and a switch that
// changes every client's tool list at run time: see README.md in this folder.
async function main() {
  const app = await McpFactory.create(SupportDeskModule, {
    name: "support-desk",
    version: "1.0.0",
    catalogue: CATALOGUE_OPTIONS,
  });
  const { url } = await app.listen({
    transport: "http",
    port: Number(process.env.PORT ?? 3007),
    authenticate,
  });
  process.stderr.write(
    `try: npx @modelcontextprotocol/inspector@2 --cli ${url} --transport http --header "Authorization: Bearer agent-token" --method tools/list\n`,
  );
  const stop = () => void app.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

await main();
