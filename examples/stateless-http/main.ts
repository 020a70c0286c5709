import "reflect-metadata";
import { McpFactory } from "frugal-mcp";
import { RedisEventStore } from "../../src/transports/redis-event-store.js";
import { ReportsModule } from "./app.module.js";
import { authenticate } from "./auth.js";

// One instance of a stateless deployment: start several (PORT=3101, 3102, 3103) behind a
// load balancer without sticky sessions. They must share CURSOR_SECRET and REDIS_URL.
const cursorSecret = process.env.CURSOR_SECRET;
if (!cursorSecret)
  throw new Error("set CURSOR_SECRET (the same on every instance) so any instance verifies any cursor");
const app = await McpFactory.create(ReportsModule, { name: "reports", version: "1.0.0", cursorSecret });
const eventStore = new RedisEventStore({
  url: process.env.REDIS_URL,
  prefix: `${process.env.REDIS_PREFIX ?? "reports:"}events:`,
  ttlMs: 10 * 60_000,
});
await app.listen({
  transport: "http",
  host: process.env.HOST ?? "127.0.0.1",
  port: Number(process.env.PORT ?? 3101),
  stateless: true,
  authenticate,
  eventStore,
  retryIntervalMs: 1000,
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void app
      .close()
      .then(() => eventStore.close())
      .then(() => process.exit(0));
  });
}
