import { McpModule } from "frugal-mcp";
import { ArticlesModule } from "./articles/articles.module.js";
import { ConfigModule } from "./config/config.module.js";
import { FilesModule } from "./files/files.module.js";
import { LogsModule } from "./logs/logs.module.js";
import { SettingsModule } from "./settings/settings.module.js";

/**
 * The flagship: one module per feature, and the configuration module that picks the
 * backends (PGlite or a PostgreSQL server; memory or Redis) for all of them.
 */
@McpModule({ imports: [ConfigModule, ArticlesModule, SettingsModule, LogsModule, FilesModule] })
export class AppModule {}
