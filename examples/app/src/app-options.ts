import type { McpAppOptions } from "frugal-mcp";
import { APP_CONFIG, type AppConfig } from "./config/app-config.js";

/** The token budget of every model-visible answer that sets none of its own. */
export const APP_BUDGET = 2_000;

/**
 * The app's options for a configuration: the config itself as the `APP_CONFIG` provider
 * (overriding the embedded default), the cursor secret, a budget for every answer.
 *
 * @example
 * ```ts
 * const app = await McpFactory.create(AppModule, appOptions(readAppConfig(process.env)));
 * ```
 */
export function appOptions(config: AppConfig) {
  return {
    name: "frugal-flagship",
    version: "1.0.0",
    instructions:
      "Articles (list_articles, get_article), cached config and metrics (config://app, metrics://summary), " +
      "logs (app_search_logs, app_tail_logs, access_*), downloads (list_files). Large results come back as links: " +
      "read them with read_resource or search_resource.",
    budget: APP_BUDGET,
    cursorSecret: config.cursorSecret,
    // Seeding PostgreSQL on a first start takes longer than the default 500 ms; calls wait for it anyway.
    readyTimeoutMs: 15_000,
    providers: [{ provide: APP_CONFIG, useValue: config }],
  } satisfies McpAppOptions;
}
