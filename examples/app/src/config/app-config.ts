import type { CursorSecret } from "frugal-mcp";

/** How much data the embedded database is seeded with. */
export interface SeedSizes {
  /** Articles, spread over the sites round-robin. */
  articles: number;
  /** Application log lines in the database, over the 24 hours before seeding. */
  appLogLines: number;
  /** Access log lines in the generated `access.log` file, over the same 24 hours. */
  accessLogLines: number;
}

/**
 * Everything the flagship can be configured with. It is read from the environment in one
 * place (`readAppConfig`, called by `main.ts`) and injected as `APP_CONFIG`; the providers
 * that choose a backend read it, the services never do.
 */
export interface AppConfig {
  /** `postgres://…` switches the database from the embedded PGlite to a PostgreSQL server. */
  databaseUrl?: string | undefined;
  /** PostgreSQL schema holding the tables (default `frugal_app`); tests pass a random one. */
  databaseSchema: string;
  /** A directory for the embedded PGlite database; without it the database lives in memory for the life of the process. */
  pgliteDir?: string | undefined;
  /** `redis://…` switches the cache, ephemeral storage and event bus to Redis. */
  redisUrl?: string | undefined;
  /** Prefix of every Redis key and channel of this app (default `frugal-app:`). */
  redisPrefix: string;
  /** Where the generated files (the access log, the downloads) live; default a fresh temporary directory. */
  dataDir?: string | undefined;
  /** Secret signing cursors, so they survive restarts and work across instances. */
  cursorSecret?: CursorSecret | undefined;
  /** Rows and lines to generate into an empty database. */
  seed: SeedSizes;
}

/** DI token of the `AppConfig`. */
export const APP_CONFIG = Symbol("APP_CONFIG");

/** The seed of a real-looking demo: a few thousand articles, 50,000 log lines. */
export const DEFAULT_SEED: SeedSizes = { articles: 3_000, appLogLines: 50_000, accessLogLines: 20_000 };

/**
 * The embedded configuration: PGlite in memory, cache, storage and events in memory.
 * It is what `AppModule` provides by default, so importing the module (as tests do) never
 * reads the environment; `main.ts` overrides it with `readAppConfig(process.env)`.
 */
export const EMBEDDED_CONFIG: AppConfig = Object.freeze({
  databaseSchema: "frugal_app",
  redisPrefix: "frugal-app:",
  seed: DEFAULT_SEED,
});

/**
 * The configuration from environment variables: `DATABASE_URL` (a `postgres://` URL),
 * `DATABASE_SCHEMA`, `PGLITE_DIR`, `REDIS_URL`, `REDIS_PREFIX`, `DATA_DIR`, `CURSOR_SECRET`.
 *
 * @example
 * ```ts
 * const config = readAppConfig(process.env);
 * await McpFactory.create(AppModule, { ...appOptions(config), providers: [{ provide: APP_CONFIG, useValue: config }] });
 * ```
 */
export function readAppConfig(env: NodeJS.ProcessEnv): AppConfig {
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error(
      `DATABASE_URL must be a postgres:// URL, not "${databaseUrl.split("@").pop()}"; unset it to use the embedded PGlite database`,
    );
  }
  if (env.SQLITE_FILE) {
    // Say so rather than start on an empty database while the user thinks theirs is in use.
    throw new Error(
      "SQLITE_FILE is no longer read: the embedded database is PGlite; set PGLITE_DIR to a directory",
    );
  }
  const redisUrl = env.REDIS_URL || undefined;
  if (redisUrl !== undefined && !/^rediss?:\/\//.test(redisUrl)) {
    throw new Error(`REDIS_URL must be a redis:// or rediss:// URL; unset it to keep everything in memory`);
  }
  return {
    databaseUrl,
    databaseSchema: env.DATABASE_SCHEMA || EMBEDDED_CONFIG.databaseSchema,
    pgliteDir: env.PGLITE_DIR || undefined,
    redisUrl,
    redisPrefix: env.REDIS_PREFIX || EMBEDDED_CONFIG.redisPrefix,
    dataDir: env.DATA_DIR || undefined,
    cursorSecret: env.CURSOR_SECRET || undefined,
    seed: DEFAULT_SEED,
  };
}

/** One line saying which backends a configuration picks (for the start-up banner). */
export function describeBackends(config: AppConfig): string {
  const database = config.databaseUrl
    ? `PostgreSQL (schema ${config.databaseSchema})`
    : `PGlite (${config.pgliteDir ?? "in memory"})`;
  const shared = config.redisUrl
    ? `Redis (prefix ${config.redisPrefix})`
    : "in memory (set REDIS_URL to share them)";
  return `database: ${database}; cache, storage and events: ${shared}`;
}
