import type { Cluster, ClusterOptions, Redis, RedisOptions } from "ioredis";
import { fieldOf } from "../common/guards.js";
import { requirePackage } from "../common/require-package.js";

let ioredis: typeof import("ioredis") | undefined;

/** ioredis, loaded on first use (see `createRedisClient`). */
function loadIoredis(): typeof import("ioredis") {
  const module: typeof import("ioredis") = ioredis ?? requirePackage("ioredis");
  ioredis = module;
  return module;
}

/**
 * A client of one Redis or of a Redis Cluster: the providers use only commands both
 * have, and build keys so that every multi-key command and script stays on one slot.
 */
export type RedisClient = Redis | Cluster;

/** A node of a Redis Cluster to start from (the client finds the others). */
export interface RedisClusterNode {
  readonly host: string;
  readonly port: number;
}

/**
 * A new ioredis client. ioredis is loaded here, on first use (importing it costs about
 * 40–70 ms of start-up), so an app that constructs no Redis provider never loads it.
 * `require`, not `import()`: providers build their clients in synchronous constructors,
 * and ioredis is CommonJS, so this is the very module an `import "ioredis"` would give.
 */
export function createRedisClient(url: string, options: RedisOptions): Redis {
  return new (loadIoredis().Redis)(url, options);
}

/** A new ioredis Cluster client over `nodes`, with the same fail-fast settings per node. */
export function createClusterClient(nodes: readonly RedisClusterNode[], options: RedisOptions): Cluster {
  return new (loadIoredis().Cluster)([...nodes], clusterOptions(options));
}

/** The settings of `redisOptions` as ioredis Cluster options (per node, and for the cluster). */
export function clusterOptions(options: RedisOptions): ClusterOptions {
  const { enableOfflineQueue, retryStrategy, lazyConnect, ...perNode } = options;
  return {
    enableOfflineQueue: enableOfflineQueue ?? false,
    lazyConnect: lazyConnect ?? true,
    clusterRetryStrategy: (attempt) => (retryStrategy ? (retryStrategy(attempt) ?? null) : null),
    // A slot that moved is followed at once; nothing waits in a queue meanwhile.
    retryDelayOnMoved: 0,
    redisOptions: perNode,
  };
}

/** True for an ioredis Cluster client. */
export function isCluster(client: RedisClient): client is Cluster {
  return fieldOf(client, "isCluster") === true;
}

/** How a Redis-backed provider gets its connection. */
export interface RedisConnectionOptions {
  /** Connection URL (default `REDIS_URL`, else `redis://127.0.0.1:6379`). */
  url?: string;
  /**
   * A client of your own: an ioredis `Redis`, or a `Cluster` for Redis Cluster. The
   * provider never closes it.
   */
  client?: RedisClient;
  /**
   * Nodes of a Redis Cluster to connect to (the provider opens, and closes, an ioredis
   * `Cluster` over them): `cluster: [{ host: "10.0.0.1", port: 7000 }]`.
   */
  cluster?: readonly RedisClusterNode[];
  /** Longest a single command may take before it fails (default 250 ms). */
  commandTimeoutMs?: number;
}

/** A connection and whether the provider owns (and must close) it. */
export interface RedisConnection {
  readonly client: RedisClient;
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
  const settings = redisOptions(options.commandTimeoutMs);
  const client =
    options.cluster && options.cluster.length > 0
      ? createClusterClient(options.cluster, settings)
      : createRedisClient(options.url ?? process.env.REDIS_URL ?? "redis://127.0.0.1:6379", settings);
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
export async function endClient(client: RedisClient): Promise<void> {
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

/**
 * Every key matching `pattern`, page by page, with SCAN (never KEYS). On a Cluster, SCAN
 * sees one node's keys, so each master is scanned in turn. A key may come twice.
 *
 * @example
 * ```ts
 * for await (const keys of scanKeys(client, "app:m:*")) console.log(keys.length);
 * ```
 */
export async function* scanKeys(client: RedisClient, pattern: string, count = 500): AsyncIterable<string[]> {
  const nodes: Redis[] = isCluster(client) ? client.nodes("master") : [client];
  for (const node of nodes) {
    let cursor = "0";
    do {
      const [next, keys] = await node.scan(cursor, "MATCH", pattern, "COUNT", count);
      cursor = next;
      if (keys.length > 0) yield keys;
    } while (cursor !== "0");
  }
}

/**
 * `{text}` as the hash tag of a Redis Cluster key: keys that carry the same tag live on
 * one slot, so a transaction or a script over them runs on one node. On a single Redis
 * it is only part of the name.
 */
export function hashTag(text: string): string {
  return `{${text}}`;
}
