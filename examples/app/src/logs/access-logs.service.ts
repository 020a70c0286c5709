import { Inject, McpService } from "frugal-mcp";
import { AccessLogRepository } from "./access-log.repository.js";
import { LogSearchService } from "./log-search.service.js";
import type { LogSource } from "./log-source.js";

/** The same log tools over the proxy's access log file: `access_search_logs`, `access_tail_logs`. */
@McpService({ toolPrefix: "access_" })
export class AccessLogsService extends LogSearchService {
  constructor(@Inject(AccessLogRepository) protected readonly source: LogSource) {
    super();
  }
}
