import { McpModule } from "frugal-mcp";
import { SettingsRepository } from "./settings.repository.js";
import { SettingsService } from "./settings.service.js";

/** Cached configuration and metrics, and the scoped tools that write them. */
@McpModule({ services: [SettingsService], providers: [SettingsRepository] })
export class SettingsModule {}
