import { Inject, McpService } from "frugal-mcp";
import { AppLogsRepository } from "./app-logs.repository.js";
import { LogSearchService } from "./log-search.service.js";
import type { LogSource } from "./log-source.js";

/** The log tools over the application's log in the database: `app_search_logs`, `app_tail_logs`. */
@McpService({ toolPrefix: "app_" })
export class AppLogsService extends LogSearchService {
  constructor(@Inject(AppLogsRepository) protected readonly source: LogSource) {
    super();
  }
}
