import "reflect-metadata";
import { McpFactory, RedisEventStore } from "frugal-mcp";
import { BookingsModule } from "./app.module.js";

// One instance of a deployment with shared sessions: start several (PORT=3201, 3202, 3203)
// behind a load balancer without sticky sessions. They must share REDIS_URL.
const app = await McpFactory.create(BookingsModule, { name: "bookings", version: "1.0.0" });
// A broken stream (the GET stream of notifications too) resumes on any instance.
const eventStore = new RedisEventStore({
  url: process.env.REDIS_URL,
  prefix: `${process.env.REDIS_PREFIX ?? "bookings:"}events:`,
  ttlMs: 10 * 60_000,
});
await app.listen({
  transport: "http",
  host: process.env.HOST ?? "127.0.0.1",
  port: Number(process.env.PORT ?? 3201),
  eventStore,
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void app
      .close()
      .then(() => eventStore.close())
      .then(() => process.exit(0));
  });
}
