/**
 * The flagship (examples/app) end to end through the SDK client over Streamable HTTP:
 * on PGlite with everything in memory (the embedded default), and on PostgreSQL with the
 * cache, storage and events in Redis, each in a schema and key prefix of its own (under
 * CI=true a missing service fails the suite instead of skipping it).
 */

import { type AddressInfo, createServer } from "node:net";
import {
  InMemoryEventBus,
  LruCache,
  MemoryStorage,
  RedisCache,
  RedisEventBus,
  RedisStorage,
} from "frugal-mcp";
import pg from "pg";
import { describe, expect, it, vi } from "vitest";
import { EMBEDDED_CONFIG, readAppConfig } from "../../examples/app/src/config/app-config.js";
import { PgliteDatabase } from "../../examples/app/src/database/pglite-database.js";
import { PostgresDatabase } from "../../examples/app/src/database/postgres-database.js";
import { startServer } from "../../examples/app/src/server.js";
import { postgresAvailable, randomSchema } from "../support/postgres.js";
import { DATABASE_URL, deletePrefix, REDIS_URL, randomPrefix, redisAvailable } from "../support/services.js";
import { connect, flagshipContract, TEST_SEED } from "./flagship-contract.js";

describe("flagship configuration", () => {
  it("is read from the environment it is given, and only there", () => {
    // The module's own default: embedded, whatever REDIS_URL or DATABASE_URL this process has.
    expect(EMBEDDED_CONFIG.databaseUrl).toBeUndefined();
    expect(EMBEDDED_CONFIG.redisUrl).toBeUndefined();
    expect(readAppConfig({})).toMatchObject({ databaseUrl: undefined, redisUrl: undefined });
    expect(
      readAppConfig({
        DATABASE_URL: "postgres://u@db/x",
        REDIS_URL: "redis://cache:6379",
        DATABASE_SCHEMA: "s1",
        PGLITE_DIR: "/var/lib/frugal",
      }),
    ).toMatchObject({
      pgliteDir: "/var/lib/frugal",
      databaseUrl: "postgres://u@db/x",
      databaseSchema: "s1",
      redisUrl: "redis://cache:6379",
    });
  });

  it("refuses a URL it cannot use, saying what to do", () => {
    expect(() => readAppConfig({ DATABASE_URL: "mysql://u:secret@db/x" })).toThrow(
      /DATABASE_URL must be a postgres:\/\/ URL, not "db\/x"; unset it/,
    );
    expect(() => readAppConfig({ REDIS_URL: "localhost:6379" })).toThrow(/REDIS_URL must be a redis:\/\//);
    // The embedded database used to be SQLite: a file set for it must not be ignored silently.
    expect(() => readAppConfig({ SQLITE_FILE: "app.db" })).toThrow(/set PGLITE_DIR to a directory/);
  });

  it("refuses a schema name that is not a plain identifier", () => {
    expect(
      () =>
        new PostgresDatabase({
          connectionString: DATABASE_URL,
          schema: 'x"; DROP',
          seed: TEST_SEED,
          now: Date.now,
        }),
    ).toThrow(/DATABASE_SCHEMA .* is not a plain lower-case identifier/);
  });
});

describe("flagship start-up", () => {
  it("says which port is taken and how to pick another, and closes the app it built", async () => {
    // A plain socket holds the port, so the test builds one flagship (and starts one
    // embedded PostgreSQL), not two.
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const { port } = holder.address() as AddressInfo;
    const config = { ...EMBEDDED_CONFIG, seed: { articles: 3, appLogLines: 3, accessLogLines: 3 } };
    const closed = vi.spyOn(PgliteDatabase.prototype, "close");
    try {
      await expect(startServer(config, { port })).rejects.toThrow(
        `port ${port} is in use; start with PORT=<another port>`,
      );
      expect(closed).toHaveBeenCalled();
    } finally {
      closed.mockRestore();
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});

describe("flagship on PGlite, cache and storage in memory", () => {
  flagshipContract(async () => ({ ...EMBEDDED_CONFIG, seed: TEST_SEED }), {
    database: PgliteDatabase,
    cache: LruCache,
    storage: MemoryStorage,
    events: InMemoryEventBus,
  });
});

const services = (await postgresAvailable()) && (await redisAvailable());

describe.skipIf(!services)("flagship on PostgreSQL, cache, storage and events in Redis", () => {
  const schema = randomSchema("flagship");
  const prefix = randomPrefix("flagship");
  const config = {
    ...EMBEDDED_CONFIG,
    seed: TEST_SEED,
    databaseUrl: DATABASE_URL,
    databaseSchema: schema,
    redisUrl: REDIS_URL,
    redisPrefix: prefix,
  };

  flagshipContract(
    async () => config,
    { database: PostgresDatabase, cache: RedisCache, storage: RedisStorage, events: RedisEventBus },
    async () => {
      const admin = new pg.Client({ connectionString: DATABASE_URL });
      await admin.connect();
      try {
        await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await admin.end();
      }
      await deletePrefix(prefix);
    },
  );

  it("shares the cache and invalidations between two instances on the same Redis", async () => {
    const shared = {
      ...config,
      databaseSchema: randomSchema("flagship_pair"),
      redisPrefix: randomPrefix("flagship-pair"),
    };
    const a = await startServer(shared, { port: 0 });
    const b = await startServer(shared, { port: 0 });
    const onA = await connect(a.url);
    const adminOnB = await connect(b.url, "demo-admin");
    try {
      const read = async () => {
        const [content] = (await onA.readResource({ uri: "config://app" })).contents;
        return JSON.parse((content as { text: string }).text) as { settings: Record<string, string> };
      };
      expect((await read()).settings.theme).toBe("light");
      // The write lands on B; its invalidation reaches A through the Redis event bus and the shared cache.
      expect(
        (await adminOnB.callTool({ name: "set_config", arguments: { key: "theme", value: "solar" } }))
          .isError,
      ).toBeFalsy();
      expect((await read()).settings.theme).toBe("solar");
    } finally {
      await onA.close();
      await adminOnB.close();
      await a.close();
      await b.close();
      const admin = new pg.Client({ connectionString: DATABASE_URL });
      await admin.connect();
      await admin
        .query(`DROP SCHEMA IF EXISTS "${shared.databaseSchema}" CASCADE`)
        .finally(() => admin.end());
      await deletePrefix(shared.redisPrefix);
    }
  });
});
