import { Redis } from "ioredis";

/** The Redis the benchmarks use (`REDIS_URL`, else the local default). */
export const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

/** The Redis server's version, or undefined when nothing answers (the benchmark then skips its Redis cases). */
export async function redisVersion(): Promise<string | undefined> {
  const probe = new Redis(REDIS_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  probe.on("error", () => {});
  try {
    await probe.connect();
    return /redis_version:(\S+)/.exec(await probe.info("server"))?.[1] ?? "unknown";
  } catch {
    return undefined;
  } finally {
    probe.disconnect();
  }
}

/** Every key under a prefix, with SCAN (never KEYS). */
export async function scanKeys(client: Redis, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = "0";
  do {
    const [next, batch] = await client.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== "0");
  return keys;
}

/** Deletes a benchmark's own keys (never the whole database); resolves with how many. */
export async function deletePrefix(prefix: string): Promise<number> {
  const client = new Redis(REDIS_URL);
  try {
    const keys = await scanKeys(client, prefix);
    let deleted = 0;
    for (let i = 0; i < keys.length; i += 500) deleted += await client.del(...keys.slice(i, i + 500));
    return deleted;
  } finally {
    client.disconnect();
  }
}
