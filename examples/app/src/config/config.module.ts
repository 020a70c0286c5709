import { McpModule } from "frugal-mcp";
import { APP_CONFIG, EMBEDDED_CONFIG } from "./app-config.js";
import { backendProviders } from "./backends.js";
import { DataDirectory } from "./data-directory.js";

/**
 * The configuration and the backends it picks. `APP_CONFIG` defaults to the embedded
 * setup; `main.ts` provides the one read from the environment, and tests provide their
 * own (a random PostgreSQL schema, a random Redis prefix), through the app's `providers`.
 * `DataDirectory` holds the generated files (the access log, the downloads).
 */
@McpModule({
  providers: [{ provide: APP_CONFIG, useValue: EMBEDDED_CONFIG }, ...backendProviders(), DataDirectory],
})
export class ConfigModule {}
