import {
  Cached,
  CLOCK,
  type Clock,
  Inject,
  Invalidates,
  McpService,
  Resource,
  Tool,
  UseInterceptors,
} from "frugal-mcp";
import { z } from "zod";
import { RequireScope } from "../auth/require-scope.interceptor.js";
import { SettingsRepository } from "./settings.repository.js";

/**
 * The app's configuration and metrics, as resources a model reads often: both are cached,
 * and each write tool drops exactly what it makes stale (`@Invalidates`), so a read right
 * after a write is never stale and a read without a write never reaches the database. The
 * writes need a scope (`RequireScope`, an interceptor reading `ctx.auth`).
 */
@McpService()
export class SettingsService {
  constructor(
    private readonly repo: SettingsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Resource("config://app", { description: "The app's settings", mimeType: "application/json" })
  @Cached({ ttl: 3_600_000, invalidateOn: ["config.changed"] })
  config() {
    return this.repo.settings();
  }

  @Resource("metrics://summary", {
    description: "Articles per site, log lines per level and their time range, recorded metric samples",
    mimeType: "application/json",
  })
  @Cached({ ttl: 60_000, invalidateOn: ["metrics.changed"] })
  metrics() {
    return this.repo.metrics();
  }

  @Tool({
    description: "Change one setting (needs the config:write scope)",
    input: {
      key: z
        .string()
        .regex(/^[a-z][a-zA-Z0-9.]{0,63}$/)
        .describe("e.g. theme"),
      value: z.string().max(1_000),
    },
  })
  @UseInterceptors(RequireScope("config:write"))
  @Invalidates("config.changed")
  async setConfig({ key, value }: { key: string; value: string }) {
    await this.repo.set(key, value, this.clock.now());
    return { key, value, note: "config://app is refreshed on its next read" };
  }

  @Tool({
    description: "Record one sample of a metric (needs the metrics:write scope)",
    input: { name: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/), value: z.number().finite() },
  })
  @UseInterceptors(RequireScope("metrics:write"))
  @Invalidates("metrics.changed")
  async recordMetric({ name, value }: { name: string; value: number }) {
    await this.repo.record(name, value, this.clock.now());
    return { recorded: { name, value } };
  }
}
