import {
  CACHE,
  EVENT_BUS,
  McpModule,
  RedisCache,
  RedisEventBus,
  RedisSessionStore,
  SESSION_STORE,
} from "frugal-mcp";
import { BookingsService } from "./bookings.service.js";

/** Read when the app is created, so every instance (and each test) can point elsewhere. */
const url = () => process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const prefix = () => process.env.REDIS_PREFIX ?? "bookings:";

/**
 * Every instance shares sessions, cache and invalidations through the same Redis: a
 * load balancer may send any request of any session to any instance.
 */
@McpModule({
  services: [BookingsService],
  providers: [
    {
      provide: SESSION_STORE,
      useFactory: () => new RedisSessionStore({ url: url(), prefix: `${prefix()}sessions:` }),
    },
    { provide: CACHE, useFactory: () => new RedisCache({ url: url(), prefix: `${prefix()}cache:` }) },
    { provide: EVENT_BUS, useFactory: () => new RedisEventBus({ url: url(), channel: `${prefix()}events` }) },
  ],
})
export class BookingsModule {}
