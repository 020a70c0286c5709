import { McpModule } from "frugal-mcp";
import { NotesService } from "./notes.service.js";
import { RATE_LIMITER, RedisRateLimiter } from "./rate-limiter.js";

/** Read when the app is created, so each instance (and each test) can point elsewhere. */
const prefix = () => process.env.RATE_LIMIT_PREFIX ?? "notes:rate:";

/** Every instance counts in the same Redis: the limit holds across them. */
@McpModule({
  services: [NotesService],
  providers: [{ provide: RATE_LIMITER, useFactory: () => new RedisRateLimiter({ prefix: prefix() }) }],
})
export class NotesModule {}
