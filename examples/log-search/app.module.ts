import { McpModule } from "frugal-mcp";
import { LogCorpus } from "./log-corpus.js";
import { LogsService } from "./logs.service.js";

/**
 * The log-search module. Search results are stored with the default `STORAGE`, a
 * `MemoryStorage` (256 MiB in this process). To keep them across restarts or share them
 * between instances, provide another storage here, e.g. a `FileStorage` on a directory
 * (from `LOG_STORAGE_DIR`) or an `S3Storage` on a bucket:
 *
 * ```ts
 * providers: [LogCorpus, { provide: STORAGE, useValue: new FileStorage({ dir }) }]
 * ```
 */
@McpModule({ services: [LogsService], providers: [LogCorpus] })
export class LogSearchModule {}
