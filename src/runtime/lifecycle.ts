import type { Logger } from "../logging/logger.js";

/** A provider that needs time to connect (a Redis client, a subscription). */
export interface Readiable {
  ready(): Promise<void>;
}

/** A provider that holds connections or timers and must release them when the app closes. */
export interface Closeable {
  close(): Promise<void> | void;
}

const has = <K extends string>(value: unknown, key: K): value is Record<K, Function> =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as Record<string, unknown>)[key] === "function";

/**
 * Waits for every provider with `ready()`, but never longer than `timeoutMs`: a provider
 * that cannot connect then fails open or closed on its own, as its documentation says.
 */
export async function awaitReady(
  instances: readonly unknown[],
  timeoutMs: number,
  logger: Logger,
): Promise<void> {
  const pending = instances.filter((i) => has(i, "ready")).map((i) => (i as Readiable).ready());
  if (pending.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs);
  });
  const outcome = await Promise.race([Promise.allSettled(pending), timeout]);
  clearTimeout(timer);
  if (outcome === "timeout")
    logger.warn(`some providers were not ready after ${timeoutMs} ms; starting anyway`);
  else
    for (const o of outcome)
      if (o.status === "rejected") logger.warn("a provider failed to get ready", o.reason);
}

/** Closes every provider with `close()`, newest first, logging (not throwing) failures. */
export async function closeAll(instances: readonly unknown[], logger: Logger): Promise<void> {
  for (const instance of [...instances].reverse()) {
    if (!has(instance, "close")) continue;
    try {
      await (instance as Closeable).close();
    } catch (error) {
      logger.error(`closing ${(instance as object).constructor?.name ?? "a provider"} failed`, error);
    }
  }
}
