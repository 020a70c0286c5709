import { CACHE, McpModule, RedisCache, RedisStorage, STORAGE } from "frugal-mcp";
import { ReportsService } from "./reports.service.js";

/** Read when the app is created, so every instance (and each test) can point elsewhere. */
const url = () => process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const prefix = () => process.env.REDIS_PREFIX ?? "reports:";

/** Every instance shares its cache and stored results through the same Redis. */
@McpModule({
  services: [ReportsService],
  providers: [
    { provide: STORAGE, useFactory: () => new RedisStorage({ url: url(), prefix: `${prefix()}storage:` }) },
    { provide: CACHE, useFactory: () => new RedisCache({ url: url(), prefix: `${prefix()}cache:` }) },
  ],
})
export class ReportsModule {}
