import {
  CACHE,
  CLOCK,
  type Clock,
  EVENT_BUS,
  InMemoryEventBus,
  LruCache,
  MemoryStorage,
  type ProviderEntry,
  RedisCache,
  RedisEventBus,
  RedisStorage,
  STORAGE,
} from "frugal-mcp";
import { PgliteDatabase } from "../database/pglite-database.js";
import { PostgresDatabase } from "../database/postgres-database.js";
import { SQL_DATABASE, type SqlDatabase } from "../database/sql-database.js";
import { APP_CONFIG, type AppConfig } from "./app-config.js";

/** What a provider factory is given to resolve other tokens. */
type Container = Parameters<Extract<ProviderEntry, { useFactory: unknown }>["useFactory"]>[0];

/** The `APP_CONFIG` a factory is given (the embedded one unless `main.ts` or a test provides another). */
const configOf = (c: Container) => c.resolve<AppConfig>(APP_CONFIG);

/** PGlite (embedded), or a PostgreSQL server when the configuration has a `databaseUrl`. */
export function createDatabase(config: AppConfig, clock: Clock): SqlDatabase {
  const now = () => clock.now();
  return config.databaseUrl
    ? new PostgresDatabase({
        connectionString: config.databaseUrl,
        schema: config.databaseSchema,
        seed: config.seed,
        now,
      })
    : new PgliteDatabase({ dataDir: config.pgliteDir, seed: config.seed, now });
}

/**
 * Every backend the app can swap, as DI providers: the database (`SQL_DATABASE`), and the
 * framework's `CACHE`, `STORAGE` and `EVENT_BUS`, in Redis when the configuration has a
 * `redisUrl` (so several instances share cached results, spilled results and
 * invalidations), else in memory. Factories, so each app builds its own connections when
 * it starts and closes them with `app.close()`; the services only ever see the tokens.
 *
 * @example
 * ```ts
 * @McpModule({ providers: [{ provide: APP_CONFIG, useValue: EMBEDDED_CONFIG }, ...backendProviders()] })
 * ```
 */
export function backendProviders(): ProviderEntry[] {
  return [
    {
      provide: SQL_DATABASE,
      useFactory: (c) => createDatabase(configOf(c), c.resolve<Clock>(CLOCK)),
    },
    {
      provide: CACHE,
      useFactory: (c) => {
        const { redisUrl: url, redisPrefix } = configOf(c);
        return url
          ? new RedisCache({ url, prefix: `${redisPrefix}cache:` })
          : new LruCache({ maxBytes: 64e6 });
      },
    },
    {
      provide: STORAGE,
      useFactory: (c) => {
        const { redisUrl: url, redisPrefix } = configOf(c);
        return url ? new RedisStorage({ url, prefix: `${redisPrefix}res:` }) : new MemoryStorage();
      },
    },
    {
      provide: EVENT_BUS,
      useFactory: (c) => {
        const { redisUrl: url, redisPrefix } = configOf(c);
        return url ? new RedisEventBus({ url, channel: `${redisPrefix}events` }) : new InMemoryEventBus();
      },
    },
  ];
}
