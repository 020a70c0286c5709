import { createRequire } from "node:module";
import type { Redis, RedisOptions } from "ioredis";

let ioredis: typeof import("ioredis") | undefined;

/**
 * A new ioredis client. ioredis is loaded here, on first use (importing it costs about
 * 40–70 ms of start-up), so an app that constructs no Redis provider never loads it.
 * `require`, not `import()`: providers build their clients in synchronous constructors,
 * and ioredis is CommonJS, so this is the very module an `import "ioredis"` would give.
 */
export function createRedisClient(url: string, options: RedisOptions): Redis {
  ioredis ??= createRequire(import.meta.url)("ioredis") as typeof import("ioredis");
  return new ioredis.Redis(url, options);
}

/** How a Redis-backed provider gets its connection. */
export interface RedisConnectionOptions {
  /** Connection URL (default `REDIS_URL`, else `redis://127.0.0.1:6379`). */
  url?: string;
  /** A client of your own; the provider never closes it. */
  client?: Redis;
  /** Longest a single command may take before it fails (default 250 ms). */
  commandTimeoutMs?: number;
}

/** A connection and whether the provider owns (and must close) it. */
export interface RedisConnection {
  readonly client: Redis;
  readonly owned: boolean;
}

/**
 * Settings that make an outage visible in milliseconds: no offline queue (ioredis would
 * otherwise queue commands and retry them 20 times, taking over a minute to fail), a
 * short command timeout, and reconnection in the background so caching resumes by
 * itself when Redis comes back.
 */
export function redisOptions(commandTimeoutMs = 250): RedisOptions {
  return {
    enableOfflineQueue: false,
    commandTimeout: commandTimeoutMs,
    maxRetriesPerRequest: 0,
    lazyConnect: true,
    connectTimeout: 1000,
    retryStrategy: (attempt) => Math.min(100 * 2 ** attempt, 2000),
  };
}

/** Opens (lazily) or adopts a Redis connection. */
export function redisConnection(options: RedisConnectionOptions): RedisConnection {
  if (options.client) return { client: options.client, owned: false };
  const url = options.url ?? process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  const client = createRedisClient(url, redisOptions(options.commandTimeoutMs));
  // Connection errors surface on the commands that fail (and are logged there); without a
  // listener ioredis would also print each reconnection attempt as an unhandled error.
  client.on("error", () => {});
  return { client, owned: true };
}

/**
 * Connects an owned client: a lazy one for the first time, or one closed by an earlier
 * app (a provider registered with `useValue` in a module outlives each app built from
 * it). An adopted client is the caller's business.
 */
export async function connectRedis(connection: RedisConnection): Promise<void> {
  if (!connection.owned) return;
  const { status } = connection.client;
  if (status === "wait" || status === "end" || status === "close") await connection.client.connect();
}

/**
 * Closes an owned client (politely, then by force) and waits until it has really ended,
 * so a later app can connect it again; leaves an adopted one alone.
 */
export async function closeRedis(connection: RedisConnection): Promise<void> {
  if (!connection.owned) return;
  await endClient(connection.client);
}

/** QUIT resolves before the socket closes; wait for "end" (or at most a second). */
export async function endClient(client: Redis): Promise<void> {
  if (client.status === "end" || client.status === "wait") return;
  let timer: NodeJS.Timeout | undefined;
  const ended = new Promise<void>((resolve) => {
    client.once("end", () => resolve());
    timer = setTimeout(resolve, 1000);
  });
  try {
    await client.quit();
  } catch {
    client.disconnect();
  }
  await ended;
  clearTimeout(timer);
}
