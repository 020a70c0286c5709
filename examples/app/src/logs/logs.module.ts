import { McpModule } from "frugal-mcp";
import { AccessLogRepository } from "./access-log.repository.js";
import { AccessLogsService } from "./access-logs.service.js";
import { AppLogsRepository } from "./app-logs.repository.js";
import { AppLogsService } from "./app-logs.service.js";

/** One base service, two sources: the database's app log and the access log file. */
@McpModule({
  services: [AppLogsService, AccessLogsService],
  providers: [AppLogsRepository, AccessLogRepository],
})
export class LogsModule {}
